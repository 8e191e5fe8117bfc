// Data-movement kernels for nodes this XNNPACK lacks: transpose, concatenate,
// slice. Row-major, any element size; see internal_kernels.h.
#include <cstring>

#include "backends/xnnpack/runtime/internal_kernels.h"

namespace ember::backends::xnnpack {
namespace {

void row_major_strides(const Shape& s, size_t* strides) {
  size_t acc = 1;
  for (uint32_t i = s.rank; i-- > 0;) {
    strides[i] = acc;
    acc *= s.dims[i];
  }
}

}  // namespace

namespace {

// Copies one output row: n elements read `step` elements apart.
template <typename T>
void gather_row(const T* src, size_t step, size_t n, T* dst) {
  for (size_t i = 0; i < n; ++i) dst[i] = src[i * step];
}

void copy_row(const uint8_t* src, size_t step, size_t n, size_t elem, uint8_t* dst) {
  switch (elem) {
    case 4: return gather_row(reinterpret_cast<const uint32_t*>(src), step, n, reinterpret_cast<uint32_t*>(dst));
    case 2: return gather_row(reinterpret_cast<const uint16_t*>(src), step, n, reinterpret_cast<uint16_t*>(dst));
    case 1: return gather_row(src, step, n, dst);
    default:
      for (size_t i = 0; i < n; ++i) std::memcpy(dst + i * elem, src + i * step * elem, elem);
  }
}

}  // namespace

void run_transpose(const fb_xnnpack::XNNStaticTranspose* t, const Shape& in, size_t elem,
                   const void* src, void* dst) {
  size_t in_strides[kMaxDims], src_step[kMaxDims], out_dims[kMaxDims], idx[kMaxDims] = {};
  row_major_strides(in, in_strides);
  const uint32_t rank = in.rank;
  for (uint32_t i = 0; i < rank; ++i) {
    out_dims[i] = in.dims[t->perm()->Get(i)];
    src_step[i] = in_strides[t->perm()->Get(i)];
  }
  const auto* s = static_cast<const uint8_t*>(src);
  auto* d = static_cast<uint8_t*>(dst);
  if (rank == 0) {
    std::memcpy(d, s, elem);
    return;
  }
  // One output row (innermost output dim) at a time; an odometer over the rest.
  const size_t row = out_dims[rank - 1];
  const size_t rows = row == 0 ? 0 : in.numel() / row;
  size_t offset = 0;  // element offset into src of the current row's first element
  for (size_t r = 0; r < rows; ++r) {
    copy_row(s + offset * elem, src_step[rank - 1], row, elem, d + r * row * elem);
    for (uint32_t k = rank - 1; k-- > 0;) {
      offset += src_step[k];
      if (++idx[k] < out_dims[k]) break;
      offset -= src_step[k] * out_dims[k];
      idx[k] = 0;
    }
  }
}

void run_concat(uint32_t axis, const Shape* in_shapes, const void* const* srcs, uint32_t n,
                size_t elem, void* dst) {
  size_t outer = 1, inner = 1;
  for (uint32_t i = 0; i < axis; ++i) outer *= in_shapes[0].dims[i];
  for (uint32_t i = axis + 1; i < in_shapes[0].rank; ++i) inner *= in_shapes[0].dims[i];
  size_t out_row = 0;
  for (uint32_t k = 0; k < n; ++k) out_row += in_shapes[k].dims[axis] * inner * elem;
  auto* d = static_cast<uint8_t*>(dst);
  size_t col = 0;
  for (uint32_t k = 0; k < n; ++k) {
    const size_t row = in_shapes[k].dims[axis] * inner * elem;
    const auto* s = static_cast<const uint8_t*>(srcs[k]);
    for (size_t o = 0; o < outer; ++o) std::memcpy(d + o * out_row + col, s + o * row, row);
    col += row;
  }
}

void run_slice(const fb_xnnpack::XNNStaticSlice* sl, const Shape& in, const Shape& out,
               size_t elem, const void* src, void* dst) {
  size_t in_strides[kMaxDims], idx[kMaxDims] = {};
  row_major_strides(in, in_strides);
  const uint32_t rank = in.rank;
  size_t base = 0;
  for (uint32_t i = 0; i < rank; ++i) base += sl->offsets()->Get(i) * in_strides[i];
  // Copy contiguous innermost rows.
  const size_t row = rank == 0 ? 1 : out.dims[rank - 1];
  const size_t rows = row == 0 ? 0 : out.numel() / row;
  const auto* s = static_cast<const uint8_t*>(src);
  auto* d = static_cast<uint8_t*>(dst);
  for (size_t r = 0; r < rows; ++r) {
    size_t off = base;
    for (uint32_t i = 0; i + 1 < rank; ++i) off += idx[i] * in_strides[i];
    std::memcpy(d + r * row * elem, s + off * elem, row * elem);
    for (uint32_t k = rank - 1; k-- > 0;) {
      if (++idx[k] < out.dims[k]) break;
      idx[k] = 0;
    }
  }
}

}  // namespace ember::backends::xnnpack
