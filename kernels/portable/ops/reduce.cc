// Reduction kernels over dims; see reduce.h. (cumsum and topk: scan.cc.)
#include "kernels/portable/ops/reduce.h"

#include <cmath>
#include <type_traits>

#include "kernels/portable/util/cast.h"
#include "kernels/portable/util/dispatch.h"
#include "kernels/portable/util/math.h"
#include "kernels/portable/util/reduce.h"

namespace ember::kernels::portable {

namespace {

using runtime::Error;

// Mask + resize out. False (ctx failed) on bad dims or out.
bool prepare(KernelRuntimeContext& ctx, const Tensor& in, OptDims dims, bool keepdim, Tensor& out,
             bool* mask, const char* op) {
  if (!reduction_mask(ctx, in, dims, mask, op)) return false;
  const Shape shape = reduced_shape(in, mask, keepdim);
  return resize_out(ctx, out, shape.span(), op);
}

// acc = combine(acc, x) over each reduction, then out = finish(acc, count).
// Acc is double for floating outs, int64 otherwise.
template <typename Acc, typename Combine, typename Finish>
bool fold(const Tensor& in, const ReducePlan& plan, Tensor& out, Acc init, Combine combine,
          Finish finish) {
  const StoreFn<Acc> store = storer<Acc>(out.scalar_type());
  if (store == nullptr) return false;
  return dispatch<kAll>(in.scalar_type(), [&](auto tag) {
    using S = typename decltype(tag)::type;
    const S* p = in.const_data_ptr<S>();
    void* po = out.mutable_data_ptr();
    plan.for_each_output([&](int64_t io, int64_t oo) {
      Acc acc = init;
      plan.for_each_reduced(io, [&](int64_t off) { acc = combine(acc, cast<Acc>(p[off])); });
      store(po, oo, finish(acc, plan.reduced_numel()));
    });
  });
}

// Sum of a row-major tensor over one block of adjacent dims (size-1 dims ignored):
// out[o, i] = sum_r in[o, r, i], accumulated like fold() (double for float, int64 with
// wrap-around for integers and bool). Float -> float and bool/int64 -> int64 only; false when
// the layout or dtypes need the general plan. No ReducePlan set-up: the common case of small
// models (a loss's mean over a mask).
// With kMean, each sum is divided by red in double before the store (mean_impl's finish).
template <typename S, typename Acc, typename O, bool kMean = false>
void sum_block_typed(const Tensor& in, Tensor& out, int64_t outer, int64_t red, int64_t inner) {
  const S* p = in.const_data_ptr<S>();
  O* po = out.mutable_data_ptr<O>();
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t i = 0; i < inner; ++i) {
      Acc acc = Acc(0);
      const S* x = p + o * red * inner + i;
      if constexpr (std::is_same<Acc, double>::value) {
        for (int64_t r = 0; r < red; ++r) acc += double(x[r * inner]);
      } else {
        for (int64_t r = 0; r < red; ++r) acc = add_wrap(acc, Acc(x[r * inner]));
      }
      if constexpr (kMean) {
        po[o * inner + i] = O(acc / double(red));
      } else {
        po[o * inner + i] = O(acc);
      }
    }
  }
}

// mean: float32 only (the SE blocks' global average pools of MobileNetV3 and EfficientNet).
bool sum_block(const Tensor& in, const bool* mask, Tensor& out, bool mean = false) {
  const ScalarType ti = in.scalar_type(), to = out.scalar_type();
  const bool f32 = ti == ScalarType::Float && to == ScalarType::Float;
  const bool i64 = !mean && to == ScalarType::Long &&
                   (ti == ScalarType::Long || ti == ScalarType::Bool);
  if ((!f32 && !i64) || !is_row_major(in) || !is_row_major(out)) {
    return false;
  }
  int64_t outer = 1, red = 1, inner = 1;
  int phase = 0;  // 0: before the reduced block, 1: in it, 2: after it
  for (size_t d = 0; d < in.dim(); ++d) {
    const int64_t s = in.size(d);
    if (s == 1) continue;
    if (mask[d]) {
      if (phase == 2) return false;
      phase = 1;
      red *= s;
    } else if (phase == 0) {
      outer *= s;
    } else {
      phase = 2;
      inner *= s;
    }
  }
  if (f32 && mean) {
    sum_block_typed<float, double, float, true>(in, out, outer, red, inner);
  } else if (f32) {
    sum_block_typed<float, double, float>(in, out, outer, red, inner);
  } else if (ti == ScalarType::Long) {
    sum_block_typed<int64_t, int64_t, int64_t>(in, out, outer, red, inner);
  } else {
    sum_block_typed<bool, int64_t, int64_t>(in, out, outer, red, inner);
  }
  return true;
}

