// Activation and selection kernels; see activation.h.
#include "kernels/portable/ops/activation.h"

#include <cmath>
#include <limits>

#include "kernels/portable/ops/vec_unary.h"
#include "kernels/portable/util/binary.h"
#include "kernels/portable/util/math.h"
#include "kernels/portable/util/unary.h"

namespace ember::kernels::portable {

namespace {

using runtime::Error;

template <typename C>
C clamp_one(C x, bool has_lo, C lo, bool has_hi, C hi) {
  if (has_lo) x = nan_max(x, lo);
  if (has_hi) x = nan_min(x, hi);
  return x;
}

// Float-only same-dtype activation; `make(C)` gets the compute type's zero.
template <typename Make>
Tensor& float_act(KernelRuntimeContext& ctx, const Tensor& in, Tensor& out, const char* op,
                  Make make) {
  return unary_op<kAllFloats>(ctx, in, out, in.scalar_type(), op, make);
}

// hardtanh over n contiguous floats (the same select as clamp_one).
inline __attribute__((always_inline)) void hardtanh_flat_body(const float* in, float* out,
                                                              int64_t n, float lo, float hi) {
  for (int64_t i = 0; i < n; ++i) out[i] = nan_min(nan_max(in[i], lo), hi);
}

void hardtanh_flat(const float* in, float* out, int64_t n, float lo, float hi) {
  hardtanh_flat_body(in, out, n, lo, hi);
}

#if defined(__x86_64__)
__attribute__((target("avx2"))) void hardtanh_flat_avx2(const float* in, float* out, int64_t n,
                                                        float lo, float hi) {
  hardtanh_flat_body(in, out, n, lo, hi);
}
#endif

}  // namespace

Tensor& relu_out(KernelRuntimeContext& ctx, const Tensor& in, Tensor& out) {
  return unary_op<kReal>(ctx, in, out, in.scalar_type(), "relu.out", [](auto tag) {
    using C = compute_t<typename decltype(tag)::type>;
    return [](C x) -> C {
      if constexpr (std::is_floating_point<C>::value) {
        if (std::isnan(x)) return x;
      }
      return x > C(0) ? x : C(0);
    };
  });
}

Tensor& hardtanh_out(KernelRuntimeContext& ctx, const Tensor& in, const Scalar& min_val,
                     const Scalar& max_val, Tensor& out) {
  // float32 with out already shaped and laid out like in (the planned case): one flat loop,
  // eight lanes wide when the CPU has AVX2.
  if (in.scalar_type() == runtime::ScalarType::Float &&
      out.scalar_type() == runtime::ScalarType::Float && same_layout(in, out)) {
    const float lo = min_val.to<float>(), hi = max_val.to<float>();
    const float* pi = in.const_data_ptr<float>();
    float* po = out.mutable_data_ptr<float>();
    const int64_t n = int64_t(in.numel());
#if defined(__x86_64__)
    static const bool avx2 = __builtin_cpu_supports("avx2");
    if (avx2) {
      hardtanh_flat_avx2(pi, po, n, lo, hi);
      return out;
    }
#endif
    hardtanh_flat(pi, po, n, lo, hi);
    return out;
  }
  return unary_op<kReal>(ctx, in, out, in.scalar_type(), "hardtanh.out", [&](auto tag) {
    using C = compute_t<typename decltype(tag)::type>;
    const C lo = min_val.to<C>(), hi = max_val.to<C>();
    return [lo, hi](C x) -> C { return clamp_one(x, true, lo, true, hi); };
  });
}

Tensor& clamp_out(KernelRuntimeContext& ctx, const Tensor& in, std::optional<Scalar> min,
                  std::optional<Scalar> max, Tensor& out) {
  if (!min.has_value() && !max.has_value()) {
    ctx.fail(Error::InvalidArgument, "clamp.out: at least one of min or max must not be None");
    return out;
  }
  const ScalarType common = min.has_value() && max.has_value() ? result_type(in, *min, *max)
                            : min.has_value()                   ? result_type(in, *min)
                                                                : result_type(in, *max);
  if (common == ScalarType::Bool) {
    ctx.fail(Error::InvalidType, "clamp.out: bool tensors are not supported");
    return out;
  }
  return unary_op<kReal>(ctx, in, out, common, "clamp.out", [&](auto tag) {
    using C = compute_t<typename decltype(tag)::type>;
    const bool has_lo = min.has_value(), has_hi = max.has_value();
    const C lo = has_lo ? min->to<C>() : C(0), hi = has_hi ? max->to<C>() : C(0);
    return [=](C x) -> C { return clamp_one(x, has_lo, lo, has_hi, hi); };
  });
}

Tensor& clamp_tensor_out(KernelRuntimeContext& ctx, const Tensor& in, const Tensor* min,
                         const Tensor* max, Tensor& out) {
  const char* op = "clamp.Tensor_out";
  if (min == nullptr && max == nullptr) {
    ctx.fail(Error::InvalidArgument, "%s: at least one of min or max must not be None", op);
    return out;
  }
  const Tensor& lo = min != nullptr ? *min : *max;
  const Tensor& hi = max != nullptr ? *max : *min;
  const ScalarType common = result_type(in, lo, hi);
  if (common == ScalarType::Bool) {
    ctx.fail(Error::InvalidType, "%s: bool tensors are not supported", op);
    return out;
  }
  if (!check_out_dtype(ctx, out, common, op)) return out;
  Shape s1, s2;
  if (!broadcast_shape(ctx, in.sizes(), lo.sizes(), &s1, op)) return out;
  if (!broadcast_shape(ctx, s1.span(), hi.sizes(), &s2, op)) return out;
  if (!resize_out(ctx, out, s2.span(), op)) return out;
  const bool has_lo = min != nullptr, has_hi = max != nullptr;
  dispatch<kReal>(common, [&](auto tag) {
    using C = compute_t<typename decltype(tag)::type>;
    map_ternary<C, C>(in, lo, hi, out, [=](C x, C l, C h) -> C {
      return clamp_one(x, has_lo, l, has_hi, h);
    });
  });
  return out;
}

Tensor& leaky_relu_out(KernelRuntimeContext& ctx, const Tensor& in, const Scalar& slope,
                       Tensor& out) {
  return float_act(ctx, in, out, "leaky_relu.out", [&](auto tag) {
    using C = compute_t<typename decltype(tag)::type>;
    const C s = slope.to<C>();
    return [s](C x) -> C { return x > C(0) ? x : x * s; };
  });
}

Tensor& elu_out(KernelRuntimeContext& ctx, const Tensor& in, const Scalar& alpha,
                const Scalar& scale, const Scalar& input_scale, Tensor& out) {
  return float_act(ctx, in, out, "elu.out", [&](auto tag) {
    using C = compute_t<typename decltype(tag)::type>;
    const C neg = alpha.to<C>() * scale.to<C>(), pos = scale.to<C>(), in_s = input_scale.to<C>();
    return [=](C x) -> C { return x <= C(0) ? std::expm1(x * in_s) * neg : x * pos; };
  });
}

Tensor& gelu_out(KernelRuntimeContext& ctx, const Tensor& in, std::string_view approximate,
                 Tensor& out) {
  const bool tanh_approx = approximate == "tanh";
  if (!tanh_approx && approximate != "none") {
    ctx.fail(Error::InvalidArgument, "gelu.out: approximate must be 'none' or 'tanh', got '%.*s'",
             static_cast<int>(approximate.size()), approximate.data());
    return out;
  }
  if (!tanh_approx && vec_unary_f32(ctx, in, out, "gelu.out", vec_math().gelu_erf)) return out;
  return float_act(ctx, in, out, "gelu.out", [&](auto tag) {
    using C = compute_t<typename decltype(tag)::type>;
    return [tanh_approx](C x) -> C {
      if (tanh_approx) {
        const C k = C(0.7978845608028654), c = C(0.044715);
        return C(0.5) * x * (C(1) + std::tanh(k * (x + c * x * x * x)));
      }
      if (std::isinf(x)) return std::numeric_limits<C>::quiet_NaN();  // as PyTorch's CPU kernel
      return (x + x * std::erf(x * C(0.7071067811865476))) * C(0.5);
    };
  });
}

Tensor& hardswish_out(KernelRuntimeContext& ctx, const Tensor& in, Tensor& out) {
  if (vec_unary_f32(ctx, in, out, "hardswish.out", vec_math().hardswish)) return out;
  return float_act(ctx, in, out, "hardswish.out", [](auto tag) {
    using C = compute_t<typename decltype(tag)::type>;
    return [](C x) -> C {
      const C r = x + C(3);
      return x * (r < C(0) ? C(0) : (r > C(6) ? C(6) : r)) / C(6);
    };
  });
}

Tensor& hardsigmoid_out(KernelRuntimeContext& ctx, const Tensor& in, Tensor& out) {
  if (vec_unary_f32(ctx, in, out, "hardsigmoid.out", vec_math().hardsigmoid)) return out;
  return float_act(ctx, in, out, "hardsigmoid.out", [](auto tag) {
    using C = compute_t<typename decltype(tag)::type>;
    return [](C x) -> C {
      const C r = x + C(3);
      return (r < C(0) ? C(0) : (r > C(6) ? C(6) : r)) / C(6);
    };
  });
}

Tensor& silu_out(KernelRuntimeContext& ctx, const Tensor& in, Tensor& out) {
  if (vec_unary_f32(ctx, in, out, "silu.out", vec_math().silu)) return out;
  return float_act(ctx, in, out, "silu.out", [](auto tag) {
    using C = compute_t<typename decltype(tag)::type>;
    return [](C x) -> C { return x / (C(1) + std::exp(-x)); };
  });
}

Tensor& glu_out(KernelRuntimeContext& ctx, const Tensor& in, int64_t dim, Tensor& out) {
  const char* op = "glu.out";
  int64_t d = 0;
  if (!normalize_dim(ctx, dim, in.dim(), op, &d)) return out;
  if (in.dim() == 0 || in.size(d) % 2 != 0) {
    ctx.fail(Error::InvalidArgument, "%s: dim %lld must have an even size", op,
             static_cast<long long>(dim));
    return out;
  }
  if (!runtime::is_floating_point(in.scalar_type())) {
    fail_dtype(ctx, in, op, "input");
    return out;
  }
  if (!check_out_dtype(ctx, out, in.scalar_type(), op)) return out;
  Shape shape;
  for (size_t i = 0; i < in.dim(); ++i) shape.push(int64_t(i) == d ? in.size(i) / 2 : in.size(i));
  if (!resize_out(ctx, out, shape.span(), op)) return out;
  int64_t is[kMaxTensorDims], os[kMaxTensorDims];
  tensor_strides(in, is);
  tensor_strides(out, os);
  const int64_t half = (in.size(d) / 2) * is[d];
  dispatch<kAllFloats>(in.scalar_type(), [&](auto tag) {
    using S = typename decltype(tag)::type;
    using C = compute_t<S>;
    const S* pi = in.const_data_ptr<S>();
    const StoreFn<C> store = storer<C>(out.scalar_type());
    for_each_index(out.sizes().data(), out.dim(), [&](const int64_t* idx) {
      int64_t io = 0, oo = 0;
      for (size_t k = 0; k < out.dim(); ++k) {
        io += idx[k] * is[k];
        oo += idx[k] * os[k];
      }
      const C a = cast<C>(pi[io]), b = cast<C>(pi[io + half]);
      store(out.mutable_data_ptr(), oo, a / (C(1) + std::exp(-b)));
    });
  });
  return out;
}

namespace {

template <typename U>
void select_flat(const uint8_t* c, int64_t cs, const U* x, int64_t xs, const U* y, int64_t ys,
                 U* o, int64_t n) {
  for (int64_t i = 0; i < n; ++i) o[i] = c[i * cs] != 0 ? x[i * xs] : y[i * ys];
}

// where() when a, b and out share one dtype and every operand is flat in out's layout or a
// single element: a byte-exact select with no strided-loop setup (tiny masks in small models).
bool where_flat(const Tensor& cond, const Tensor& a, const Tensor& b, Tensor& out) {
  if (a.scalar_type() != out.scalar_type() || b.scalar_type() != out.scalar_type()) return false;
  int64_t step[3];
  const Tensor* ins[3] = {&cond, &a, &b};
  for (int k = 0; k < 3; ++k) {
    if (ins[k]->numel() == 1) {
      step[k] = 0;
    } else if (same_layout(*ins[k], out)) {
      step[k] = 1;
    } else {
      return false;
    }
  }
  const auto* c = static_cast<const uint8_t*>(cond.const_data_ptr());
  const int64_t n = int64_t(out.numel());
  const auto run = [&](auto tag) {
    using U = decltype(tag);
    select_flat(c, step[0], a.const_data_ptr<U>(), step[1], b.const_data_ptr<U>(), step[2],
                out.mutable_data_ptr<U>(), n);
    return true;
  };
  switch (out.element_size()) {
    case 1: return run(uint8_t{});
    case 2: return run(uint16_t{});
    case 4: return run(uint32_t{});
    case 8: return run(uint64_t{});
    default: return false;
  }
}

}  // namespace

Tensor& where_out(KernelRuntimeContext& ctx, const Tensor& cond, const Tensor& a,
                  const Tensor& b, Tensor& out) {
  const char* op = "where.self_out";
  if (cond.scalar_type() != ScalarType::Bool && cond.scalar_type() != ScalarType::Byte) {
    fail_dtype(ctx, cond, op, "condition (bool expected)");
    return out;
  }
  const ScalarType common = result_type(a, b);
  if (!check_out_dtype(ctx, out, common, op)) return out;
  Shape s1, s2;
  if (!broadcast_shape(ctx, cond.sizes(), a.sizes(), &s1, op)) return out;
  if (!broadcast_shape(ctx, s1.span(), b.sizes(), &s2, op)) return out;
  if (!resize_out(ctx, out, s2.span(), op)) return out;
  if (where_flat(cond, a, b, out)) return out;
  dispatch<kAll>(common, [&](auto tag) {
    using C = compute_t<typename decltype(tag)::type>;
    map_ternary<bool, C>(cond, a, b, out, [](bool c, C x, C y) -> C { return c ? x : y; });
  });
  return out;
}

Tensor& masked_fill_scalar_out(KernelRuntimeContext& ctx, const Tensor& in, const Tensor& mask,
                               const Scalar& value, Tensor& out) {
  const char* op = "masked_fill.Scalar_out";
  if (mask.scalar_type() != ScalarType::Bool) {
    fail_dtype(ctx, mask, op, "mask (bool expected)");
    return out;
  }
  Shape shape;
  if (!broadcast_shape(ctx, in.sizes(), mask.sizes(), &shape, op)) return out;
  if (!check_out_dtype(ctx, out, in.scalar_type(), op)) return out;
  if (!resize_out(ctx, out, shape.span(), op)) return out;
  ScalarTensor v(in.scalar_type(), value);
  dispatch<kAll>(in.scalar_type(), [&](auto tag) {
    using C = compute_t<typename decltype(tag)::type>;
    map_ternary<bool, C>(mask, v.tensor(), in, out, [](bool c, C x, C y) -> C { return c ? x : y; });
  });
  return out;
}

}  // namespace ember::kernels::portable
