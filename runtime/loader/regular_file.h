// Opening a program or data file for the file and mmap loaders: one place that
// turns open()/fstat() failures into named errors (NotFound for a missing path,
// AccessFailed for anything else, including a path that is not a regular file).
#pragma once

#include <cstddef>

#include "runtime/core/result.h"

namespace ember::runtime {

struct RegularFile {
  int fd = -1;      // open read-only, close-on-exec; the caller closes it
  size_t size = 0;  // bytes
};

Result<RegularFile> open_regular_file(const char* path);

}  // namespace ember::runtime
