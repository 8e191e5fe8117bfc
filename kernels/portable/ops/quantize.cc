// quantized_decomposed kernels (see quantize.h for the arithmetic they reproduce).
#include "kernels/portable/ops/quantize.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <type_traits>

#include "kernels/portable/util/cast.h"
#include "kernels/portable/util/dispatch.h"
#include "kernels/portable/util/elementwise.h"
#include "kernels/portable/util/loop.h"
#include "kernels/portable/util/tensor_util.h"

namespace ember::kernels::portable {
namespace {

using runtime::Error;
using runtime::scalar_type_name;

// quant_min/quant_max inside the storage dtype's range (torch asserts the same).
bool check_quant_range(KernelRuntimeContext& ctx, int64_t qmin, int64_t qmax, ScalarType dtype,
                       const char* op) {
  int64_t lo = 0, hi = 0;
  if (!runtime::quantized_storage_range(dtype, &lo, &hi)) {
    ctx.fail(Error::InvalidType, "%s: quantized dtype %s is not supported (uint8, int8, int16, "
             "int32)", op, scalar_type_name(dtype));
    return false;
  }
  if (qmin < lo || qmax > hi) {
    ctx.fail(Error::InvalidArgument, "%s: quant range [%lld, %lld] exceeds %s's [%lld, %lld]", op,
             static_cast<long long>(qmin), static_cast<long long>(qmax), scalar_type_name(dtype),
             static_cast<long long>(lo), static_cast<long long>(hi));
    return false;
  }
  return true;
}

bool check_float_input(KernelRuntimeContext& ctx, const Tensor& in, const char* op) {
  const ScalarType t = in.scalar_type();
  if (t == ScalarType::Float || t == ScalarType::Half || t == ScalarType::BFloat16) return true;
  ctx.fail(Error::InvalidType, "%s: input must be float32, float16 or bfloat16, got %s", op,
           scalar_type_name(t));
  return false;
}

// The value of a one-element scale / zero-point tensor (the .tensor overloads).
template <typename T>
bool single_value(KernelRuntimeContext& ctx, const Tensor& t, const char* op, const char* what,
                  T* value) {
  const LoadFn<T> load = loader<T>(t.scalar_type());
  if (t.numel() != 1 || load == nullptr) {
    ctx.fail(Error::InvalidArgument, "%s: %s must be a one-element tensor, got %zu elements of %s",
             op, what, t.numel(), scalar_type_name(t.scalar_type()));
    return false;
  }
  *value = load(t.const_data_ptr(), 0);
  return true;
}

// Round half to even, as std::nearbyint in the default rounding mode, without its libm
// call on the common path: for |v| < 2^22 (2^51 for double) adding and subtracting 1.5 * 2^23
// (1.5 * 2^52) lands on integer spacing and rounds to nearest even (IEEE addition; nothing
// here is reassociated without -ffast-math). Larger magnitudes, infinities and NaN take
// std::nearbyint.
template <typename T>
inline T round_half_even(T v) {
  constexpr T kMagic = sizeof(T) == 4 ? T(12582912.0) : T(6755399441055744.0);
  constexpr T kLimit = sizeof(T) == 4 ? T(4194304.0) : T(2251799813685248.0);
  if (!(std::fabs(v) < kLimit)) return std::nearbyint(v);
  return (v + kMagic) - kMagic;
}

// The scale and zero point the .tensor overloads read from one-element tensors.
bool tensor_qparams(KernelRuntimeContext& ctx, const Tensor& scale, const Tensor& zero_point,
                    const char* op, double* s, int64_t* zp) {
  return single_value(ctx, scale, op, "scale", s) &&
         single_value(ctx, zero_point, op, "zero_point", zp);
}

// round_half_even(x * inv) + zp, clamped (NaN stays NaN, as in torch.clamp).
template <typename T>
inline T quantize_value(T x, T inv, T zp, T lo, T hi) {
  const T v = round_half_even(x * inv) + zp;
  return std::min(std::max(v, lo), hi);
}

Tensor& quantize_per_tensor_impl(KernelRuntimeContext& ctx, const Tensor& in, double scale,
                                 int64_t zero_point, int64_t qmin, int64_t qmax, ScalarType dtype,
                                 Tensor& out, const char* op) {
  if (!check_float_input(ctx, in, op) || !check_quant_range(ctx, qmin, qmax, dtype, op) ||
      !check_dtype(ctx, out, dtype, op, "out") || !resize_like(ctx, out, in, op)) {
    return out;
  }
  const float inv = static_cast<float>(1.0 / scale);
  const float zp = static_cast<float>(zero_point);
  const float lo = static_cast<float>(qmin), hi = static_cast<float>(qmax);
  dispatch<kInts>(dtype, [&](auto tag) {
    using Q = typename decltype(tag)::type;
    map_unary<float, float, Q>(in, out, [=](float x) { return quantize_value(x, inv, zp, lo, hi); });
  });
  return out;
}

bool check_dequantize_args(KernelRuntimeContext& ctx, const Tensor& in, ScalarType dtype,
                           std::optional<ScalarType> out_dtype, Tensor& out, const char* op) {
  int64_t lo = 0, hi = 0;
  if (!runtime::quantized_storage_range(dtype, &lo, &hi)) {
    ctx.fail(Error::InvalidType, "%s: quantized dtype %s is not supported (uint8, int8, int16, "
             "int32)", op, scalar_type_name(dtype));
    return false;
  }
  const ScalarType want = out_dtype.value_or(ScalarType::Float);
  if (!runtime::is_floating_point(want)) {
    ctx.fail(Error::InvalidType, "%s: out_dtype must be a floating dtype, got %s", op,
             scalar_type_name(want));
    return false;
  }
  return check_dtype(ctx, in, dtype, op, "input") && check_dtype(ctx, out, want, op, "out") &&
         resize_like(ctx, out, in, op);
}

// (to_S(q) - zp) * scale with each step rounded to S (torch computes in S's arithmetic).
Tensor& dequantize_per_tensor_impl(KernelRuntimeContext& ctx, const Tensor& in, double scale,
                                   int64_t zero_point, ScalarType dtype,
                                   std::optional<ScalarType> out_dtype, Tensor& out,
                                   const char* op) {
  if (!check_dequantize_args(ctx, in, dtype, out_dtype, out, op)) return out;
  dispatch<kInts>(dtype, [&](auto qtag) {
    using Q = typename decltype(qtag)::type;
    dispatch<kAllFloats>(out.scalar_type(), [&](auto stag) {
      using S = typename decltype(stag)::type;
      using C = compute_t<S>;
      const C zp = static_cast<C>(zero_point), s = static_cast<C>(scale);
      map_unary<C, Q, S>(in, out, [=](C q) {
        const C shifted = cast<C>(cast<S>(cast<C>(cast<S>(q)) - zp));
        return shifted * s;
      });
    });
  });
  return out;
}

// Per-channel parameters: 1-D with one element per channel of `axis` (or one for all,
// which torch broadcasts); zero points (when given) as many as scales.
bool check_channel_params(KernelRuntimeContext& ctx, const Tensor& in, const Tensor& scales,
                          const Tensor* zero_points, int64_t axis, int64_t* dim,
                          const char* op) {
  if (in.dim() == 0) {
    ctx.fail(Error::InvalidArgument, "%s: input must have at least one dimension", op);
    return false;
  }
  if (!normalize_dim(ctx, axis, in.dim(), op, dim)) return false;
  const size_t channels = static_cast<size_t>(in.size(static_cast<size_t>(*dim)));
  if (scales.dim() != 1 || (scales.numel() != channels && scales.numel() != 1)) {
    ctx.fail(Error::InvalidArgument,
             "%s: scales has %zu elements (rank %zu), input has %lld channels along axis %lld",
             op, scales.numel(), scales.dim(), static_cast<long long>(channels),
             static_cast<long long>(*dim));
    return false;
  }
  if (scales.scalar_type() != ScalarType::Float && scales.scalar_type() != ScalarType::Double) {
    ctx.fail(Error::InvalidType, "%s: scales must be float32 or float64, got %s", op,
             scalar_type_name(scales.scalar_type()));
    return false;
  }
  if (zero_points != nullptr && (zero_points->numel() != scales.numel() ||
                                 !runtime::is_integral(zero_points->scalar_type(), false))) {
    ctx.fail(Error::InvalidArgument,
             "%s: zero_points must be %zu integers like scales, got %zu elements of %s", op,
             scales.numel(), zero_points->numel(), scalar_type_name(zero_points->scalar_type()));
    return false;
  }
  return true;
}

// A loop over out (operand 0), input (1), scales (2) and zero points (3): the parameters
// advance along `dim` only.
StridedLoop<4> channel_loop(const Tensor& in, const Tensor& scales, const Tensor* zero_points,
                            int64_t dim, Tensor& out) {
  int64_t strides[4][runtime::kMaxTensorDims] = {};
  tensor_strides(out, strides[0]);
  tensor_strides(in, strides[1]);
  if (scales.numel() > 1) {
    strides[2][dim] = scales.strides()[0];
    if (zero_points != nullptr) strides[3][dim] = zero_points->strides()[0];
  }
  return StridedLoop<4>(out.sizes().data(), out.dim_order().data(), out.dim(), strides);
}

}  // namespace

Tensor& quantize_per_tensor_out(KernelRuntimeContext& ctx, const Tensor& input, double scale,
                                int64_t zero_point, int64_t quant_min, int64_t quant_max,
                                ScalarType dtype, Tensor& out) {
  return quantize_per_tensor_impl(ctx, input, scale, zero_point, quant_min, quant_max, dtype, out,
                                  "quantize_per_tensor.out");
}

Tensor& quantize_per_tensor_tensor_out(KernelRuntimeContext& ctx, const Tensor& input,
                                       const Tensor& scale, const Tensor& zero_point,
                                       int64_t quant_min, int64_t quant_max, ScalarType dtype,
                                       Tensor& out) {
  const char* op = "quantize_per_tensor.Tensor_out";
  double s = 0;
  int64_t zp = 0;
  if (!tensor_qparams(ctx, scale, zero_point, op, &s, &zp)) return out;
  return quantize_per_tensor_impl(ctx, input, s, zp, quant_min, quant_max, dtype, out, op);
}

Tensor& dequantize_per_tensor_out(KernelRuntimeContext& ctx, const Tensor& input, double scale,
                                  int64_t zero_point, int64_t quant_min, int64_t quant_max,
                                  ScalarType dtype, std::optional<ScalarType> out_dtype,
                                  Tensor& out) {
  (void)quant_min, (void)quant_max;  // metadata only: torch does not read them either
  return dequantize_per_tensor_impl(ctx, input, scale, zero_point, dtype, out_dtype, out,
                                    "dequantize_per_tensor.out");
}

Tensor& dequantize_per_tensor_tensor_out(KernelRuntimeContext& ctx, const Tensor& input,
                                         const Tensor& scale, const Tensor& zero_point,
                                         int64_t quant_min, int64_t quant_max, ScalarType dtype,
                                         std::optional<ScalarType> out_dtype, Tensor& out) {
  (void)quant_min, (void)quant_max;
  const char* op = "dequantize_per_tensor.Tensor_out";
  double s = 0;
  int64_t zp = 0;
  if (!tensor_qparams(ctx, scale, zero_point, op, &s, &zp)) return out;
  return dequantize_per_tensor_impl(ctx, input, s, zp, dtype, out_dtype, out, op);
}

Tensor& quantize_per_channel_out(KernelRuntimeContext& ctx, const Tensor& input,
                                 const Tensor& scales, const Tensor& zero_points, int64_t axis,
                                 int64_t quant_min, int64_t quant_max, ScalarType dtype,
                                 Tensor& out) {
  const char* op = "quantize_per_channel.out";
  int64_t dim = 0;
  if (!check_float_input(ctx, input, op) ||
      !check_channel_params(ctx, input, scales, &zero_points, axis, &dim, op) ||
      !check_quant_range(ctx, quant_min, quant_max, dtype, op) ||
      !check_dtype(ctx, out, dtype, op, "out") || !resize_like(ctx, out, input, op)) {
    return out;
  }
  const StridedLoop<4> loop = channel_loop(input, scales, &zero_points, dim, out);
  const LoadFn<float> load_in = loader<float>(input.scalar_type());
  const void* pin = input.const_data_ptr();
  dispatch<kFloats>(scales.scalar_type(), [&](auto ttag) {
    using T = typename decltype(ttag)::type;  // float32, or float64 for float64 scales
    const T* ps = scales.const_data_ptr<T>();
    const LoadFn<T> load_zp = loader<T>(zero_points.scalar_type());
    const void* pz = zero_points.const_data_ptr();
    const T lo = static_cast<T>(quant_min), hi = static_cast<T>(quant_max);
    dispatch<kInts>(dtype, [&](auto qtag) {
      using Q = typename decltype(qtag)::type;
      Q* po = out.mutable_data_ptr<Q>();
      loop.run([&](const int64_t* off, int64_t n, const int64_t* st) {
        for (int64_t i = 0; i < n; ++i) {
          const T inv = T(1) / ps[off[2] + i * st[2]];
          const T x = static_cast<T>(load_in(pin, off[1] + i * st[1]));
          po[off[0] + i * st[0]] =
              cast<Q>(quantize_value(x, inv, load_zp(pz, off[3] + i * st[3]), lo, hi));
        }
      });
    });
  });
  return out;
}

Tensor& dequantize_per_channel_out(KernelRuntimeContext& ctx, const Tensor& input,
                                   const Tensor& scales, const Tensor* zero_points, int64_t axis,
                                   int64_t quant_min, int64_t quant_max, ScalarType dtype,
                                   std::optional<ScalarType> out_dtype, Tensor& out) {
  const char* op = "dequantize_per_channel.out";
  int64_t dim = 0;
  if (!check_channel_params(ctx, input, scales, zero_points, axis, &dim, op) ||
      !check_quant_range(ctx, quant_min, quant_max, dtype, op) ||
      !check_dequantize_args(ctx, input, dtype, out_dtype, out, op)) {
    return out;
  }
  const StridedLoop<4> loop = channel_loop(input, scales, zero_points, dim, out);
  const LoadFn<int64_t> load_zp =
      zero_points != nullptr ? loader<int64_t>(zero_points->scalar_type()) : nullptr;
  const void* pz = zero_points != nullptr ? zero_points->const_data_ptr() : nullptr;
  dispatch<kFloats>(scales.scalar_type(), [&](auto ttag) {
    using T = typename decltype(ttag)::type;
    const T* ps = scales.const_data_ptr<T>();
    dispatch<kInts>(dtype, [&](auto qtag) {
      using Q = typename decltype(qtag)::type;
      const Q* pq = input.const_data_ptr<Q>();
      // Typed path for what convert_pt2e writes (int8 weights, float32 scales and output,
      // int64 or no zero points): no per-element loader calls.
      if constexpr (std::is_same<Q, int8_t>::value && std::is_same<T, float>::value) {
        if (out.scalar_type() == ScalarType::Float &&
            (zero_points == nullptr || zero_points->scalar_type() == ScalarType::Long)) {
          const int64_t* pzl = zero_points != nullptr ? zero_points->const_data_ptr<int64_t>() : nullptr;
          float* pf = out.mutable_data_ptr<float>();
          loop.run([&](const int64_t* off, int64_t n, const int64_t* st) {
            for (int64_t i = 0; i < n; ++i) {
              const int64_t zp = pzl != nullptr ? pzl[off[3] + i * st[3]] : 0;
              pf[off[0] + i * st[0]] = float(int64_t(pq[off[1] + i * st[1]]) - zp) * ps[off[2] + i * st[2]];
            }
          });
          return;
        }
      }
      const StoreFn<T> store = storer<T>(out.scalar_type());
      void* po = out.mutable_data_ptr();
      loop.run([&](const int64_t* off, int64_t n, const int64_t* st) {
        for (int64_t i = 0; i < n; ++i) {
          // Integer subtraction first (exact), as torch's int8 - int64 gives int64.
          int64_t q = pq[off[1] + i * st[1]];
          if (load_zp != nullptr) q -= load_zp(pz, off[3] + i * st[3]);
          store(po, off[0] + i * st[0], static_cast<T>(q) * ps[off[2] + i * st[2]]);
        }
      });
    });
  });
  return out;
}

void choose_qparams_tensor_out(KernelRuntimeContext& ctx, const Tensor& input, int64_t quant_min,
                               int64_t quant_max, double eps, ScalarType dtype, Tensor& scale_out,
                               Tensor& zero_point_out) {
  const char* op = "choose_qparams.Tensor_out";
  int64_t lo = 0, hi = 0;
  if (!check_dtype(ctx, input, ScalarType::Float, op, "input") ||
      !check_dtype(ctx, scale_out, ScalarType::Double, op, "scale_out") ||
      !check_dtype(ctx, zero_point_out, ScalarType::Long, op, "zero_point_out")) {
    return;
  }
  if (!runtime::quantized_storage_range(dtype, &lo, &hi)) {
    ctx.fail(Error::InvalidType, "%s: quantized dtype %s is not supported", op,
             scalar_type_name(dtype));
    return;
  }
  if (!(quant_min <= 0 && 0 <= quant_max && quant_min < quant_max)) {
    ctx.fail(Error::InvalidArgument, "%s: quant range [%lld, %lld] must include 0", op,
             static_cast<long long>(quant_min), static_cast<long long>(quant_max));
    return;
  }
  if (input.numel() == 0) {
    ctx.fail(Error::InvalidArgument, "%s: input is empty (no min/max to derive)", op);
    return;
  }
  const runtime::SizesType one[1] = {1};
  if (!resize_out(ctx, scale_out, {one, 1}, op) || !resize_out(ctx, zero_point_out, {one, 1}, op)) {
    return;
  }
  // min/max over every element, in memory order (the order does not change them). torch
  // asserts min <= max, which NaN fails.
  const float* p = input.const_data_ptr<float>();
  float min_v = p[0], max_v = p[0];
  bool nan = false;
  for (size_t i = 0; i < input.numel(); ++i) {
    min_v = std::min(min_v, p[i]);
    max_v = std::max(max_v, p[i]);
    nan = nan || std::isnan(p[i]);
  }
  if (nan) {
    ctx.fail(Error::InvalidArgument, "%s: input contains NaN", op);
    return;
  }
  const float min_neg = std::min(min_v, 0.0f), max_pos = std::max(max_v, 0.0f);
  float scale = (max_pos - min_neg) / static_cast<float>(static_cast<double>(quant_max - quant_min));
  scale = std::max(scale, static_cast<float>(eps));
  const int32_t rounded = cast<int32_t>(std::nearbyint(min_neg / scale));
  int32_t zp = static_cast<int32_t>(quant_min) - rounded;
  zp = std::min(std::max(zp, static_cast<int32_t>(quant_min)), static_cast<int32_t>(quant_max));
  scale_out.mutable_data_ptr<double>()[0] = static_cast<double>(scale);
  zero_point_out.mutable_data_ptr<int64_t>()[0] = zp;
}

}  // namespace ember::kernels::portable
