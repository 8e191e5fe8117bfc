// StridedLoop: walks N operands that share one logical shape, each with its
// own strides (0 for broadcast dims), in the memory order of operand 0 (the
// output): dims are permuted by its dim order, size-1 dims dropped and
// adjacent dims merged where every operand allows. The callback sees the
// innermost run: inner(offsets[N], count, strides[N]), so a contiguous or
// broadcast case becomes one flat run the compiler can vectorise.
#pragma once

#include <cstddef>
#include <cstdint>

#include "runtime/core/tensor.h"

namespace ember::kernels::portable {

template <size_t N>
struct StridedLoop {
  size_t rank = 0;
  int64_t sizes[runtime::kMaxTensorDims];
  int64_t strides[N][runtime::kMaxTensorDims];
  bool empty = false;

  // sizes: the logical shape; order: the iteration order (outermost first),
  // a permutation of 0..rank-1; strides[k]: operand k's strides in logical dims.
  StridedLoop(const runtime::SizesType* logical_sizes, const runtime::DimOrderType* order,
              size_t logical_rank, const int64_t (*logical_strides)[runtime::kMaxTensorDims]) {
    for (size_t i = 0; i < logical_rank; ++i) {
      const size_t d = order != nullptr ? order[i] : i;
      const int64_t s = logical_sizes[d];
      if (s == 0) empty = true;
      if (s == 1) continue;
      if (rank > 0 && mergeable(logical_strides, d, s)) {
        sizes[rank - 1] *= s;
        for (size_t k = 0; k < N; ++k) strides[k][rank - 1] = logical_strides[k][d];
        continue;
      }
      sizes[rank] = s;
      for (size_t k = 0; k < N; ++k) strides[k][rank] = logical_strides[k][d];
      ++rank;
    }
  }

  // Calls inner(const int64_t* offsets, int64_t count, const int64_t* inner_strides).
  template <typename F>
  void run(F&& inner) const {
    if (empty) return;
    int64_t offsets[N] = {};
    int64_t inner_strides[N] = {};
    if (rank == 0) {
      inner(offsets, int64_t{1}, inner_strides);
      return;
    }
    for (size_t k = 0; k < N; ++k) inner_strides[k] = strides[k][rank - 1];
    const int64_t count = sizes[rank - 1];
    int64_t index[runtime::kMaxTensorDims] = {};
    while (true) {
      inner(offsets, count, inner_strides);
      // Odometer over the outer dims.
      size_t d = rank - 1;
      while (true) {
        if (d == 0) return;
        --d;
        ++index[d];
        for (size_t k = 0; k < N; ++k) offsets[k] += strides[k][d];
        if (index[d] < sizes[d]) break;
        for (size_t k = 0; k < N; ++k) offsets[k] -= strides[k][d] * sizes[d];
        index[d] = 0;
      }
    }
  }

 private:
  // Whether logical dim d (size s) continues the last kept dim for every operand.
  bool mergeable(const int64_t (*ls)[runtime::kMaxTensorDims], size_t d, int64_t s) const {
    for (size_t k = 0; k < N; ++k) {
      if (strides[k][rank - 1] != ls[k][d] * s) return false;
    }
    return true;
  }
};

}  // namespace ember::kernels::portable

namespace ember::kernels::portable {

// Calls fn(const int64_t* index) for every logical multi-index of `sizes`
// (row-major). For shape ops whose source position is not a stride pattern.
template <typename F>
void for_each_index(const runtime::SizesType* sizes, size_t rank, F&& fn) {
  int64_t index[runtime::kMaxTensorDims] = {};
  for (size_t d = 0; d < rank; ++d) {
    if (sizes[d] == 0) return;
  }
  while (true) {
    fn(static_cast<const int64_t*>(index));
    size_t d = rank;
    while (true) {
      if (d == 0) return;
      --d;
      if (++index[d] < sizes[d]) break;
      index[d] = 0;
    }
  }
}

}  // namespace ember::kernels::portable
