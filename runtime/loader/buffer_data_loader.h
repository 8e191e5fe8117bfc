// BufferDataLoader: a DataLoader over bytes already in memory (a program
// compiled into flash, or a file the caller read). load() returns non-owning
// views, so loading a program through it never allocates. The bytes must
// outlive the loader and every Program using it, and for Program::load must
// start at an address aligned to alignof(std::max_align_t).
#pragma once

#include <cstring>

#include "runtime/core/data_loader.h"
#include "runtime/core/diagnostics.h"

namespace ember::runtime {

class BufferDataLoader final : public DataLoader {
 public:
  BufferDataLoader(const void* data, size_t size)
      : data_(static_cast<const uint8_t*>(data)), size_(size) {}

  Result<FreeableBuffer> load(size_t offset, size_t size, const SegmentInfo&) const override {
    if (!range_fits(offset, size, size_)) {
      return fail(Error::InvalidArgument, "buffer loader: [%zu, +%zu) is past the end (%zu bytes)",
                  offset, size, size_);
    }
    return FreeableBuffer(data_ + offset, size);
  }

  Error load_into(size_t offset, size_t size, const SegmentInfo&, void* buffer) const override {
    if (!range_fits(offset, size, size_)) {
      return fail(Error::InvalidArgument, "buffer loader: [%zu, +%zu) is past the end (%zu bytes)",
                  offset, size, size_);
    }
    if (size > 0) std::memcpy(buffer, data_ + offset, size);
    return Error::Ok;
  }

  Result<size_t> size() const override { return size_; }

 private:
  const uint8_t* data_;
  size_t size_;
};

}  // namespace ember::runtime