Tensor& sum_like(KernelRuntimeContext& ctx, const Tensor& in, OptDims dims, bool keepdim,
                 OptDtype dtype, Tensor& out, bool product, const char* op) {
  if (dtype.has_value() && !check_dtype(ctx, out, *dtype, op, "out (dtype argument)")) return out;
  bool mask[kMaxTensorDims];
  if (!prepare(ctx, in, dims, keepdim, out, mask, op)) return out;
  if (!product && sum_block(in, mask, out)) return out;
  const ReducePlan plan(in, mask, out, keepdim);
  bool ok;
  if (runtime::is_floating_point(out.scalar_type())) {
    ok = product ? fold<double>(in, plan, out, 1.0, [](double a, double x) { return a * x; },
                                [](double a, int64_t) { return a; })
                 : fold<double>(in, plan, out, 0.0, [](double a, double x) { return a + x; },
                                [](double a, int64_t) { return a; });
  } else {
    ok = product
             ? fold<int64_t>(in, plan, out, 1, [](int64_t a, int64_t x) { return mul_wrap(a, x); },
                             [](int64_t a, int64_t) { return a; })
             : fold<int64_t>(in, plan, out, 0, [](int64_t a, int64_t x) { return add_wrap(a, x); },
                             [](int64_t a, int64_t) { return a; });
  }
  if (!ok) fail_dtype(ctx, in, op, "input");
  return out;
}

Tensor& mean_impl(KernelRuntimeContext& ctx, const Tensor& in, OptDims dims, bool keepdim,
                  OptDtype dtype, Tensor& out, const char* op) {
  if (dtype.has_value() && !check_dtype(ctx, out, *dtype, op, "out (dtype argument)")) return out;
  if (!runtime::is_floating_point(out.scalar_type()) ||
      (!dtype.has_value() && !runtime::is_floating_point(in.scalar_type()))) {
    ctx.fail(Error::InvalidType, "%s: mean needs a floating input or dtype, got %s", op,
             runtime::scalar_type_name(in.scalar_type()));
    return out;
  }
  bool mask[kMaxTensorDims];
  if (!prepare(ctx, in, dims, keepdim, out, mask, op)) return out;
  if (sum_block(in, mask, out, true)) return out;
  const ReducePlan plan(in, mask, out, keepdim);
  fold<double>(in, plan, out, 0.0, [](double a, double x) { return a + x; },
               [](double a, int64_t n) { return a / double(n); });
  return out;
}

// amax/amin: NaN-propagating extreme, same dtype.
template <bool kMax>
Tensor& extreme(KernelRuntimeContext& ctx, const Tensor& in, OptDims dims, bool keepdim,
                Tensor& out, const char* op) {
  if (!check_dtype(ctx, out, in.scalar_type(), op, "out")) return out;
  bool mask[kMaxTensorDims];
  if (!reduction_mask(ctx, in, dims, mask, op)) return out;
  if (!check_nonempty_reduction(ctx, in, mask, op)) return out;
  if (!prepare(ctx, in, dims, keepdim, out, mask, op)) return out;
  const ReducePlan plan(in, mask, out, keepdim);
  dispatch<kAll>(in.scalar_type(), [&](auto tag) {
    using S = typename decltype(tag)::type;
    using C = compute_t<S>;
    const S* p = in.const_data_ptr<S>();
    S* po = out.mutable_data_ptr<S>();
    plan.for_each_output([&](int64_t io, int64_t oo) {
      C acc = cast<C>(p[io]);
      plan.for_each_reduced(io, [&](int64_t off) {
        const C x = cast<C>(p[off]);
        acc = kMax ? nan_max(acc, x) : nan_min(acc, x);
      });
      po[oo] = cast<S>(acc);
    });
  });
  return out;
}

