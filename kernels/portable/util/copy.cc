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

bool copy_view(const SizesType* sizes, size_t rank, const View& dst, const View& src) {
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

bool copy_into(const Tensor& src, Tensor& out) {
  View s = view_of(src);
  broadcast_strides(src, out.dim(), s.strides);
  return copy_view(out.sizes().data(), out.dim(), view_of(out), s);
}

bool reshape_copy(const Tensor& src, Tensor& out) {
  if (src.is_contiguous_dim_order() && out.is_contiguous_dim_order()) {
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

void fill_scalar(Tensor& out, const runtime::Scalar& value) {
  ScalarTensor s(out.scalar_type(), value);
  copy_into(s.tensor(), out);
}

}  // namespace ember::kernels::portable
