// trace_check FILE.json: exits 0 when FILE is valid trace-event JSON (trace_check.h), else
// prints the first problem and exits 1. Used by the end-to-end profiling test.
#include <cstdio>
#include <fstream>
#include <sstream>

#include "apps/diagnostics/trace_check.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: trace_check FILE.json\n");
    return 2;
  }
  std::ifstream in(argv[1], std::ios::binary);
  if (!in) {
    fprintf(stderr, "trace_check: cannot read '%s'\n", argv[1]);
    return 1;
  }
  std::stringstream text;
  text << in.rdbuf();
  std::string why;
  if (!ember::runtime::check_trace_events(text.str(), &why)) {
    fprintf(stderr, "trace_check: %s: %s\n", argv[1], why.c_str());
    return 1;
  }
  return 0;
}
