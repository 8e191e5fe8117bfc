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

namespace {

// A transpose with size-1 dims dropped and input-adjacent dims that stay adjacent in the
// output merged: NCHW -> NHWC becomes [N, C, HW] -> [N, HW, C], i.e. batched 2-D.
struct Collapsed {
  uint32_t rank = 0;
  size_t dims[kMaxDims] = {};    // input order
  uint32_t perm[kMaxDims] = {};  // output dim -> input dim
};

Collapsed collapse(const fb_xnnpack::XNNStaticTranspose* t, const Shape& in) {
  int32_t kept[kMaxDims];
  uint32_t n = 0, order[kMaxDims], m = 0;
  for (uint32_t i = 0; i < in.rank; ++i) kept[i] = in.dims[i] == 1 ? -1 : int32_t(n++);
  for (uint32_t o = 0; o < in.rank; ++o) {
    const int32_t k = kept[t->perm()->Get(o)];
    if (k >= 0) order[m++] = uint32_t(k);  // output order of the kept input dims
  }
  // Groups of output-consecutive dims that are also input-consecutive.
  uint32_t first[kMaxDims], last[kMaxDims], g = 0;
  for (uint32_t k = 0; k < m; ++k) {
    if (g > 0 && order[k] == last[g - 1] + 1) {
      last[g - 1] = order[k];
    } else {
      first[g] = last[g] = order[k];
      ++g;
    }
  }
  size_t kept_dims[kMaxDims];
  for (uint32_t i = 0, j = 0; i < in.rank; ++i) {
    if (kept[i] >= 0) kept_dims[j++] = in.dims[i];
  }
  Collapsed c;
  c.rank = g;
  for (uint32_t a = 0; a < g; ++a) {
    uint32_t pos = 0;  // input position of group a: groups that start before it
    for (uint32_t b = 0; b < g; ++b) pos += first[b] < first[a] ? 1 : 0;
    c.perm[a] = pos;
    size_t d = 1;
    for (uint32_t k = first[a]; k <= last[a]; ++k) d *= kept_dims[k];
    c.dims[pos] = d;
  }
  return c;
}

// dst[c][r] = src[r][c] for `batch` matrices of rows x cols.
template <typename T>
void transpose_2d(const T* src, size_t batch, size_t rows, size_t cols, T* dst) {
  constexpr size_t kTile = 16;
  for (size_t b = 0; b < batch; ++b, src += rows * cols, dst += rows * cols) {
    if (rows <= 8) {  // few source rows (NCHW -> NHWC with few channels): write contiguously
      for (size_t c = 0; c < cols; ++c) {
        for (size_t r = 0; r < rows; ++r) dst[c * rows + r] = src[r * cols + c];
      }
      continue;
    }
    for (size_t r0 = 0; r0 < rows; r0 += kTile) {
      const size_t r1 = r0 + kTile < rows ? r0 + kTile : rows;
      for (size_t c0 = 0; c0 < cols; c0 += kTile) {
        const size_t c1 = c0 + kTile < cols ? c0 + kTile : cols;
        for (size_t r = r0; r < r1; ++r) {
          for (size_t c = c0; c < c1; ++c) dst[c * rows + r] = src[r * cols + c];
        }
      }
    }
  }
}

// The fast paths of run_transpose; false when the collapsed form has none.
bool transpose_fast(const Collapsed& c, size_t elem, const void* src, void* dst) {
  size_t numel = 1;
  for (uint32_t i = 0; i < c.rank; ++i) numel *= c.dims[i];
  if (c.rank <= 1) {
    std::memcpy(dst, src, numel * elem);
    return true;
  }
  size_t batch = 1;
  if (c.rank == 3 && c.perm[0] == 0 && c.perm[1] == 2 && c.perm[2] == 1) {
    batch = c.dims[0];
  } else if (c.rank != 2) {
    return false;
  }
  const size_t rows = c.dims[c.rank - 2], cols = c.dims[c.rank - 1];
  switch (elem) {
    case 4:
      transpose_2d(static_cast<const uint32_t*>(src), batch, rows, cols, static_cast<uint32_t*>(dst));
      return true;
    case 2:
      transpose_2d(static_cast<const uint16_t*>(src), batch, rows, cols, static_cast<uint16_t*>(dst));
      return true;
    case 1:
      transpose_2d(static_cast<const uint8_t*>(src), batch, rows, cols, static_cast<uint8_t*>(dst));
      return true;
    default:
      return false;
  }
}

}  // namespace

void run_transpose(const fb_xnnpack::XNNStaticTranspose* t, const Shape& in, size_t elem,
                   const void* src, void* dst) {
  if (in.numel() == 0) return;
  if (transpose_fast(collapse(t, in), elem, src, dst)) return;
  size_t in_strides[kMaxDims], src_step[kMaxDims], out_dims[kMaxDims], idx[kMaxDims] = {};
  row_major_strides(in, in_strides);
  const uint32_t rank = in.rank;
  for (uint32_t i = 0; i < rank; ++i) {
    out_dims[i] = in.dims[t->perm()->Get(i)];
    src_step[i] = in_strides[t->perm()->Get(i)];
  }
  const auto* s = static_cast<const uint8_t*>(src);
  auto* d = static_cast<uint8_t*>(dst);
  // One output row (innermost output dim) at a time; an odometer over the rest.
  const size_t row = out_dims[rank - 1];
  const size_t rows = in.numel() / row;
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