// Index of the max (kMax) or min over the reduced elements; NaN wins, ties
// keep the first. Writes values (if non-null) and indices.
template <bool kMax>
void arg_extreme(const Tensor& in, const ReducePlan& plan, Tensor* values, Tensor& indices) {
  dispatch<kAll>(in.scalar_type(), [&](auto tag) {
    using S = typename decltype(tag)::type;
    using C = compute_t<S>;
    const S* p = in.const_data_ptr<S>();
    int64_t* pi = indices.mutable_data_ptr<int64_t>();
    plan.for_each_output([&](int64_t io, int64_t oo) {
      C best = cast<C>(p[io]);
      int64_t best_i = 0, i = 0;
      bool best_nan = false;
      if constexpr (std::is_floating_point<C>::value) best_nan = std::isnan(best);
      plan.for_each_reduced(io, [&](int64_t off) {
        const C x = cast<C>(p[off]);
        bool take = false;
        if constexpr (std::is_floating_point<C>::value) {
          take = !best_nan && (std::isnan(x) || (kMax ? x > best : x < best));
        } else {
          take = kMax ? x > best : x < best;
        }
        if (take) {
          best = x;
          best_i = i;
          if constexpr (std::is_floating_point<C>::value) best_nan = std::isnan(x);
        }
        ++i;
      });
      pi[oo] = best_i;
      if (values != nullptr) values->mutable_data_ptr<S>()[oo] = cast<S>(best);
    });
  });
}

template <bool kMax>
Tensor& argmax_impl(KernelRuntimeContext& ctx, const Tensor& in, std::optional<int64_t> dim,
                    bool keepdim, Tensor& out, const char* op) {
  if (!check_dtype(ctx, out, ScalarType::Long, op, "out")) return out;
  if (in.scalar_type() == ScalarType::Bool) {
    fail_dtype(ctx, in, op, "input");
    return out;
  }
  bool mask[kMaxTensorDims];
  std::optional<IntList> dims;
  int64_t d = dim.value_or(0);
  if (dim.has_value()) dims = IntList(&d, 1);
  if (!reduction_mask(ctx, in, dims, mask, op)) return out;
  if (!check_nonempty_reduction(ctx, in, mask, op)) return out;
  if (in.numel() == 0 && !dim.has_value()) {
    ctx.fail(Error::InvalidArgument, "%s: empty input", op);
    return out;
  }
  Shape shape = reduced_shape(in, mask, keepdim && dim.has_value());
  if (!dim.has_value() && keepdim) {
    shape = Shape();
    for (size_t i = 0; i < in.dim(); ++i) shape.push(1);
  }
  if (!resize_out(ctx, out, shape.span(), op)) return out;
  // A flattened argmax indexes the logical row-major order: walk the input that way.
  if (!dim.has_value() && !in.is_contiguous_dim_order()) {
    ctx.fail(Error::NotSupported, "%s: flattened arg reduction needs a contiguous input", op);
    return out;
  }
  const ReducePlan plan(in, mask, out, keepdim && dim.has_value());
  arg_extreme<kMax>(in, plan, nullptr, out);
  return out;
}

