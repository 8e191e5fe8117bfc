// Element decoding and tolerance comparison for kernel case files (declared in case_file.h):
// case_element_as_double() decodes one element of any case dtype, including float16 and
// bfloat16; compare_tensors() checks a kernel's result against an expected output in logical
// order, so results written in a different dim order still compare correctly.
#include "kernels/test/case_file.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace ember::kernels::testing {
namespace {

double half_to_double(uint16_t h) {
  const int exp = (h >> 10) & 0x1f;
  const int mant = h & 0x3ff;
  const double sign = (h & 0x8000) ? -1.0 : 1.0;
  if (exp == 0) return sign * std::ldexp(mant, -24);
  if (exp == 31) return mant ? std::nan("") : sign * INFINITY;
  return sign * std::ldexp(mant + 1024, exp - 25);
}

bool is_floating(ScalarType d) {
  return d == ScalarType::Half || d == ScalarType::Float || d == ScalarType::Double ||
         d == ScalarType::BFloat16;
}

// A complex64 element as its two float32 parts, compared as two floats.
TensorData complex_parts(const TensorData& t) {
  TensorData f = t;
  f.dtype = ScalarType::Float;
  f.sizes.push_back(2);
  f.dim_order.push_back(static_cast<uint8_t>(t.sizes.size()));
  return f;
}

std::string index_text(const std::vector<int64_t>& idx) {
  std::string s = "[";
  for (size_t i = 0; i < idx.size(); ++i) s += (i ? "," : "") + std::to_string(idx[i]);
  return s + "]";
}

}  // namespace

double case_element_as_double(const TensorData& t, size_t index) {
  const size_t elem = case_dtype_size(static_cast<uint8_t>(t.dtype));
  const uint8_t* p = t.data.data() + index * elem;
  uint64_t bits = 0;
  for (size_t i = 0; i < elem; ++i) bits |= static_cast<uint64_t>(p[i]) << (8 * i);
  switch (t.dtype) {
    case ScalarType::Byte: return static_cast<double>(static_cast<uint8_t>(bits));
    case ScalarType::Char: return static_cast<double>(static_cast<int8_t>(bits));
    case ScalarType::Short: return static_cast<double>(static_cast<int16_t>(bits));
    case ScalarType::Int: return static_cast<double>(static_cast<int32_t>(bits));
    case ScalarType::Long: return static_cast<double>(static_cast<int64_t>(bits));
    case ScalarType::Bool: return bits != 0 ? 1.0 : 0.0;
    case ScalarType::Half: return half_to_double(static_cast<uint16_t>(bits));
    case ScalarType::BFloat16: {
      const uint32_t f32 = static_cast<uint32_t>(bits) << 16;
      float f;
      std::memcpy(&f, &f32, 4);
      return f;
    }
    case ScalarType::Float: {
      const uint32_t b32 = static_cast<uint32_t>(bits);
      float f;
      std::memcpy(&f, &b32, 4);
      return f;
    }
    case ScalarType::Double: {
      double d;
      std::memcpy(&d, &bits, 8);
      return d;
    }
    default:  // case files carry only the dtypes above (case_dtype_size)
      return 0.0;
  }
}

std::string compare_tensors(const TensorData& got, const TensorData& want, double atol,
                            double rtol) {
  if (got.dtype != want.dtype) {
    return std::string("dtype ") + runtime::scalar_type_name(got.dtype) + ", expected " +
           runtime::scalar_type_name(want.dtype);
  }
  if (got.sizes != want.sizes) {
    return "sizes " + index_text(got.sizes) + ", expected " + index_text(want.sizes);
  }
  if (want.dtype == ScalarType::ComplexFloat) {
    return compare_tensors(complex_parts(got), complex_parts(want), atol, rtol);
  }
  const size_t elem = case_dtype_size(static_cast<uint8_t>(want.dtype));
  const size_t n = static_cast<size_t>(want.numel());
  if (got.data.size() != n * elem || want.data.size() != n * elem ||
      got.dim_order.size() != got.sizes.size() || want.dim_order.size() != want.sizes.size()) {
    return "data size does not match sizes";
  }
  const std::vector<int64_t> gs = got.strides(), ws = want.strides();
  std::vector<int64_t> idx(want.sizes.size(), 0);
  for (size_t k = 0; k < n; ++k) {
    size_t go = 0, wo = 0;
    for (size_t d = 0; d < idx.size(); ++d) {
      go += static_cast<size_t>(idx[d] * gs[d]);
      wo += static_cast<size_t>(idx[d] * ws[d]);
    }
    bool ok;
    if (want.dtype == ScalarType::Long) {
      ok = std::memcmp(got.data.data() + go * 8, want.data.data() + wo * 8, 8) == 0;
    } else {
      const double g = case_element_as_double(got, go), w = case_element_as_double(want, wo);
      if (!is_floating(want.dtype)) {
        ok = g == w;
      } else if (std::isnan(w) || std::isinf(w)) {
        ok = std::isnan(w) ? std::isnan(g) : g == w;
      } else {
        ok = std::fabs(g - w) <= atol + rtol * std::fabs(w);  // false when g is NaN
      }
    }
    if (!ok) {
      char buf[96];
      std::snprintf(buf, sizeof(buf), ": got %.9g, expected %.9g (atol %g, rtol %g)",
                    case_element_as_double(got, go), case_element_as_double(want, wo), atol, rtol);
      return "element " + index_text(idx) + buf;
    }
    for (size_t d = idx.size(); d-- > 0;) {  // next logical index, last dim fastest
      if (++idx[d] < want.sizes[d]) break;
      idx[d] = 0;
    }
  }
  return std::string();
}

}  // namespace ember::kernels::testing
