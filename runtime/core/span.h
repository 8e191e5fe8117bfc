// Span<T>: a non-owning view of `size` contiguous T, passed by value. Indexing is
// unchecked (the API is trusted); callers bounds-check untrusted indices first.
#pragma once

#include <cstddef>

namespace ember::runtime {

template <typename T>
class Span final {
 public:
  constexpr Span() = default;
  constexpr Span(T* data, size_t size) : data_(data), size_(size) {}
  template <size_t N>
  constexpr Span(T (&array)[N]) : data_(array), size_(N) {}  // NOLINT
  // Span<const T> from Span<T>.
  template <typename U>
  constexpr Span(Span<U> other) : data_(other.data()), size_(other.size()) {}  // NOLINT

  constexpr T* data() const { return data_; }
  constexpr size_t size() const { return size_; }
  constexpr bool empty() const { return size_ == 0; }
  constexpr T& operator[](size_t i) const { return data_[i]; }
  constexpr T* begin() const { return data_; }
  constexpr T* end() const { return data_ + size_; }
  constexpr T& front() const { return data_[0]; }
  constexpr T& back() const { return data_[size_ - 1]; }
  constexpr Span subspan(size_t offset, size_t count) const {
    return Span(data_ + offset, count);
  }

 private:
  T* data_ = nullptr;
  size_t size_ = 0;
};

}  // namespace ember::runtime