template <bool kMax>
void max_dim_impl(KernelRuntimeContext& ctx, const Tensor& in, int64_t dim, bool keepdim,
                  Tensor& values, Tensor& indices, const char* op) {
  if (!check_dtype(ctx, values, in.scalar_type(), op, "values") ||
      !check_dtype(ctx, indices, ScalarType::Long, op, "indices")) {
    return;
  }
  bool mask[kMaxTensorDims];
  if (!reduction_mask(ctx, in, IntList(&dim, 1), mask, op)) return;
  if (!check_nonempty_reduction(ctx, in, mask, op)) return;
  const Shape shape = reduced_shape(in, mask, keepdim);
  if (!resize_out(ctx, values, shape.span(), op) || !resize_out(ctx, indices, shape.span(), op)) {
    return;
  }
  if (!same_layout(values, indices)) {
    ctx.fail(Error::NotSupported, "%s: values and indices must share a dim order", op);
    return;
  }
  const ReducePlan plan(in, mask, values, keepdim);
  arg_extreme<kMax>(in, plan, &values, indices);
}

}  // namespace

Tensor& sum_intlist_out(KernelRuntimeContext& ctx, const Tensor& in, OptDims dims, bool keepdim,
                        OptDtype dtype, Tensor& out) {
  return sum_like(ctx, in, dims, keepdim, dtype, out, false, "sum.IntList_out");
}

Tensor& mean_out(KernelRuntimeContext& ctx, const Tensor& in, OptDims dims, bool keepdim,
                 OptDtype dtype, Tensor& out) {
  return mean_impl(ctx, in, dims, keepdim, dtype, out, "mean.out");
}

Tensor& mean_dtype_out(KernelRuntimeContext& ctx, const Tensor& in, OptDtype dtype, Tensor& out) {
  return mean_impl(ctx, in, std::nullopt, false, dtype, out, "mean.dtype_out");
}

Tensor& prod_out(KernelRuntimeContext& ctx, const Tensor& in, OptDtype dtype, Tensor& out) {
  return sum_like(ctx, in, std::nullopt, false, dtype, out, true, "prod.out");
}

Tensor& prod_int_out(KernelRuntimeContext& ctx, const Tensor& in, int64_t dim, bool keepdim,
                     OptDtype dtype, Tensor& out) {
  return sum_like(ctx, in, IntList(&dim, 1), keepdim, dtype, out, true, "prod.int_out");
}

Tensor& amax_out(KernelRuntimeContext& ctx, const Tensor& in, IntList dims, bool keepdim,
                 Tensor& out) {
  return extreme<true>(ctx, in, dims, keepdim, out, "amax.out");
}

Tensor& amin_out(KernelRuntimeContext& ctx, const Tensor& in, IntList dims, bool keepdim,
                 Tensor& out) {
  return extreme<false>(ctx, in, dims, keepdim, out, "amin.out");
}

Tensor& argmax_out(KernelRuntimeContext& ctx, const Tensor& in, std::optional<int64_t> dim,
                   bool keepdim, Tensor& out) {
  return argmax_impl<true>(ctx, in, dim, keepdim, out, "argmax.out");
}

Tensor& argmin_out(KernelRuntimeContext& ctx, const Tensor& in, std::optional<int64_t> dim,
                   bool keepdim, Tensor& out) {
  return argmax_impl<false>(ctx, in, dim, keepdim, out, "argmin.out");
}

void max_dim_out(KernelRuntimeContext& ctx, const Tensor& in, int64_t dim, bool keepdim,
                 Tensor& values, Tensor& indices) {
  max_dim_impl<true>(ctx, in, dim, keepdim, values, indices, "max.dim_max");
}

void min_dim_out(KernelRuntimeContext& ctx, const Tensor& in, int64_t dim, bool keepdim,
                 Tensor& values, Tensor& indices) {
  max_dim_impl<false>(ctx, in, dim, keepdim, values, indices, "min.dim_min");
}

Tensor& max_unary_out(KernelRuntimeContext& ctx, const Tensor& in, Tensor& out) {
  return extreme<true>(ctx, in, std::nullopt, false, out, "max.unary_out");
}

Tensor& min_unary_out(KernelRuntimeContext& ctx, const Tensor& in, Tensor& out) {
  return extreme<false>(ctx, in, std::nullopt, false, out, "min.unary_out");
}

