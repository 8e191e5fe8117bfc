// MemoryAllocator: a bump allocator over memory the caller owns. It never calls
// malloc; allocate() returns nullptr when the region is exhausted and reset()
// forgets every allocation at once. Used for the method allocator (everything a
// method builds at load time) and the temp allocator (kernel scratch, reset after
// every instruction). The caller's buffer must outlive the allocator and
// everything allocated from it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <new>

namespace ember::runtime {

class MemoryAllocator {
 public:
  static constexpr size_t kDefaultAlignment = alignof(void*);

  MemoryAllocator() = default;
  MemoryAllocator(void* base, size_t size)
      : begin_(static_cast<uint8_t*>(base)), end_(begin_ + size), cur_(begin_) {}
  virtual ~MemoryAllocator() = default;

  // `size` bytes aligned to `alignment` (a power of two), or nullptr.
  virtual void* allocate(size_t size, size_t alignment = kDefaultAlignment) {
    if (alignment == 0 || (alignment & (alignment - 1)) != 0) return nullptr;
    const uintptr_t cur = reinterpret_cast<uintptr_t>(cur_);
    const uintptr_t aligned = (cur + alignment - 1) & ~(uintptr_t(alignment) - 1);
    const uintptr_t end = reinterpret_cast<uintptr_t>(end_);
    if (aligned < cur || aligned > end || size > end - aligned) return nullptr;
    cur_ = reinterpret_cast<uint8_t*>(aligned + size);
    return reinterpret_cast<void*>(aligned);
  }

  // Uninitialised storage for `count` objects of T, or nullptr (also on overflow).
  template <typename T>
  T* allocate_list(size_t count) {
    if (count > SIZE_MAX / sizeof(T)) return nullptr;
    return static_cast<T*>(allocate(count * sizeof(T), alignof(T)));
  }

  // A default-constructed T, or nullptr.
  template <typename T>
  T* allocate_instance() {
    void* p = allocate(sizeof(T), alignof(T));
    return p == nullptr ? nullptr : new (p) T();
  }

  virtual void reset() { cur_ = begin_; }

  // Bytes this allocator can hand out in all, and bytes handed out so far
  // (alignment padding included). Virtual for allocators that are not one
  // caller buffer (the Module's heap-backed method allocator).
  virtual size_t capacity() const { return static_cast<size_t>(end_ - begin_); }
  virtual size_t used() const { return static_cast<size_t>(cur_ - begin_); }
  // The caller's buffer (null for a subclass that does not use one).
  uint8_t* base() const { return begin_; }

 private:
  uint8_t* begin_ = nullptr;
  uint8_t* end_ = nullptr;
  uint8_t* cur_ = nullptr;
};

}  // namespace ember::runtime
