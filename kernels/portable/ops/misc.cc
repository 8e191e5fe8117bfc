// Remaining kernels; see misc.h.
#include "kernels/portable/ops/misc.h"

#include <cmath>

#include "kernels/portable/util/cast.h"
#include "kernels/portable/util/copy.h"
#include "kernels/portable/util/dispatch.h"
#include "kernels/portable/util/tensor_util.h"

namespace ember::kernels::portable {

namespace {

using runtime::Error;

// p-norm distance between rows a and b (strided, `n` elements).
template <typename S>
double distance(const S* a, int64_t as, const S* b, int64_t bs, int64_t n, double p) {
  double acc = 0;
  for (int64_t i = 0; i < n; ++i) {
    const double d = std::fabs(cast<double>(a[i * as]) - cast<double>(b[i * bs]));
    if (p == 0) {
      acc += d != 0 ? 1 : 0;
    } else if (std::isinf(p)) {
      acc = d > acc || std::isnan(d) ? d : acc;
    } else if (p == 1) {
      acc += d;
    } else if (p == 2) {
      acc += d * d;
    } else {
      acc += std::pow(d, p);
    }
  }
  if (p == 0 || p == 1 || std::isinf(p)) return acc;
  return p == 2 ? std::sqrt(acc) : std::pow(acc, 1.0 / p);
}

}  // namespace

Tensor& conj_physical_out(KernelRuntimeContext& ctx, const Tensor& in, Tensor& out) {
  const char* op = "_conj_physical.out";
  if (!check_dtype(ctx, out, in.scalar_type(), op, "out") || !resize_like(ctx, out, in, op)) {
    return out;
  }
  if (!copy_into(in, out)) fail_dtype(ctx, in, op, "input");
  return out;
}

void native_dropout_out(KernelRuntimeContext& ctx, const Tensor& in, double p,
                        std::optional<bool> train, Tensor& out, Tensor& mask) {
  const char* op = "native_dropout.out";
  if (p < 0 || p > 1) {
    ctx.fail(Error::InvalidArgument, "%s: p must be in [0, 1], got %g", op, p);
    return;
  }
  if (!check_dtype(ctx, mask, runtime::ScalarType::Bool, op, "mask") ||
      !check_dtype(ctx, out, in.scalar_type(), op, "out") || !resize_like(ctx, out, in, op) ||
      !resize_like(ctx, mask, in, op)) {
    return;
  }
  const bool training = train.value_or(true);
  if (training && p != 0 && p != 1) {
    ctx.fail(Error::NotSupported, "%s: training dropout with p=%g needs a random generator", op,
             p);
    return;
  }
  const bool drop_all = training && p == 1;
  fill_scalar(mask, runtime::Scalar(!drop_all));
  if (drop_all) {
    fill_scalar(out, runtime::Scalar(int64_t(0)));
  } else {
    copy_into(in, out);
  }
}

Tensor& cdist_forward_out(KernelRuntimeContext& ctx, const Tensor& x1, const Tensor& x2, double p,
                          std::optional<int64_t>, Tensor& out) {
  const char* op = "_cdist_forward.out";
  const size_t r = x1.dim();
  if (r < 2 || x2.dim() != r || x1.size(r - 1) != x2.size(r - 1) || p < 0 ||
      x1.scalar_type() != x2.scalar_type() || !runtime::is_floating_point(x1.scalar_type())) {
    ctx.fail(Error::InvalidArgument,
             "%s: x1 [..., P, M] and x2 [..., R, M] must be floating with equal M and p >= 0", op);
    return out;
  }
  Shape batch;
  if (!broadcast_shape(ctx, {x1.sizes().data(), r - 2}, {x2.sizes().data(), r - 2}, &batch, op)) {
    return out;
  }
  Shape shape = batch;
  shape.push(x1.size(r - 2));
  shape.push(x2.size(r - 2));
  if (!check_dtype(ctx, out, x1.scalar_type(), op, "out")) return out;
  if (!resize_out(ctx, out, shape.span(), op)) return out;
  int64_t s1[kMaxTensorDims], s2[kMaxTensorDims], so[kMaxTensorDims];
  broadcast_strides(x1, r, s1);
  broadcast_strides(x2, r, s2);
  tensor_strides(out, so);
  const int64_t nb = shape_numel(batch.span()), m = x1.size(r - 1);
  dispatch<kAllFloats>(x1.scalar_type(), [&](auto tag) {
    using S = typename decltype(tag)::type;
    for (int64_t b = 0; b < nb; ++b) {
      const int64_t o1 = offset_of(b, batch.sizes, s1, batch.dim);
      const int64_t o2 = offset_of(b, batch.sizes, s2, batch.dim);
      const int64_t oo = offset_of(b, batch.sizes, so, batch.dim);
      for (int64_t i = 0; i < x1.size(r - 2); ++i) {
        for (int64_t j = 0; j < x2.size(r - 2); ++j) {
          const S* a = x1.const_data_ptr<S>() + o1 + i * x1.strides()[r - 2];
          const S* c = x2.const_data_ptr<S>() + o2 + j * x2.strides()[r - 2];
          out.mutable_data_ptr<S>()[oo + i * so[r - 2] + j * so[r - 1]] = cast<S>(
              distance(a, x1.strides()[r - 1], c, x2.strides()[r - 1], m, p));
        }
      }
    }
  });
  return out;
}

Tensor& pdist_forward_out(KernelRuntimeContext& ctx, const Tensor& in, double p, Tensor& out) {
  const char* op = "_pdist_forward.out";
  if (in.dim() != 2 || p < 0 || !runtime::is_floating_point(in.scalar_type())) {
    ctx.fail(Error::InvalidArgument, "%s: input must be a 2-D floating tensor and p >= 0", op);
    return out;
  }
  const int64_t n = in.size(0), m = in.size(1);
  const SizesType size = static_cast<SizesType>(n * (n - 1) / 2);
  if (!check_dtype(ctx, out, in.scalar_type(), op, "out")) return out;
  if (!resize_out(ctx, out, {&size, 1}, op)) return out;
  dispatch<kAllFloats>(in.scalar_type(), [&](auto tag) {
    using S = typename decltype(tag)::type;
    const S* pi = in.const_data_ptr<S>();
    S* po = out.mutable_data_ptr<S>();
    int64_t k = 0;
    for (int64_t i = 0; i < n; ++i) {
      for (int64_t j = i + 1; j < n; ++j, ++k) {
        po[k * out.strides()[0]] = cast<S>(distance(pi + i * in.strides()[0], in.strides()[1],
                                                    pi + j * in.strides()[0], in.strides()[1], m, p));
      }
    }
  });
  return out;
}

Tensor& max_pool2d_with_indices_backward_out(KernelRuntimeContext& ctx, const Tensor& grad_output,
                                             const Tensor& in, IntList, IntList, IntList,
                                             IntList, bool, const Tensor& indices,
                                             Tensor& grad_input) {
  const char* op = "max_pool2d_with_indices_backward.grad_input";
  if ((in.dim() != 3 && in.dim() != 4) || !same_layout(grad_output, indices) ||
      grad_output.dim() != in.dim() || indices.scalar_type() != runtime::ScalarType::Long ||
      grad_output.scalar_type() != in.scalar_type() ||
      !runtime::is_floating_point(in.scalar_type())) {
    ctx.fail(Error::InvalidArgument,
             "%s: grad_output/indices must match the pooled shape of a 3-D or 4-D input", op);
    return grad_input;
  }
  if (!check_dtype(ctx, grad_input, in.scalar_type(), op, "grad_input") ||
      !resize_like(ctx, grad_input, in, op)) {
    return grad_input;
  }
  fill_scalar(grad_input, runtime::Scalar(int64_t(0)));
  const size_t r = in.dim();
  const int64_t planes = int64_t(in.numel()) / (int64_t(in.size(r - 2)) * in.size(r - 1) > 0
                                                    ? int64_t(in.size(r - 2)) * in.size(r - 1)
                                                    : 1);
  const int64_t plane_out = int64_t(grad_output.size(r - 2)) * grad_output.size(r - 1);
  const int64_t plane_in = int64_t(in.size(r - 2)) * in.size(r - 1);
  int64_t gs[kMaxTensorDims], is[kMaxTensorDims];
  tensor_strides(grad_output, gs);
  tensor_strides(grad_input, is);
  bool bad = false;
  dispatch<kAllFloats>(in.scalar_type(), [&](auto tag) {
    using S = typename decltype(tag)::type;
    using C = compute_t<S>;
    const S* pg = grad_output.const_data_ptr<S>();
    const int64_t* px = indices.const_data_ptr<int64_t>();
    S* po = grad_input.mutable_data_ptr<S>();
    for (int64_t i = 0; i < planes * plane_out && !bad; ++i) {
      const int64_t off = offset_of(i, grad_output.sizes().data(), gs, r);
      const int64_t idx = px[off];
      if (idx < 0 || idx >= plane_in) {
        bad = true;
        break;
      }
      const int64_t target = (i / plane_out) * plane_in + idx;
      const int64_t to = offset_of(target, grad_input.sizes().data(), is, r);
      po[to] = cast<S>(cast<C>(po[to]) + cast<C>(pg[off]));
    }
  });
  if (bad) ctx.fail(Error::InvalidArgument, "%s: index out of range for the input plane", op);
  return grad_input;
}

}  // namespace ember::kernels::portable