Tensor& any_dims_out(KernelRuntimeContext& ctx, const Tensor& in, OptDims dims, bool keepdim,
                     Tensor& out) {
  const char* op = "any.dims_out";
  if (out.scalar_type() != ScalarType::Bool &&
      !(out.scalar_type() == ScalarType::Byte && in.scalar_type() == ScalarType::Byte)) {
    fail_dtype(ctx, out, op, "out (bool expected)");
    return out;
  }
  bool mask[kMaxTensorDims];
  if (!prepare(ctx, in, dims, keepdim, out, mask, op)) return out;
  const ReducePlan plan(in, mask, out, keepdim);
  fold<int64_t>(in, plan, out, 0, [](int64_t a, int64_t x) { return int64_t(a != 0 || x != 0); },
                [](int64_t a, int64_t) { return a; });
  return out;
}

Tensor& any_all_out(KernelRuntimeContext& ctx, const Tensor& in, Tensor& out) {
  return any_dims_out(ctx, in, std::nullopt, false, out);
}

Tensor& any_out(KernelRuntimeContext& ctx, const Tensor& in, int64_t dim, bool keepdim,
                Tensor& out) {
  return any_dims_out(ctx, in, IntList(&dim, 1), keepdim, out);
}

void var_mean_correction_out(KernelRuntimeContext& ctx, const Tensor& in, OptDims dims,
                             std::optional<Scalar> correction, bool keepdim, Tensor& var,
                             Tensor& mean) {
  const char* op = "var";
  if (!runtime::is_floating_point(in.scalar_type()) ||
      !check_dtype(ctx, var, in.scalar_type(), op, "out")) {
    if (!runtime::is_floating_point(in.scalar_type())) fail_dtype(ctx, in, op, "input");
    return;
  }
  bool mask[kMaxTensorDims];
  if (!prepare(ctx, in, dims, keepdim, var, mask, op)) return;
  if (&mean != &var && !prepare(ctx, in, dims, keepdim, mean, mask, op)) return;
  const double corr = correction.has_value() ? correction->to_double() : 1.0;
  const ReducePlan plan(in, mask, var, keepdim);
  const ReducePlan mean_plan(in, mask, mean, keepdim);
  dispatch<kAllFloats>(in.scalar_type(), [&](auto tag) {
    using S = typename decltype(tag)::type;
    const S* p = in.const_data_ptr<S>();
    S* pv = var.mutable_data_ptr<S>();
    const int64_t n = plan.reduced_numel();
    plan.for_each_output([&](int64_t io, int64_t oo) {
      double sum = 0;
      plan.for_each_reduced(io, [&](int64_t off) { sum += cast<double>(p[off]); });
      const double m = sum / double(n);
      double sq = 0;
      plan.for_each_reduced(io, [&](int64_t off) {
        const double d = cast<double>(p[off]) - m;
        sq += d * d;
      });
      const double denom = double(n) - corr;
      pv[oo] = cast<S>(sq / (denom > 0 ? denom : 0.0));
    });
    if (&mean == &var) return;
    S* pm = mean.mutable_data_ptr<S>();
    mean_plan.for_each_output([&](int64_t io, int64_t oo) {
      double sum = 0;
      mean_plan.for_each_reduced(io, [&](int64_t off) { sum += cast<double>(p[off]); });
      pm[oo] = cast<S>(sum / double(n));
    });
  });
}

Tensor& var_correction_out(KernelRuntimeContext& ctx, const Tensor& in, OptDims dims,
                           std::optional<Scalar> correction, bool keepdim, Tensor& out) {
  var_mean_correction_out(ctx, in, dims, correction, keepdim, out, out);
  return out;
}

Tensor& var_out(KernelRuntimeContext& ctx, const Tensor& in, OptDims dims, bool unbiased,
                bool keepdim, Tensor& out) {
  return var_correction_out(ctx, in, dims, Scalar(int64_t(unbiased ? 1 : 0)), keepdim, out);
}

}  // namespace ember::kernels::portable
