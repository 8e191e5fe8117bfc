// Elementwise unary kernels; see unary.h.
#include "kernels/portable/ops/unary.h"

#include <cmath>

#include "kernels/portable/ops/complex.h"
#include "kernels/portable/ops/vec_unary.h"
#include "kernels/portable/util/math.h"
#include "kernels/portable/util/unary.h"

namespace ember::kernels::portable {

namespace {

// Float-valued op: f is a generic lambda over float/double.
template <typename F>
Tensor& float_op(KernelRuntimeContext& ctx, const Tensor& in, Tensor& out, const char* op, F f) {
  return unary_op<kAllFloats>(ctx, in, out, float_result_type(in.scalar_type()), op,
                              [&](auto tag) {
                                using C = compute_t<typename decltype(tag)::type>;
                                return [f](C x) -> C { return static_cast<C>(f(x)); };
                              });
}

// Same-dtype op over `Families`.
template <unsigned Families, typename F>
Tensor& same_op(KernelRuntimeContext& ctx, const Tensor& in, Tensor& out, const char* op, F f) {
  return unary_op<Families>(ctx, in, out, in.scalar_type(), op, [&](auto tag) {
    using C = compute_t<typename decltype(tag)::type>;
    return [f](C x) -> C { return static_cast<C>(f(x)); };
  });
}

// Predicate computed in the input's own type; out gets bool.
template <typename F>
Tensor& predicate_op(KernelRuntimeContext& ctx, const Tensor& in, Tensor& out, const char* op,
                     F f) {
  return unary_op<kAll, true>(ctx, in, out, in.scalar_type(), op, [&](auto tag) {
    using C = compute_t<typename decltype(tag)::type>;
    return [f](C x) -> bool { return f(x); };
  });
}

template <typename T>
bool isnan_any(T x) {
  if constexpr (std::is_floating_point<T>::value) {
    return std::isnan(x);
  } else {
    return false;
  }
}

}  // namespace

#define EMBER_FLOAT_OP_(name, expr)                                            \
  Tensor& name##_out(KernelRuntimeContext& ctx, const Tensor& in, Tensor& out) { \
    return float_op(ctx, in, out, #name ".out", [](auto x) { return expr; });    \
  }
EMBER_FLOAT_OP_(acos, std::acos(x))
EMBER_FLOAT_OP_(acosh, std::acosh(x))
EMBER_FLOAT_OP_(asin, std::asin(x))
EMBER_FLOAT_OP_(asinh, std::asinh(x))
EMBER_FLOAT_OP_(atan, std::atan(x))
EMBER_FLOAT_OP_(atanh, std::atanh(x))
EMBER_FLOAT_OP_(cos, std::cos(x))
EMBER_FLOAT_OP_(cosh, std::cosh(x))
EMBER_FLOAT_OP_(erf, std::erf(x))
// exp and sigmoid: float32 through the vectorised exp (util/vec_math.h, <= 1 ulp measured).
Tensor& exp_out(KernelRuntimeContext& ctx, const Tensor& in, Tensor& out) {
  if (vec_unary_f32(ctx, in, out, "exp.out", vec_math().exp)) return out;
  return float_op(ctx, in, out, "exp.out", [](auto x) { return std::exp(x); });
}
EMBER_FLOAT_OP_(expm1, std::expm1(x))
EMBER_FLOAT_OP_(log, std::log(x))
EMBER_FLOAT_OP_(log10, std::log10(x))
// PyTorch's vectorised log1p returns inf above 1e38 (float) / 1e307 (double).
EMBER_FLOAT_OP_(log1p, x > (sizeof(x) == 4 ? decltype(x)(1e38) : decltype(x)(1e307))
                           ? decltype(x)(INFINITY)
                           : std::log1p(x))
EMBER_FLOAT_OP_(log2, std::log2(x))
EMBER_FLOAT_OP_(reciprocal, decltype(x)(1) / x)
EMBER_FLOAT_OP_(rsqrt, decltype(x)(1) / std::sqrt(x))
Tensor& sigmoid_out(KernelRuntimeContext& ctx, const Tensor& in, Tensor& out) {
  if (vec_unary_f32(ctx, in, out, "sigmoid.out", vec_math().sigmoid)) return out;
  return float_op(ctx, in, out, "sigmoid.out",
                  [](auto x) { return decltype(x)(1) / (decltype(x)(1) + std::exp(-x)); });
}
EMBER_FLOAT_OP_(sin, std::sin(x))
EMBER_FLOAT_OP_(sinh, std::sinh(x))
EMBER_FLOAT_OP_(sqrt, std::sqrt(x))
EMBER_FLOAT_OP_(tan, std::tan(x))
EMBER_FLOAT_OP_(tanh, std::tanh(x))
#undef EMBER_FLOAT_OP_

Tensor& abs_out(KernelRuntimeContext& ctx, const Tensor& in, Tensor& out) {
  if (in.scalar_type() == runtime::ScalarType::ComplexFloat) return complex_abs_out(ctx, in, out);
  return same_op<kReal>(ctx, in, out, "abs.out", [](auto x) {
    using C = decltype(x);
    if constexpr (std::is_floating_point<C>::value) {
      return std::fabs(x);
    } else {
      return is_neg(x) ? sub_wrap<C>(C(0), x) : x;
    }
  });
}

Tensor& neg_out(KernelRuntimeContext& ctx, const Tensor& in, Tensor& out) {
  return same_op<kReal>(ctx, in, out, "neg.out", [](auto x) {
    using C = decltype(x);
    return sub_wrap<C>(C(0), x);
  });
}

Tensor& sign_out(KernelRuntimeContext& ctx, const Tensor& in, Tensor& out) {
  return same_op<kAll>(ctx, in, out, "sign.out", [](auto x) {
    using C = decltype(x);
    if constexpr (std::is_same<C, bool>::value) {
      return x;
    } else {
      return static_cast<C>((C(0) < x) - is_neg(x));
    }
  });
}

#define EMBER_ROUND_OP_(name, fn)                                                 \
  Tensor& name##_out(KernelRuntimeContext& ctx, const Tensor& in, Tensor& out) {   \
    return same_op<kReal>(ctx, in, out, #name ".out", [](auto x) {                 \
      if constexpr (std::is_floating_point<decltype(x)>::value) {                  \
        return fn(x);                                                              \
      } else {                                                                     \
        return x;                                                                  \
      }                                                                            \
    });                                                                            \
  }
