// NamedDataMap: blobs of bytes looked up by string key. A program's own
// `named_data` segments (e.g. XNNPACK weights keyed by the SHA-256 hex of their
// bytes) and external .ptd files are both exposed through this interface, and a
// backend reads it from its BackendInitContext. Implementations never allocate
// on the heap during get_data for in-memory data.
#pragma once

#include <cstddef>
#include <string_view>

#include "runtime/core/freeable_buffer.h"
#include "runtime/core/result.h"

namespace ember::runtime {

class NamedDataMap {
 public:
  virtual ~NamedDataMap() = default;

  // The bytes stored under `key`, or NotFound (message names the key).
  virtual Result<FreeableBuffer> get_data(std::string_view key) const = 0;

  // Number of keys, and the key at index i (i < num_keys(), else InvalidArgument).
  virtual size_t num_keys() const = 0;
  virtual Result<std::string_view> key_at(size_t i) const = 0;
};

}  // namespace ember::runtime
