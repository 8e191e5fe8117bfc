// write_output_file: the one way `lower` writes a file (the .pte, the multi-method .pte, the
// debug sidecar and the bundled .bpte all go through it), so that how outputs are written
// is decided in one place: atomically (apps/common/atomic_file.h), through a temporary file in
// the target's folder and a rename, so a failed or killed run leaves any previous file intact.
//
//   EMBER_TRY(write_output_file(options.out, pte));
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "aot/ir/error.h"

namespace ember::aot {

// Writes `size` bytes at `data` to `path`, replacing the file atomically. AccessFailed naming
// `path` (and the step that failed) when it cannot be written; the previous file is intact.
Error write_output_file(const std::string& path, const void* data, size_t size);

inline Error write_output_file(const std::string& path, const std::vector<uint8_t>& bytes) {
  return write_output_file(path, bytes.data(), bytes.size());
}

inline Error write_output_file(const std::string& path, const std::string& text) {
  return write_output_file(path, text.data(), text.size());
}

// One output of a run: its path and bytes.
struct OutputFile {
  std::string path;
  std::vector<uint8_t> bytes;
};

// Writes every file of one run: all reach their temporaries before the first rename, so a
// full disk or a bad folder leaves every previous output as it was (issue #33: a failing
// --debug_out left a new .pte beside the old sidecar).
Error write_output_files(const std::vector<OutputFile>& files);

}  // namespace ember::aot