EMBER_ROUND_OP_(ceil, std::ceil)
EMBER_ROUND_OP_(floor, std::floor)
EMBER_ROUND_OP_(round, std::nearbyint)
EMBER_ROUND_OP_(trunc, std::trunc)
#undef EMBER_ROUND_OP_

Tensor& bitwise_not_out(KernelRuntimeContext& ctx, const Tensor& in, Tensor& out) {
  return same_op<kInts | kBool>(ctx, in, out, "bitwise_not.out", [](auto x) {
    using C = decltype(x);
    if constexpr (std::is_same<C, bool>::value) {
      return !x;
    } else {
      return static_cast<C>(~x);
    }
  });
}

Tensor& isnan_out(KernelRuntimeContext& ctx, const Tensor& in, Tensor& out) {
  return predicate_op(ctx, in, out, "isnan.out", [](auto x) { return isnan_any(x); });
}

Tensor& isinf_out(KernelRuntimeContext& ctx, const Tensor& in, Tensor& out) {
  return predicate_op(ctx, in, out, "isinf.out", [](auto x) {
    if constexpr (std::is_floating_point<decltype(x)>::value) {
      return std::isinf(x);
    } else {
      return false;
    }
  });
}

Tensor& logical_not_out(KernelRuntimeContext& ctx, const Tensor& in, Tensor& out) {
  return predicate_op(ctx, in, out, "logical_not.out",
                      [](auto x) { return x == decltype(x)(0); });
}

Tensor& logit_out(KernelRuntimeContext& ctx, const Tensor& in, std::optional<double> eps,
                  Tensor& out) {
  const bool has_eps = eps.has_value();
  const double e = has_eps ? *eps : 0.0;
  return float_op(ctx, in, out, "logit.out", [has_eps, e](auto x) {
    using C = decltype(x);
    if (has_eps) {
      const C lo = C(e), hi = C(1) - C(e);
      x = x < lo ? lo : (x > hi ? hi : x);
    }
    return std::log(x / (C(1) - x));
  });
}

}  // namespace ember::kernels::portable
