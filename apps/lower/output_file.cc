// write_output_file (see output_file.h): every output of lower is written atomically.
#include "apps/lower/output_file.h"

#include "apps/common/atomic_file.h"

namespace ember::aot {

Error write_output_file(const std::string& path, const void* data, size_t size) {
  return apps::write_file_atomically(path, data, size);
}

}  // namespace ember::aot
