// pte_check: command-line front end of the .pte checker.
//
//   bazel run //aot/pte_check:pte_check_tool -- model.pte [more.pte ...]
//
// Prints one line per violation ("file: error rule at location: message") and a
// summary per file. A bundled program (.bpte, "BP08") is opened with the runtime's reader
// and the program inside it is checked (a malformed .bpte is an error line). Files are read
// through the runtime's FileDataLoader: a directory, device or FIFO is a named error before
// any read (issue #33: a directory and /dev/zero aborted, a FIFO hung). Strings from the file
// are escaped (apps/common/printable.h). Exit status (docs/error_handling.md): 0 when no file
// has an error (warnings allowed), 1 when some file has an error or cannot be read
// ("pte_check: ErrorName (0xNN): message"), 2 on bad usage.
#include <cstdio>
#include <vector>

#include "apps/common/printable.h"
#include "apps/pte_check/pte_check.h"
#include "runtime/bundled/bundled_program.h"
#include "runtime/core/diagnostics.h"
#include "runtime/loader/file_data_loader.h"

namespace {

// The whole file, or a named error (NotFound, AccessFailed for anything not a regular file).
ember::runtime::Result<std::vector<uint8_t>> read_program_file(const char* path) {
  auto file = ember::runtime::FileDataLoader::from(path);
  if (!file.ok()) return file.error();
  std::vector<uint8_t> bytes(*file->size());
  if (!bytes.empty()) {
    EMBER_TRY(file->load_into(0, bytes.size(), ember::runtime::SegmentInfo{}, bytes.data()));
  }
  return bytes;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s file.pte [file.pte ...]\n", argv[0]);
    return 2;
  }
  int status = 0;
  for (int i = 1; i < argc; ++i) {
    auto read = read_program_file(argv[i]);
    if (!read.ok()) {
      char buffer[ember::runtime::kMaxErrorMessageLength + 64];
      std::fprintf(stderr, "pte_check: %s\n",
                   ember::apps::printable_message(ember::runtime::format_error(read.error(), buffer, sizeof(buffer))).c_str());
      status = status == 0 ? 1 : status;
      continue;
    }
    std::vector<uint8_t> bytes = std::move(read.get());
    if (ember::runtime::BundledProgram::has_identifier(bytes.data(), bytes.size())) {
      auto bundled = ember::runtime::BundledProgram::open(bytes.data(), bytes.size());
      if (!bundled.ok()) {
        std::printf("%s: error bundled: %s\n%s: 1 error(s), 0 warning(s)\n", argv[i],
                    ember::apps::printable_message(ember::runtime::last_error_message()).c_str(), argv[i]);
        status = status == 0 ? 1 : status;
        continue;
      }
      std::printf("%s: bundled program (BP08): checking the program inside (%zu bytes)\n", argv[i],
                  bundled->program().size());
      bytes.assign(bundled->program().begin(), bundled->program().end());
    }
    std::vector<ember::aot::PteViolation> violations = ember::aot::check_pte(bytes);
    for (const ember::aot::PteViolation& v : violations) {
      std::printf("%s: %s\n", argv[i], ember::apps::printable_message(v.to_string()).c_str());
    }
    size_t errors = ember::aot::count_errors(violations);
    std::printf("%s: %zu error(s), %zu warning(s)\n", argv[i], errors, violations.size() - errors);
    if (errors > 0 && status == 0) status = 1;
  }
  return status;
}
