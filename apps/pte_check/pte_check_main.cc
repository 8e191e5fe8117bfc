// pte_check: command-line front end of the .pte checker.
//
//   bazel run //aot/pte_check:pte_check_tool -- model.pte [more.pte ...]
//
// Prints one line per violation ("file: error rule at location: message") and a
// summary per file. A bundled program (.bpte, "BP08") is opened with the runtime's reader
// and the program inside it is checked (a malformed .bpte is an error line). Exit status: 0 when no file has an error (warnings allowed),
// 1 when some file has an error, 2 when a file cannot be read.
#include <cstdio>
#include <fstream>
#include <iterator>
#include <vector>

#include "apps/pte_check/pte_check.h"
#include "runtime/bundled/bundled_program.h"
#include "runtime/core/diagnostics.h"

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
    if (ember::runtime::BundledProgram::has_identifier(bytes.data(), bytes.size())) {
      auto bundled = ember::runtime::BundledProgram::open(bytes.data(), bytes.size());
      if (!bundled.ok()) {
        std::printf("%s: error bundled: %s\n%s: 1 error(s), 0 warning(s)\n", argv[i],
                    ember::runtime::last_error_message(), argv[i]);
        status = status == 0 ? 1 : status;
        continue;
      }
      std::printf("%s: bundled program (BP08): checking the program inside (%zu bytes)\n", argv[i],
                  bundled->program().size());
      bytes.assign(bundled->program().begin(), bundled->program().end());
    }
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
