// write_output_file (see output_file.h).
#include "apps/lower/output_file.h"

#include <cstdio>

namespace ember::aot {

Error write_output_file(const std::string& path, const void* data, size_t size) {
  FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr) return fail(Error::AccessFailed, "cannot write '" + path + "'");
  const bool written = std::fwrite(data, 1, size, f) == size;
  if (std::fclose(f) != 0 || !written)
    return fail(Error::AccessFailed, "cannot write '" + path + "'");
  return Error::Ok;
}

}  // namespace ember::aot
