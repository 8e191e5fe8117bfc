#include "runtime/core/data_loader.h"

#include <cstring>

#include "runtime/core/diagnostics.h"

namespace ember::runtime {

Error DataLoader::load_and_copy(const DataLoader& loader, size_t offset, size_t size,
                                const SegmentInfo& info, void* buffer) {
  Result<FreeableBuffer> data = loader.load(offset, size, info);
  if (!data.ok()) return data.error();
  if (data->size() < size) {
    return fail(Error::AccessFailed, "load_into: loader returned %zu bytes, %zu requested",
                data->size(), size);
  }
  if (size > 0) std::memcpy(buffer, data->data(), size);
  return Error::Ok;
}

}  // namespace ember::runtime
