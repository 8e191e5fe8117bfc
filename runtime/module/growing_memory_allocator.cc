// GrowingMemoryAllocator; see growing_memory_allocator.h.
#include "runtime/module/growing_memory_allocator.h"

#include <cstdlib>

namespace ember::runtime {

namespace {

// `bytes` rounded up to a whole number of chunk alignments (aligned_alloc needs
// a multiple), at least one; saturates below SIZE_MAX.
size_t chunk_size(size_t bytes) {
  constexpr size_t a = GrowingMemoryAllocator::kChunkAlignment;
  if (bytes > SIZE_MAX - a) return SIZE_MAX / a * a;
  return bytes == 0 ? a : (bytes + a - 1) / a * a;
}

}  // namespace

GrowingMemoryAllocator::GrowingMemoryAllocator(size_t first_chunk_bytes, size_t max_bytes)
    : first_chunk_bytes_(chunk_size(first_chunk_bytes)),
      next_chunk_bytes_(first_chunk_bytes_),
      max_bytes_(max_bytes) {}

GrowingMemoryAllocator::~GrowingMemoryAllocator() { reset(); }

void* GrowingMemoryAllocator::allocate(size_t size, size_t alignment) {
  if (alignment == 0 || (alignment & (alignment - 1)) != 0) return nullptr;
  if (void* p = current_.allocate(size, alignment)) return p;
  if (!add_chunk(size, alignment)) return nullptr;
  return current_.allocate(size, alignment);
}

bool GrowingMemoryAllocator::add_chunk(size_t size, size_t alignment) {
  // Worst-case padding in front of the allocation in a fresh chunk.
  const size_t padding = alignment > kChunkAlignment ? alignment - kChunkAlignment : 0;
  if (size > SIZE_MAX - padding - kChunkAlignment) return false;
  const size_t need = chunk_size(size + padding);
  const size_t left = max_bytes_ > capacity_ ? max_bytes_ - capacity_ : 0;
  if (need > left) return false;
  size_t bytes = next_chunk_bytes_ > need ? next_chunk_bytes_ : need;
  if (bytes > left) bytes = left / kChunkAlignment * kChunkAlignment;  // still >= need
  void* chunk = std::aligned_alloc(kChunkAlignment, bytes);
  if (chunk == nullptr) return false;
  chunks_.push_back(static_cast<uint8_t*>(chunk));
  used_before_ += current_.used();
  current_ = MemoryAllocator(chunk, bytes);
  capacity_ += bytes;
  next_chunk_bytes_ = bytes > SIZE_MAX / 4 ? bytes : bytes * 2;
  return true;
}

void GrowingMemoryAllocator::reset() {
  for (uint8_t* chunk : chunks_) std::free(chunk);
  chunks_.clear();
  current_ = MemoryAllocator();
  used_before_ = 0;
  capacity_ = 0;
  next_chunk_bytes_ = first_chunk_bytes_;
}

}  // namespace ember::runtime
