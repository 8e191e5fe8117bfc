// Layer norm and group norm (declared in norm.h): row-wise statistics over
// contiguous inputs, one pass for the sums and one for the output.
#include <cmath>

#include "kernels/portable/ops/norm.h"
#include "kernels/portable/util/cast.h"
#include "kernels/portable/util/dispatch.h"
#include "kernels/portable/util/loop.h"
#include "kernels/portable/util/tensor_util.h"
#include "kernels/portable/util/vec_math.h"

namespace ember::kernels::portable {

namespace {

using runtime::Error;

// Mean and biased variance of n values by Welford's update in the compute
// type (as PyTorch does: overflowing rows give inf/NaN statistics, not a
// finite double-precision answer).
template <typename S>
void row_moments(const S* x, int64_t n, double* mean_out, double* var_out) {
  using C = compute_t<S>;
  C mean = C(0), m2 = C(0);
  for (int64_t i = 0; i < n; ++i) {
    const C v = cast<C>(x[i]);
    const C delta = v - mean;
    mean += delta / C(i + 1);
    m2 += delta * (v - mean);
  }
  *mean_out = n > 0 ? double(mean) : NAN;
  *var_out = n > 0 ? double(m2) / double(n) : NAN;
}

// Normalises rows [row0 .. row0 + rows) of `len` elements of a contiguous
// tensor; the affine index of element j of row r is affine(r, j).
template <typename S, typename Affine>
void normalize_rows(const S* in, S* out, int64_t rows, int64_t len, double eps, S* mean_out,
                    S* rstd_out, Affine affine) {
  using C = compute_t<S>;
  for (int64_t r = 0; r < rows; ++r) {
    const S* x = in + r * len;
    double mean = 0, var = 0;
    row_moments(x, len, &mean, &var);
    const double rstd = 1.0 / std::sqrt(var + eps);
    S* y = out + r * len;
    const C m = C(mean), s = C(rstd);
    for (int64_t j = 0; j < len; ++j) {
      double w = 1, b = 0;
      affine(r, j, &w, &b);
      y[j] = cast<S>((cast<C>(x[j]) - m) * s * C(w) + C(b));
    }
    mean_out[r] = cast<S>(mean);
    rstd_out[r] = cast<S>(rstd);
  }
}

template <typename S>
double flat(const Tensor* t, int64_t i, double dflt) {
  return t == nullptr ? dflt : cast<double>(t->const_data_ptr<S>()[i]);
}

bool check_contiguous(KernelRuntimeContext& ctx, const Tensor& t, const char* op,
                      const char* what) {
  if (t.is_contiguous_dim_order()) return true;
  ctx.fail(Error::NotSupported, "%s: %s must be in contiguous dim order", op, what);
  return false;
}

bool check_affine(KernelRuntimeContext& ctx, const Tensor* t, const Tensor& in, int64_t numel,
                  const char* op) {
  if (t == nullptr) return true;
  if (int64_t(t->numel()) != numel || t->scalar_type() != in.scalar_type() ||
      !t->is_contiguous_dim_order()) {
    ctx.fail(Error::InvalidArgument,
             "%s: weight/bias must be contiguous %s with %lld elements, got %zu", op,
             runtime::scalar_type_name(in.scalar_type()), static_cast<long long>(numel),
             t->numel());
    return false;
  }
  return true;
}

// Group norm for any dim order: statistics and output walk each channel's
// spatial positions through the strides.
template <typename S>
void group_norm_strided(const Tensor& in, const Tensor* weight, const Tensor* bias,
                        int64_t groups, double eps, Tensor& out, S* mean_out, S* rstd_out) {
  using C = compute_t<S>;
  int64_t strides[2][kMaxTensorDims];
  SizesType sizes[kMaxTensorDims];
  const size_t spatial = in.dim() - 2;
  for (size_t d = 0; d < spatial; ++d) {
    sizes[d] = in.size(d + 2);
    strides[0][d] = in.strides()[d + 2];
    strides[1][d] = out.strides()[d + 2];
  }
  const StridedLoop<2> loop(sizes, nullptr, spatial, strides);
  const S* pi = in.const_data_ptr<S>();
  S* po = out.mutable_data_ptr<S>();
  const int64_t per_group = in.size(1) / groups;
  for (int64_t n = 0; n < in.size(0); ++n) {
    for (int64_t g = 0; g < groups; ++g) {
      C mean = C(0), m2 = C(0);
      int64_t count = 0;
      for (int64_t c = g * per_group; c < (g + 1) * per_group; ++c) {
        const S* base = pi + n * in.strides()[0] + c * in.strides()[1];
        loop.run([&](const int64_t* off, int64_t len, const int64_t* s) {
          for (int64_t i = 0; i < len; ++i) {
            const C v = cast<C>(base[off[0] + i * s[0]]);
            const C delta = v - mean;
            mean += delta / C(++count);
            m2 += delta * (v - mean);
          }
        });
      }
      const double var = count > 0 ? double(m2) / double(count) : NAN;
      const C rstd = C(1.0 / std::sqrt(var + eps));
      for (int64_t c = g * per_group; c < (g + 1) * per_group; ++c) {
        const C w = C(flat<S>(weight, c, 1.0)), b = C(flat<S>(bias, c, 0.0));
        const S* src = pi + n * in.strides()[0] + c * in.strides()[1];
        S* dst = po + n * out.strides()[0] + c * out.strides()[1];
        loop.run([&](const int64_t* off, int64_t len, const int64_t* s) {
          for (int64_t i = 0; i < len; ++i) {
            dst[off[1] + i * s[1]] = cast<S>((cast<C>(src[off[0] + i * s[0]]) - mean) * rstd * w + b);
          }
        });
      }
      mean_out[n * groups + g] = cast<S>(count > 0 ? double(mean) : NAN);
      rstd_out[n * groups + g] = cast<S>(rstd);
    }
  }
}

}  // namespace

void layer_norm_out(KernelRuntimeContext& ctx, const Tensor& in, IntList normalized_shape,
                    const Tensor* weight, const Tensor* bias, double eps, Tensor& out,
                    Tensor& mean, Tensor& rstd) {
  const char* op = "native_layer_norm.out";
  const size_t k = normalized_shape.size();
  if (k == 0 || k > in.dim()) {
    ctx.fail(Error::InvalidArgument, "%s: normalized_shape has %zu dims, input %zu", op, k,
             in.dim());
    return;
  }
  int64_t len = 1;
  for (size_t i = 0; i < k; ++i) {
    if (normalized_shape[i] != in.size(in.dim() - k + i)) {
      ctx.fail(Error::InvalidArgument, "%s: normalized_shape doesn't match the input's last dims",
               op);
      return;
    }
    len *= normalized_shape[i];
  }
  if (!runtime::is_floating_point(in.scalar_type())) {
    fail_dtype(ctx, in, op, "input");
    return;
  }
  if (!check_affine(ctx, weight, in, len, op) || !check_affine(ctx, bias, in, len, op)) return;
  Shape stat;
  for (size_t i = 0; i < in.dim(); ++i) stat.push(i + k < in.dim() ? in.size(i) : 1);
  if (!check_dtype(ctx, out, in.scalar_type(), op, "out") || !resize_like(ctx, out, in, op) ||
      !resize_out(ctx, mean, stat.span(), op) || !resize_out(ctx, rstd, stat.span(), op)) {
    return;
  }
  if (!check_contiguous(ctx, in, op, "input") || !check_contiguous(ctx, out, op, "out")) return;
  if (mean.scalar_type() != in.scalar_type() || rstd.scalar_type() != in.scalar_type()) {
    fail_dtype(ctx, mean, op, "mean/rstd (must match input)");
    return;
  }
  const int64_t rows = len == 0 ? 0 : int64_t(in.numel()) / len;
  if (in.scalar_type() == runtime::ScalarType::Float) {
    // float32: vectorised two-pass moments and normalisation (util/vec_math.h).
    const VecMath& vm = vec_math();
    const float* x = in.const_data_ptr<float>();
    float* y = out.mutable_data_ptr<float>();
    const float* w = weight != nullptr ? weight->const_data_ptr<float>() : nullptr;
    const float* b = bias != nullptr ? bias->const_data_ptr<float>() : nullptr;
    float* mean_p = mean.mutable_data_ptr<float>();
    float* rstd_p = rstd.mutable_data_ptr<float>();
    for (int64_t r = 0; r < rows; ++r) {
      float m = 0, var = 0;
      vm.moments(x + r * len, len, &m, &var);
      if (!std::isfinite(m) || !std::isfinite(var)) {
        // Overflowing or non-finite rows: PyTorch's Welford statistics (NaN where its
        // running update meets inf - inf), not the two-pass sums'.
        double dm = 0, dv = 0;
        row_moments(x + r * len, len, &dm, &dv);
        m = float(dm);
        var = float(dv);
      }
      const float s = float(1.0 / std::sqrt(double(var) + eps));
      vm.normalize(x + r * len, m, s, w, b, y + r * len, len);
      mean_p[r] = m;
      rstd_p[r] = s;
    }
    return;
  }
  dispatch<kAllFloats>(in.scalar_type(), [&](auto tag) {
    using S = typename decltype(tag)::type;
    normalize_rows<S>(in.const_data_ptr<S>(), out.mutable_data_ptr<S>(), rows, len, eps,
                      mean.mutable_data_ptr<S>(), rstd.mutable_data_ptr<S>(),
                      [&](int64_t, int64_t j, double* w, double* b) {
                        *w = flat<S>(weight, j, 1.0);
                        *b = flat<S>(bias, j, 0.0);
                      });
  });
}

void group_norm_out(KernelRuntimeContext& ctx, const Tensor& in, const Tensor* weight,
                    const Tensor* bias, int64_t n, int64_t c, int64_t hxw, int64_t groups,
                    double eps, Tensor& out, Tensor& mean, Tensor& rstd) {
  const char* op = "native_group_norm.out";
  if (in.dim() < 2 || groups <= 0 || c % groups != 0 || in.size(0) != n || in.size(1) != c ||
      int64_t(in.numel()) != n * c * hxw) {
    ctx.fail(Error::InvalidArgument, "%s: input doesn't match N=%lld C=%lld HxW=%lld group=%lld",
             op, static_cast<long long>(n), static_cast<long long>(c),
             static_cast<long long>(hxw), static_cast<long long>(groups));
    return;
  }
  if (!runtime::is_floating_point(in.scalar_type())) {
    fail_dtype(ctx, in, op, "input");
    return;
  }
  if (!check_affine(ctx, weight, in, c, op) || !check_affine(ctx, bias, in, c, op)) return;
  const SizesType stat[2] = {static_cast<SizesType>(n), static_cast<SizesType>(groups)};
  if (!check_dtype(ctx, out, in.scalar_type(), op, "out") || !resize_like(ctx, out, in, op) ||
      !resize_out(ctx, mean, {stat, 2}, op) || !resize_out(ctx, rstd, {stat, 2}, op)) {
    return;
  }
  if (!mean.is_contiguous_dim_order() || !rstd.is_contiguous_dim_order() ||
      mean.scalar_type() != in.scalar_type() || rstd.scalar_type() != in.scalar_type()) {
    fail_dtype(ctx, mean, op, "mean/rstd (contiguous, input dtype)");
    return;
  }
  const int64_t per_group = c / groups;
  dispatch<kAllFloats>(in.scalar_type(), [&](auto tag) {
    using S = typename decltype(tag)::type;
    if (!in.is_contiguous_dim_order() || !out.is_contiguous_dim_order()) {
      group_norm_strided<S>(in, weight, bias, groups, eps, out, mean.mutable_data_ptr<S>(),
                            rstd.mutable_data_ptr<S>());
      return;
    }
    normalize_rows<S>(in.const_data_ptr<S>(), out.mutable_data_ptr<S>(), n * groups,
                      per_group * hxw, eps, mean.mutable_data_ptr<S>(),
                      rstd.mutable_data_ptr<S>(),
                      [&](int64_t r, int64_t j, double* w, double* b) {
                        const int64_t ch = (r % groups) * per_group + j / (hxw == 0 ? 1 : hxw);
                        *w = flat<S>(weight, ch, 1.0);
                        *b = flat<S>(bias, ch, 0.0);
                      });
  });
}

}  // namespace ember::kernels::portable
