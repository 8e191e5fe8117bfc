// Normalization kernels; see norm.h.
#include "kernels/portable/ops/norm.h"

#include <cmath>

#include "kernels/portable/util/cast.h"
#include "kernels/portable/util/dispatch.h"
#include "kernels/portable/util/reduce.h"
#include "kernels/portable/util/tensor_util.h"

namespace ember::kernels::portable {

namespace {

using runtime::Error;
using runtime::ScalarType;

double at(const Tensor* t, int64_t i, double dflt) {
  if (t == nullptr) return dflt;
  double v = dflt;
  dispatch<kAllFloats>(t->scalar_type(), [&](auto tag) {
    using S = typename decltype(tag)::type;
    v = cast<double>(t->const_data_ptr<S>()[i * (t->dim() == 0 ? 0 : t->strides()[0])]);
  });
  return v;
}

void set(Tensor& t, int64_t i, double v) {
  dispatch<kAllFloats>(t.scalar_type(), [&](auto tag) {
    using S = typename decltype(tag)::type;
    t.mutable_data_ptr<S>()[i * (t.dim() == 0 ? 0 : t.strides()[0])] = cast<S>(v);
  });
}

// Calls fn(in_offset, out_offset, count, in_stride, out_stride) over every
// element of channel c (dim 1) of in/out, which share a shape.
template <typename F>
void for_channel(const Tensor& in, const Tensor& out, int64_t c, F&& fn) {
  int64_t strides[2][kMaxTensorDims];
  SizesType sizes[kMaxTensorDims];
  for (size_t d = 0; d < in.dim(); ++d) {
    sizes[d] = d == 1 ? 1 : in.size(d);
    strides[0][d] = in.strides()[d];
    strides[1][d] = out.strides()[d];
  }
  const StridedLoop<2> loop(sizes, in.dim_order().data(), in.dim(), strides);
  const int64_t ib = c * in.strides()[1], ob = c * out.strides()[1];
  loop.run([&](const int64_t* off, int64_t n, const int64_t* s) {
    fn(ib + off[0], ob + off[1], n, s[0], s[1]);
  });
}

bool check_bn(KernelRuntimeContext& ctx, const Tensor& in, Tensor& out, const char* op) {
  if (in.dim() < 2) {
    ctx.fail(Error::InvalidArgument, "%s: input needs >= 2 dims, got %zu", op, in.dim());
    return false;
  }
  if (!runtime::is_floating_point(in.scalar_type())) {
    fail_dtype(ctx, in, op, "input");
    return false;
  }
  return check_dtype(ctx, out, in.scalar_type(), op, "out") && resize_like(ctx, out, in, op);
}

// out = in * scale[c] + shift[c] per channel.
void apply_affine(const Tensor& in, Tensor& out, int64_t c, double scale, double shift) {
  dispatch<kAllFloats>(in.scalar_type(), [&](auto tag) {
    using S = typename decltype(tag)::type;
    using C = compute_t<S>;
    const S* pi = in.const_data_ptr<S>();
    S* po = out.mutable_data_ptr<S>();
    const C a = C(scale), b = C(shift);
    for_channel(in, out, c, [&](int64_t io, int64_t oo, int64_t n, int64_t is, int64_t os) {
      if (is == 1 && os == 1) {
        for (int64_t i = 0; i < n; ++i) po[oo + i] = cast<S>(cast<C>(pi[io + i]) * a + b);
      } else {
        for (int64_t i = 0; i < n; ++i) po[oo + i * os] = cast<S>(cast<C>(pi[io + i * is]) * a + b);
      }
    });
  });
}

// Batch mean and biased variance of channel c.
void channel_stats(const Tensor& in, int64_t c, double* mean, double* var) {
  double sum = 0, sq = 0;
  int64_t count = 0;
  dispatch<kAllFloats>(in.scalar_type(), [&](auto tag) {
    using S = typename decltype(tag)::type;
    const S* pi = in.const_data_ptr<S>();
    for_channel(in, in, c, [&](int64_t io, int64_t, int64_t n, int64_t is, int64_t) {
      for (int64_t i = 0; i < n; ++i) sum += cast<double>(pi[io + i * is]);
      count += n;
    });
    *mean = count > 0 ? sum / double(count) : NAN;
    for_channel(in, in, c, [&](int64_t io, int64_t, int64_t n, int64_t is, int64_t) {
      for (int64_t i = 0; i < n; ++i) {
        const double d = cast<double>(pi[io + i * is]) - *mean;
        sq += d * d;
      }
    });
  });
  *var = count > 0 ? sq / double(count) : NAN;
}

bool resize_stat(KernelRuntimeContext& ctx, Tensor& t, int64_t n, const char* op) {
  const SizesType s = static_cast<SizesType>(n);
  return resize_out(ctx, t, {&s, 1}, op);
}

// Training-mode batch norm: batch statistics, optional running-stat update.
void bn_training(KernelRuntimeContext& ctx, const Tensor& in, const Tensor* weight,
                 const Tensor* bias, Tensor* running_mean, Tensor* running_var, double momentum,
                 double eps, Tensor& out, Tensor& save_mean, Tensor& save_invstd,
                 const char* op) {
  const int64_t channels = in.size(1);
  if (!resize_stat(ctx, save_mean, channels, op) || !resize_stat(ctx, save_invstd, channels, op)) {
    return;
  }
  const int64_t count = int64_t(in.numel()) / (channels == 0 ? 1 : channels);
  for (int64_t c = 0; c < channels; ++c) {
    double mean = 0, var = 0;
    channel_stats(in, c, &mean, &var);
    const double invstd = 1.0 / std::sqrt(var + eps);
    const double scale = at(weight, c, 1.0) * invstd;
    apply_affine(in, out, c, scale, at(bias, c, 0.0) - mean * scale);
    set(save_mean, c, mean);
    set(save_invstd, c, invstd);
    if (running_mean != nullptr) {
      set(*running_mean, c, (1 - momentum) * at(running_mean, c, 0) + momentum * mean);
    }
    if (running_var != nullptr) {
      const double unbiased = count > 1 ? var * double(count) / double(count - 1) : var;
      set(*running_var, c, (1 - momentum) * at(running_var, c, 0) + momentum * unbiased);
    }
  }
}

}  // namespace

void batch_norm_no_training_out(KernelRuntimeContext& ctx, const Tensor& in, const Tensor* weight,
                                const Tensor* bias, const Tensor& running_mean,
                                const Tensor& running_var, double, double eps, Tensor& out,
                                Tensor& save_mean, Tensor& save_invstd) {
  const char* op = "_native_batch_norm_legit_no_training.out";
  if (!check_bn(ctx, in, out, op)) return;
  const int64_t channels = in.size(1);
  if (int64_t(running_mean.numel()) != channels || int64_t(running_var.numel()) != channels ||
      (weight != nullptr && int64_t(weight->numel()) != channels) ||
      (bias != nullptr && int64_t(bias->numel()) != channels)) {
    ctx.fail(Error::InvalidArgument, "%s: per-channel tensors must have %lld elements", op,
             static_cast<long long>(channels));
    return;
  }
  if (!resize_stat(ctx, save_mean, 0, op) || !resize_stat(ctx, save_invstd, 0, op)) return;
  for (int64_t c = 0; c < channels; ++c) {
    const double invstd = 1.0 / std::sqrt(at(&running_var, c, 1.0) + eps);
    const double scale = at(weight, c, 1.0) * invstd;
    apply_affine(in, out, c, scale, at(bias, c, 0.0) - at(&running_mean, c, 0.0) * scale);
  }
}

void batch_norm_legit_out(KernelRuntimeContext& ctx, const Tensor& in, const Tensor* weight,
                          const Tensor* bias, Tensor& running_mean, Tensor& running_var,
                          bool training, double momentum, double eps, Tensor& out,
                          Tensor& save_mean, Tensor& save_invstd) {
  if (!training) {
    batch_norm_no_training_out(ctx, in, weight, bias, running_mean, running_var, momentum, eps,
                               out, save_mean, save_invstd);
    return;
  }
  const char* op = "_native_batch_norm_legit.out";
  if (!check_bn(ctx, in, out, op)) return;
  bn_training(ctx, in, weight, bias, &running_mean, &running_var, momentum, eps, out, save_mean,
              save_invstd, op);
}

void batch_norm_no_stats_out(KernelRuntimeContext& ctx, const Tensor& in, const Tensor* weight,
                             const Tensor* bias, bool, double momentum, double eps, Tensor& out,
                             Tensor& save_mean, Tensor& save_invstd) {
  const char* op = "_native_batch_norm_legit.no_stats_out";
  if (!check_bn(ctx, in, out, op)) return;
  bn_training(ctx, in, weight, bias, nullptr, nullptr, momentum, eps, out, save_mean,
              save_invstd, op);
}

}  // namespace ember::kernels::portable
