// Strided copies; see copy.h.
#include "kernels/portable/util/copy.h"

#include <cmath>
#include <cstring>
#include <limits>

#include "kernels/portable/util/binary.h"
#include "kernels/portable/util/cast.h"
#include "kernels/portable/util/loop.h"

namespace ember::kernels::portable {

namespace {

template <typename D, typename S>
void copy_typed(const StridedLoop<2>& loop, const View& dst, const View& src) {
  D* pd = static_cast<D*>(dst.data);
  const S* ps = static_cast<const S*>(src.data);
  loop.run([&](const int64_t* off, int64_t n, const int64_t* s) {
    D* d = pd + off[0];
    const S* x = ps + off[1];
    if constexpr (std::is_same<D, S>::value) {
      if (s[0] == 1 && s[1] == 1) {
        std::memcpy(d, x, static_cast<size_t>(n) * sizeof(D));
        return;
      }
    }
    if (s[0] == 1 && s[1] == 0) {
      const D v = cast<D>(x[0]);
      for (int64_t i = 0; i < n; ++i) d[i] = v;
    } else {
      for (int64_t i = 0; i < n; ++i) d[i * s[0]] = cast<D>(x[i * s[1]]);
    }
  });
}

// Same-dtype copies only need the element size.
template <typename U>
void copy_bits(const StridedLoop<2>& loop, const View& dst, const View& src) {
  copy_typed<U, U>(loop, dst, src);
}

}  // namespace

View view_of(const Tensor& t, int64_t offset) {
  View v;
  v.dtype = t.scalar_type();
  v.data = static_cast<char*>(t.mutable_data_ptr()) + offset * int64_t(t.element_size());
  tensor_strides(t, v.strides);
  return v;
}

namespace {

// Whether both views walk `sizes` row-major and densely (size-1 dims ignored), so the copy is
// one flat run of `*numel` elements.
bool flat_row_major(const SizesType* sizes, size_t rank, const View& dst, const View& src,
                    int64_t* numel) {
  int64_t expect = 1;
  for (size_t d = rank; d-- > 0;) {
    if (sizes[d] == 1) continue;
    if (dst.strides[d] != expect || src.strides[d] != expect) return false;
    expect *= sizes[d];
  }
  *numel = expect;
  return true;
}

template <typename U>
void copy_2d(const int64_t* n, const int64_t* ds, const int64_t* ss, void* dst, const void* src) {
  U* d = static_cast<U*>(dst);
  const U* s = static_cast<const U*>(src);
  if (ds[1] == 1) {  // rows of dst contiguous (every permute into a row-major out)
    for (int64_t i = 0; i < n[0]; ++i) {
      U* drow = d + i * ds[0];
      const U* srow = s + i * ss[0];
      for (int64_t j = 0; j < n[1]; ++j) drow[j] = srow[j * ss[1]];
    }
    return;
  }
  for (int64_t i = 0; i < n[0]; ++i) {
    U* drow = d + i * ds[0];
    const U* srow = s + i * ss[0];
    for (int64_t j = 0; j < n[1]; ++j) drow[j * ds[1]] = srow[j * ss[1]];
  }
}

}  // namespace

bool copy_small(const SizesType* sizes, size_t rank, size_t esize, void* dst,
                const int64_t* dst_strides, const void* src, const int64_t* src_strides) {
  int64_t n[2] = {1, 1}, ds[2] = {0, 0}, ss[2] = {0, 0};
  size_t k = 0;
  for (size_t d = 0; d < rank; ++d) {
    if (sizes[d] == 1) continue;
    if (sizes[d] == 0) return true;  // nothing to copy
    if (k == 2) return false;
    n[k] = sizes[d];
    ds[k] = dst_strides[d];
    ss[k] = src_strides[d];
    ++k;
  }
  if (k < 2) {  // at most one dim: make it the inner one
    n[1] = n[0], ds[1] = ds[0], ss[1] = ss[0];
    n[0] = 1, ds[0] = 0, ss[0] = 0;
    if (ds[1] == 1 && ss[1] == 1) {  // one dense run
      if (dst != src) std::memcpy(dst, src, size_t(n[1]) * esize);
      return true;
    }
  } else {
    // Inner loop along the smaller dst stride, unless that leaves a short inner loop under a
    // long outer one ([2, 10] -> [10, 2]): then the longer dim goes inside.
    bool swap = ds[0] < ds[1];
    const int64_t inner = swap ? n[0] : n[1], outer = swap ? n[1] : n[0];
    if (inner < 4 && outer > inner) swap = !swap;
    if (swap) {
      int64_t t = n[0]; n[0] = n[1]; n[1] = t;
      t = ds[0]; ds[0] = ds[1]; ds[1] = t;
      t = ss[0]; ss[0] = ss[1]; ss[1] = t;
    }
  }
  switch (esize) {
    case 1: copy_2d<uint8_t>(n, ds, ss, dst, src); return true;
    case 2: copy_2d<uint16_t>(n, ds, ss, dst, src); return true;
    case 4: copy_2d<uint32_t>(n, ds, ss, dst, src); return true;
    case 8: copy_2d<uint64_t>(n, ds, ss, dst, src); return true;
    default: return false;
  }
}

namespace {

// The general strided loop (kept out of copy_view so the small paths don't pay for its frame).
[[gnu::noinline]] bool copy_view_general(const SizesType* sizes, size_t rank, const View& dst,
                                         const View& src) {
  int64_t strides[2][kMaxTensorDims];
  // Iterate in the destination's memory order: sort dims by decreasing dst stride.
  runtime::DimOrderType order[kMaxTensorDims];
  for (size_t i = 0; i < rank; ++i) order[i] = static_cast<runtime::DimOrderType>(i);
  for (size_t i = 1; i < rank; ++i) {
    for (size_t j = i; j > 0 && dst.strides[order[j - 1]] < dst.strides[order[j]]; --j) {
      const auto t = order[j];
      order[j] = order[j - 1];
      order[j - 1] = t;
    }
  }
  for (size_t i = 0; i < rank; ++i) {
    strides[0][i] = dst.strides[i];
    strides[1][i] = src.strides[i];
  }
  const StridedLoop<2> loop(sizes, order, rank, strides);
  if (dst.dtype == src.dtype) {
    switch (runtime::element_size(dst.dtype)) {
      case 1: copy_bits<uint8_t>(loop, dst, src); return true;
      case 2: copy_bits<uint16_t>(loop, dst, src); return true;
      case 4: copy_bits<uint32_t>(loop, dst, src); return true;
      case 8: copy_bits<uint64_t>(loop, dst, src); return true;
      default: return false;
    }
  }
  bool ok = false;
  dispatch<kAll>(dst.dtype, [&](auto dtag) {
    using D = typename decltype(dtag)::type;
    ok = dispatch<kAll>(src.dtype, [&](auto stag) {
      copy_typed<D, typename decltype(stag)::type>(loop, dst, src);
    });
  });
  return ok;
}

}  // namespace

bool copy_view(const SizesType* sizes, size_t rank, const View& dst, const View& src) {
  if (dst.dtype == src.dtype) {
    const size_t esize = runtime::element_size(dst.dtype);
    if (esize == 0) return false;
    int64_t flat = 0;
    if (flat_row_major(sizes, rank, dst, src, &flat)) {
      if (flat > 0 && dst.data != src.data) std::memcpy(dst.data, src.data, size_t(flat) * esize);
      return true;
    }
    if (copy_small(sizes, rank, esize, dst.data, dst.strides, src.data, src.strides)) return true;
  }
  return copy_view_general(sizes, rank, dst, src);
}

bool copy_into(const Tensor& src, Tensor& out) {
  // Dense in the same order: same layout, or (src broadcasts to out) the same numel with both
  // row-major, which only adds or drops size-1 dims.
  if (src.scalar_type() == out.scalar_type() &&
      (same_layout(src, out) ||
       (src.numel() == out.numel() && is_row_major(src) && is_row_major(out)))) {
    if (out.element_size() == 0) return false;
    if (out.numel() > 0 && src.const_data_ptr() != out.const_data_ptr()) {
      std::memcpy(out.mutable_data_ptr(), src.const_data_ptr(), out.nbytes());
    }
    return true;
  }
  View s = view_of(src);
  broadcast_strides(src, out.dim(), s.strides);
  return copy_view(out.sizes().data(), out.dim(), view_of(out), s);
}

bool reshape_copy(const Tensor& src, Tensor& out) {
  if (is_row_major(src) && is_row_major(out)) {
    if (src.scalar_type() == out.scalar_type() && src.numel() == out.numel()) {
      if (out.element_size() == 0) return false;
      if (out.numel() > 0 && src.const_data_ptr() != out.const_data_ptr()) {
        std::memcpy(out.mutable_data_ptr(), src.const_data_ptr(), out.nbytes());
      }
      return true;
    }
    // Same logical order, both row-major: view src with out's shape.
    View s = view_of(src);
    tensor_strides(out, s.strides);
    return copy_view(out.sizes().data(), out.dim(), view_of(out), s);
  }
  int64_t ss[kMaxTensorDims], os[kMaxTensorDims];
  tensor_strides(src, ss);
  tensor_strides(out, os);
  const size_t esize = out.element_size();
  if (src.scalar_type() != out.scalar_type()) return false;
  const char* ps = static_cast<const char*>(src.const_data_ptr());
  char* po = static_cast<char*>(out.mutable_data_ptr());
  for (int64_t i = 0; i < int64_t(out.numel()); ++i) {
    std::memcpy(po + offset_of(i, out.sizes().data(), os, out.dim()) * esize,
                ps + offset_of(i, src.sizes().data(), ss, src.dim()) * esize, esize);
  }
  return true;
}

bool scalar_fits(runtime::ScalarType type, const runtime::Scalar& value) {
  if (value.is_boolean() || type == ScalarType::Bool) return true;
  bool fits = true;
  dispatch<kReal>(type, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (is_float_v<T>) {
      const double v = value.to_double();
      const double hi = std::is_same<T, Half>::value       ? 65504.0
                        : std::is_same<T, BFloat16>::value ? 3.3895313892515355e38
                        : std::is_same<T, float>::value    ? 3.4028234663852886e38
                                                           : 1.7976931348623157e308;
      fits = !std::isfinite(v) || (v >= -hi && v <= hi);
    } else {
      const double lo = double(std::numeric_limits<T>::min());
      const double hi = double(std::numeric_limits<T>::max());
      if (value.is_integral()) {
        const int64_t v = value.to_int();
        fits = double(v) >= lo && double(v) <= hi;
      } else {
        const double v = value.to_double();
        fits = std::isfinite(v) && v >= lo && v <= hi;
      }
    }
  });
  return fits;
}

namespace {

template <typename U>
void fill_bits(void* dst, size_t n, const void* value) {
  U v;
  std::memcpy(&v, value, sizeof(U));
  U* d = static_cast<U*>(dst);
  for (size_t i = 0; i < n; ++i) d[i] = v;
}

}  // namespace

void fill_scalar(Tensor& out, const runtime::Scalar& value) {
  ScalarTensor s(out.scalar_type(), value);
  // out's elements are dense whatever its dim order (strides follow it), and all take one
  // value: fill numel() elements without any view set-up.
  void* d = out.mutable_data_ptr();
  const void* v = s.tensor().const_data_ptr();
  switch (out.element_size()) {
    case 1: fill_bits<uint8_t>(d, out.numel(), v); return;
    case 2: fill_bits<uint16_t>(d, out.numel(), v); return;
    case 4: fill_bits<uint32_t>(d, out.numel(), v); return;
    case 8: fill_bits<uint64_t>(d, out.numel(), v); return;
    default: copy_into(s.tensor(), out);
  }
}

}  // namespace ember::kernels::portable
