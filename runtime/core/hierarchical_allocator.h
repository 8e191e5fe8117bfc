// HierarchicalAllocator: the memory-planned buffers of a method. The program's
// memory plan gives each planned tensor a (buffer, offset); the caller supplies
// one span per planned buffer, at least as large as
// MethodMeta::memory_planned_buffer_size(i). Buffer ids here are 0-based
// (the .pte's memory_id - 1). Does not own the buffers.
#pragma once

#include <cstddef>
#include <cstdint>

#include "runtime/core/diagnostics.h"
#include "runtime/core/result.h"
#include "runtime/core/span.h"

namespace ember::runtime {

class HierarchicalAllocator final {
 public:
  HierarchicalAllocator() = default;
  // `buffers` (the array of spans itself, too) must outlive this allocator.
  explicit HierarchicalAllocator(Span<Span<uint8_t>> buffers) : buffers_(buffers) {}

  size_t num_buffers() const { return buffers_.size(); }
  Span<uint8_t> buffer(size_t id) const { return buffers_[id]; }

  // base of buffer `id` + offset, checking that [offset, offset + size) fits.
  // InvalidArgument for a bad id, MemoryAllocationFailed when out of bounds.
  Result<void*> get_offset_address(size_t id, uint64_t offset, size_t size) const {
    if (id >= buffers_.size()) {
      return fail(Error::InvalidArgument, "planned buffer %zu out of range (%zu buffer(s) given)",
                  id, buffers_.size());
    }
    const Span<uint8_t> b = buffers_[id];
    if (offset > b.size() || size > b.size() - offset) {
      return fail(Error::MemoryAllocationFailed,
                  "planned buffer %zu: [%llu, +%zu) exceeds its %zu bytes", id,
                  static_cast<unsigned long long>(offset), size, b.size());
    }
    return static_cast<void*>(b.data() + offset);
  }

 private:
  Span<Span<uint8_t>> buffers_;
};

}  // namespace ember::runtime
