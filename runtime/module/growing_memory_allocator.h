// GrowingMemoryAllocator: a MemoryAllocator that takes its memory from the heap
// in chunks, as allocations ask for it, so that a method allocator never has to
// be sized in advance. It is for the Module facade, which may allocate; the
// core runtime never creates one (there the caller hands in a fixed buffer).
//
// A request that does not fit in the current chunk opens a new chunk of
// max(twice the previous chunk, the request plus its alignment), so a load
// takes O(log n) chunks and wastes at most the unused tail of each. The sum of
// the chunks never exceeds `max_bytes`: past it allocate() returns nullptr
// like any exhausted MemoryAllocator, and the runtime reports
// MemoryAllocationFailed. Chunks are aligned to kChunkAlignment; allocations
// are aligned as asked. Memory stays valid until reset() or destruction.
// Not thread-safe (like every MemoryAllocator).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "runtime/core/memory_allocator.h"

namespace ember::runtime {

class GrowingMemoryAllocator final : public MemoryAllocator {
 public:
  static constexpr size_t kChunkAlignment = 64;

  // `first_chunk_bytes` (> 0): the size of the first chunk, taken on the first
  // allocation; `max_bytes`: the cap on the sum of all chunks.
  GrowingMemoryAllocator(size_t first_chunk_bytes, size_t max_bytes);
  ~GrowingMemoryAllocator() override;
  GrowingMemoryAllocator(const GrowingMemoryAllocator&) = delete;
  GrowingMemoryAllocator& operator=(const GrowingMemoryAllocator&) = delete;

  // `size` bytes aligned to `alignment` (a power of two), or nullptr when the
  // cap is reached or the heap refuses a chunk.
  void* allocate(size_t size, size_t alignment = kDefaultAlignment) override;
  // Frees every chunk; the next allocation starts over with the first size.
  void reset() override;

  // Bytes of all chunks taken so far.
  size_t capacity() const override { return capacity_; }
  // Bytes handed out (alignment padding included; not the chunks' unused tails).
  size_t used() const override { return used_before_ + current_.used(); }
  size_t num_chunks() const { return chunks_.size(); }

 private:
  // Takes a chunk that can hold `size` bytes at `alignment`; false at the cap.
  bool add_chunk(size_t size, size_t alignment);

  std::vector<uint8_t*> chunks_;
  MemoryAllocator current_;  // bump allocator over the last chunk
  size_t used_before_ = 0;   // used() of the chunks before the last one
  size_t capacity_ = 0;
  size_t first_chunk_bytes_;
  size_t next_chunk_bytes_;
  size_t max_bytes_;
};

}  // namespace ember::runtime
