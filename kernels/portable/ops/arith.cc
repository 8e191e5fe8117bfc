// Broadcasting arithmetic kernels; see arith.h.
#include "kernels/portable/ops/arith.h"

#include <cmath>

#include "kernels/portable/util/binary.h"
#include "kernels/portable/util/binary_neon.h"
#include "kernels/portable/util/math.h"

namespace ember::kernels::portable {

namespace {

using runtime::Error;

template <typename T>
using CT = compute_t<typename T::type>;

// ATen rejects a floating alpha for integral inputs, and a non-bool alpha for bool.
bool check_alpha(KernelRuntimeContext& ctx, ScalarType common, const Scalar& alpha,
                 const char* op) {
  if (runtime::is_integral(common, false) && alpha.is_floating_point()) {
    ctx.fail(Error::InvalidArgument,
             "%s: for integral inputs, alpha must not be a floating point number", op);
    return false;
  }
  if (common == ScalarType::Bool && !alpha.is_boolean() && alpha.to_int() != 1) {
    ctx.fail(Error::InvalidArgument, "%s: for bool inputs, alpha must be a bool", op);
    return false;
  }
  return true;
}

// binary_op's fast path for float32 on aarch64 (util/binary_neon.h; false elsewhere).
auto neon_binary(BinaryF32Op op, ScalarType compute, const Scalar& alpha) {
  const float al = compute == ScalarType::Float ? alpha.to<float>() : 1.0f;
  const bool is_float = compute == ScalarType::Float;
  return [op, al, is_float](const Tensor& a, const Tensor& b, Tensor& out) {
    return is_float && binary_f32_neon(op, al, a, b, out);
  };
}

Tensor& add_impl(KernelRuntimeContext& ctx, const Tensor& a, const Tensor& b, ScalarType common,
                 const Scalar& alpha, Tensor& out, const char* op) {
  if (!check_alpha(ctx, common, alpha, op)) return out;
  return binary_op<kAll>(
      ctx, a, b, out, common, op,
      [&](auto tag) {
        using C = CT<decltype(tag)>;
        const C al = alpha.to<C>();
        if constexpr (std::is_same<C, bool>::value) {
          return [al](C x, C y) -> C { return x || (al && y); };
        } else {
          return [al](C x, C y) -> C { return add_wrap<C>(x, mul_wrap<C>(al, y)); };
        }
      },
      neon_binary(BinaryF32Op::Add, common, alpha));
}

Tensor& sub_impl(KernelRuntimeContext& ctx, const Tensor& a, const Tensor& b, ScalarType common,
                 const Scalar& alpha, Tensor& out, const char* op) {
  if (common == ScalarType::Bool) {
    ctx.fail(Error::InvalidArgument, "%s: subtraction of bool tensors is not supported", op);
    return out;
  }
  if (!check_alpha(ctx, common, alpha, op)) return out;
  return binary_op<kReal>(
      ctx, a, b, out, common, op,
      [&](auto tag) {
        using C = CT<decltype(tag)>;
        const C al = alpha.to<C>();
        return [al](C x, C y) -> C { return sub_wrap<C>(x, mul_wrap<C>(al, y)); };
      },
      neon_binary(BinaryF32Op::Sub, common, alpha));
}

ScalarType true_div_type(ScalarType common) {
  return runtime::is_floating_point(common) ? common : ScalarType::Float;
}

Tensor& div_impl(KernelRuntimeContext& ctx, const Tensor& a, const Tensor& b, ScalarType common,
                 Mode mode, Tensor& out, const char* op) {
  if (!mode.has_value()) {
    return binary_op<kAllFloats>(
        ctx, a, b, out, true_div_type(common), op,
        [](auto tag) {
          using C = CT<decltype(tag)>;
          return [](C x, C y) -> C { return x / y; };
        },
        neon_binary(BinaryF32Op::Div, true_div_type(common), Scalar(1.0)));
  }
  const bool trunc = *mode == "trunc";
  if (!trunc && *mode != "floor") {
    ctx.fail(Error::InvalidArgument, "%s: rounding_mode must be 'trunc', 'floor' or None, got '%.*s'",
             op, static_cast<int>(mode->size()), mode->data());
    return out;
  }
  bool zero = false;
  binary_op<kReal>(ctx, a, b, out, common, op, [&](auto tag) {
    using C = CT<decltype(tag)>;
    return [trunc, &zero](C x, C y) -> C {
      if constexpr (std::is_integral<C>::value) {
        return trunc ? int_div_trunc(x, y, &zero) : int_div_floor(x, y, &zero);
      } else {
        return trunc ? std::trunc(x / y) : float_div_floor(x, y);
      }
    };
  });
  if (zero) ctx.fail(Error::InvalidArgument, "%s: ZeroDivisionError (integer division by zero)", op);
  return out;
}

Tensor& fmod_impl(KernelRuntimeContext& ctx, const Tensor& a, const Tensor& b, ScalarType common,
                  bool python_mod, Tensor& out, const char* op) {
  bool zero = false;
  binary_op<kReal>(ctx, a, b, out, common, op, [&](auto tag) {
    using C = CT<decltype(tag)>;
    return [python_mod, &zero](C x, C y) -> C {
      if constexpr (std::is_integral<C>::value) {
        return python_mod ? int_remainder(x, y, &zero) : int_fmod(x, y, &zero);
      } else {
        return python_mod ? float_remainder(x, y) : float_fmod(x, y);
      }
    };
  });
  if (zero) ctx.fail(Error::InvalidArgument, "%s: ZeroDivisionError (integer modulo by zero)", op);
  return out;
}

template <typename C>
C pow_one(C x, C y) {
  if constexpr (std::is_same<C, bool>::value) {
    return x || !y;
  } else if constexpr (std::is_integral<C>::value) {
    return int_pow(x, y);
  } else {
    return std::pow(x, y);
  }
}

Tensor& pow_impl(KernelRuntimeContext& ctx, const Tensor& a, const Tensor& b, ScalarType common,
                 Tensor& out, const char* op) {
  return binary_op<kAll>(ctx, a, b, out, common, op, [](auto tag) {
    using C = CT<decltype(tag)>;
    return [](C x, C y) -> C { return pow_one(x, y); };
  });
}

}  // namespace

Tensor& add_out(KernelRuntimeContext& ctx, const Tensor& a, const Tensor& b, const Scalar& alpha,
                Tensor& out) {
  return add_impl(ctx, a, b, result_type(a, b), alpha, out, "add.out");
}

Tensor& add_scalar_out(KernelRuntimeContext& ctx, const Tensor& a, const Scalar& b,
                       const Scalar& alpha, Tensor& out) {
  const ScalarType common = result_type(a, b);
  ScalarTensor s(common, b);
  return add_impl(ctx, a, s.tensor(), common, alpha, out, "add.Scalar_out");
}

Tensor& sub_out(KernelRuntimeContext& ctx, const Tensor& a, const Tensor& b, const Scalar& alpha,
                Tensor& out) {
  return sub_impl(ctx, a, b, result_type(a, b), alpha, out, "sub.out");
}

Tensor& sub_scalar_out(KernelRuntimeContext& ctx, const Tensor& a, const Scalar& b,
                       const Scalar& alpha, Tensor& out) {
  const ScalarType common = result_type(a, b);
  ScalarTensor s(common, b);
  return sub_impl(ctx, a, s.tensor(), common, alpha, out, "sub.Scalar_out");
}

Tensor& rsub_scalar_out(KernelRuntimeContext& ctx, const Tensor& a, const Scalar& b,
                        const Scalar& alpha, Tensor& out) {
  // other - alpha * self.
  const ScalarType common = result_type(a, b);
  ScalarTensor s(common, b);
  if (common == ScalarType::Bool) {
    ctx.fail(Error::InvalidArgument, "rsub.Scalar_out: subtraction of bool is not supported");
    return out;
  }
  if (!check_alpha(ctx, common, alpha, "rsub.Scalar_out")) return out;
  return binary_op<kReal>(ctx, s.tensor(), a, out, common, "rsub.Scalar_out", [&](auto tag) {
    using C = CT<decltype(tag)>;
    const C al = alpha.to<C>();
    return [al](C x, C y) -> C { return sub_wrap<C>(x, mul_wrap<C>(al, y)); };
  });
}

Tensor& mul_out(KernelRuntimeContext& ctx, const Tensor& a, const Tensor& b, Tensor& out) {
  const ScalarType common = result_type(a, b);
  return binary_op<kAll>(
      ctx, a, b, out, common, "mul.out",
      [](auto tag) {
        using C = CT<decltype(tag)>;
        return [](C x, C y) -> C { return mul_wrap<C>(x, y); };
      },
      neon_binary(BinaryF32Op::Mul, common, Scalar(1.0)));
}

Tensor& mul_scalar_out(KernelRuntimeContext& ctx, const Tensor& a, const Scalar& b, Tensor& out) {
  const ScalarType common = result_type(a, b);
  ScalarTensor s(common, b);
  return mul_out(ctx, a, s.tensor(), out);
}

Tensor& div_out(KernelRuntimeContext& ctx, const Tensor& a, const Tensor& b, Tensor& out) {
  return div_impl(ctx, a, b, result_type(a, b), std::nullopt, out, "div.out");
}

Tensor& div_out_mode(KernelRuntimeContext& ctx, const Tensor& a, const Tensor& b, Mode mode,
                     Tensor& out) {
  return div_impl(ctx, a, b, result_type(a, b), mode, out, "div.out_mode");
}

Tensor& div_scalar_out(KernelRuntimeContext& ctx, const Tensor& a, const Scalar& b, Tensor& out) {
  const ScalarType common = result_type(a, b);
  ScalarTensor s(true_div_type(common), b);
  return div_impl(ctx, a, s.tensor(), common, std::nullopt, out, "div.Scalar_out");
}

Tensor& div_scalar_mode_out(KernelRuntimeContext& ctx, const Tensor& a, const Scalar& b,
                            Mode mode, Tensor& out) {
  const ScalarType common = result_type(a, b);
  ScalarTensor s(common, b);
  return div_impl(ctx, a, s.tensor(), common, mode, out, "div.Scalar_mode_out");
}

Tensor& floor_divide_out(KernelRuntimeContext& ctx, const Tensor& a, const Tensor& b,
                         Tensor& out) {
  return div_impl(ctx, a, b, result_type(a, b), Mode("floor"), out, "floor_divide.out");
}

Tensor& fmod_tensor_out(KernelRuntimeContext& ctx, const Tensor& a, const Tensor& b, Tensor& out) {
  return fmod_impl(ctx, a, b, result_type(a, b), false, out, "fmod.Tensor_out");
}

Tensor& fmod_scalar_out(KernelRuntimeContext& ctx, const Tensor& a, const Scalar& b, Tensor& out) {
  const ScalarType common = result_type(a, b);
  ScalarTensor s(common, b);
  return fmod_impl(ctx, a, s.tensor(), common, false, out, "fmod.Scalar_out");
}

Tensor& remainder_tensor_out(KernelRuntimeContext& ctx, const Tensor& a, const Tensor& b,
                             Tensor& out) {
  return fmod_impl(ctx, a, b, result_type(a, b), true, out, "remainder.Tensor_out");
}

Tensor& remainder_scalar_out(KernelRuntimeContext& ctx, const Tensor& a, const Scalar& b,
                             Tensor& out) {
  const ScalarType common = result_type(a, b);
  ScalarTensor s(common, b);
  return fmod_impl(ctx, a, s.tensor(), common, true, out, "remainder.Scalar_out");
}

Tensor& pow_tensor_tensor_out(KernelRuntimeContext& ctx, const Tensor& a, const Tensor& b,
                              Tensor& out) {
  return pow_impl(ctx, a, b, result_type(a, b), out, "pow.Tensor_Tensor_out");
}

Tensor& pow_tensor_scalar_out(KernelRuntimeContext& ctx, const Tensor& a, const Scalar& b,
                              Tensor& out) {
  const ScalarType common = result_type(a, b);
  if (runtime::is_integral(common, false) && b.is_integral() && b.to_int() < 0) {
    ctx.fail(Error::InvalidArgument,
             "pow.Tensor_Scalar_out: integers to negative integer powers are not allowed");
    return out;
  }
  ScalarTensor s(common, b);
  return pow_impl(ctx, a, s.tensor(), common, out, "pow.Tensor_Scalar_out");
}

Tensor& pow_scalar_out(KernelRuntimeContext& ctx, const Scalar& a, const Tensor& b, Tensor& out) {
  const ScalarType common = result_type(b, a);
  ScalarTensor s(common, a);
  return pow_impl(ctx, s.tensor(), b, common, out, "pow.Scalar_out");
}

Tensor& atan2_out(KernelRuntimeContext& ctx, const Tensor& a, const Tensor& b, Tensor& out) {
  return binary_op<kAllFloats>(ctx, a, b, out, true_div_type(result_type(a, b)), "atan2.out",
                   [](auto tag) {
                     using C = CT<decltype(tag)>;
                     return [](C x, C y) -> C { return std::atan2(x, y); };
                   });
}

Tensor& maximum_out(KernelRuntimeContext& ctx, const Tensor& a, const Tensor& b, Tensor& out) {
  return binary_op<kAll>(ctx, a, b, out, result_type(a, b), "maximum.out", [](auto tag) {
    using C = CT<decltype(tag)>;
    return [](C x, C y) -> C { return nan_max(x, y); };
  });
}

Tensor& minimum_out(KernelRuntimeContext& ctx, const Tensor& a, const Tensor& b, Tensor& out) {
  return binary_op<kAll>(ctx, a, b, out, result_type(a, b), "minimum.out", [](auto tag) {
    using C = CT<decltype(tag)>;
    return [](C x, C y) -> C { return nan_min(x, y); };
  });
}

}  // namespace ember::kernels::portable
