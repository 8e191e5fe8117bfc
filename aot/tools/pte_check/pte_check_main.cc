// pte_check: command-line front end of the .pte checker.
//
//   bazel run //aot/pte_check:pte_check_tool -- model.pte [more.pte ...]
//
// Prints one line per violation ("file: error rule at location: message") and a
// summary per file. Exit status: 0 when no file has an error (warnings allowed),
// 1 when some file has an error, 2 when a file cannot be read.
#include <cstdio>
#include <fstream>
#include <iterator>
#include <vector>

#include "aot/tools/pte_check/pte_check.h"

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s file.pte [file.pte ...]\n", argv[0]);
    return 2;
  }
  int status = 0;
  for (int i = 1; i < argc; ++i) {
    std::ifstream in(argv[i], std::ios::binary);
    if (!in) {
      std::fprintf(stderr, "%s: cannot read the file\n", argv[i]);
      status = 2;
      continue;
    }
    std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)),
                               std::istreambuf_iterator<char>());
    std::vector<ember::aot::PteViolation> violations = ember::aot::check_pte(bytes);
    for (const ember::aot::PteViolation& v : violations) {
      std::printf("%s: %s\n", argv[i], v.to_string().c_str());
    }
    size_t errors = ember::aot::count_errors(violations);
    std::printf("%s: %zu error(s), %zu warning(s)\n", argv[i], errors, violations.size() - errors);
    if (errors > 0 && status == 0) status = 1;
  }
  return status;
}
