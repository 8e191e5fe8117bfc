// FreeableBuffer: a read-only view of bytes that may own them. It owns nothing
// unless a free function is given; free() (also run by the destructor) calls it
// exactly once and then forgets the bytes. Data loaders return these: a buffer
// loader returns plain views into the caller's memory, a file loader returns
// bytes it read into memory it must later release. Move-only.
#pragma once

#include <cstddef>

namespace ember::runtime {

class FreeableBuffer final {
 public:
  using FreeFn = void (*)(void* context, void* data, size_t size);

  FreeableBuffer() = default;
  FreeableBuffer(const void* data, size_t size, FreeFn free_fn = nullptr, void* context = nullptr)
      : data_(data), size_(size), free_fn_(free_fn), context_(context) {}

  FreeableBuffer(FreeableBuffer&& other) noexcept
      : data_(other.data_), size_(other.size_), free_fn_(other.free_fn_), context_(other.context_) {
    other.forget();
  }
  FreeableBuffer& operator=(FreeableBuffer&& other) noexcept {
    if (this != &other) {
      free();
      data_ = other.data_;
      size_ = other.size_;
      free_fn_ = other.free_fn_;
      context_ = other.context_;
      other.forget();
    }
    return *this;
  }
  FreeableBuffer(const FreeableBuffer&) = delete;
  FreeableBuffer& operator=(const FreeableBuffer&) = delete;
  ~FreeableBuffer() { free(); }

  const void* data() const { return data_; }
  size_t size() const { return size_; }

  // Releases the bytes (calls the free function once, if any); afterwards
  // data() is nullptr and size() is 0. Safe to call repeatedly.
  void free() {
    if (data_ != nullptr && free_fn_ != nullptr) {
      free_fn_(context_, const_cast<void*>(data_), size_);
    }
    forget();
  }

 private:
  void forget() {
    data_ = nullptr;
    size_ = 0;
    free_fn_ = nullptr;
    context_ = nullptr;
  }

  const void* data_ = nullptr;
  size_t size_ = 0;
  FreeFn free_fn_ = nullptr;
  void* context_ = nullptr;
};

}  // namespace ember::runtime
