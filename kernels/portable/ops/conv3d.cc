// conv3d_f32 (see conv3d.h).
#include "kernels/portable/ops/conv3d.h"

#include "kernels/portable/util/tensor_util.h"

namespace ember::kernels::portable {

namespace {

using runtime::Error;

// A 1- or 3-element parameter list as (t, h, w).
bool param3(runtime::KernelRuntimeContext& ctx, IntList list, int64_t dflt, int64_t* v,
            const char* name) {
  if (list.size() == 0) {
    v[0] = v[1] = v[2] = dflt;
    return true;
  }
  if (list.size() != 1 && list.size() != 3) {
    ctx.fail(Error::InvalidArgument, "convolution.out: %s has %zu values for 3 spatial dims",
             name, list.size());
    return false;
  }
  for (int i = 0; i < 3; ++i) v[i] = list[list.size() == 1 ? 0 : static_cast<size_t>(i)];
  return true;
}

}  // namespace

void conv3d_f32(runtime::KernelRuntimeContext& ctx, const runtime::Tensor& in,
                const runtime::Tensor& weight, const runtime::Tensor* bias, IntList stride,
                IntList padding, IntList dilation, bool transposed, int64_t groups,
                runtime::Tensor& out) {
  const char* op = "convolution.out";
  if (transposed) {
    ctx.fail(Error::NotSupported, "%s: transposed 3-D convolution is not supported", op);
    return;
  }
  if (in.scalar_type() != runtime::ScalarType::Float) {
    ctx.fail(Error::NotSupported, "%s: 3-D convolution supports float32 only", op);
    return;
  }
  if (weight.dim() != 5) {
    ctx.fail(Error::InvalidArgument, "%s: 3-D convolution needs a rank-5 weight, got rank %zu",
             op, static_cast<size_t>(weight.dim()));
    return;
  }
  int64_t s[3], p[3], d[3];
  if (!param3(ctx, stride, 1, s, "stride") || !param3(ctx, padding, 0, p, "padding") ||
      !param3(ctx, dilation, 1, d, "dilation")) {
    return;
  }
  const int64_t n = in.size(0), c_in = in.size(1), c_out = weight.size(0);
  if (groups < 1 || c_in % groups != 0 || c_out % groups != 0 ||
      weight.size(1) * groups != c_in) {
    ctx.fail(Error::InvalidArgument,
             "%s: input channels %lld, weight [%lld, %lld, ...] and groups %lld do not agree", op,
             static_cast<long long>(c_in), static_cast<long long>(c_out),
             static_cast<long long>(weight.size(1)), static_cast<long long>(groups));
    return;
  }
  if (bias != nullptr && (bias->dim() != 1 || bias->size(0) != c_out)) {
    ctx.fail(Error::InvalidArgument, "%s: bias must be [%lld]", op, static_cast<long long>(c_out));
    return;
  }
  int64_t isz[3], ksz[3], osz[3];
  for (int i = 0; i < 3; ++i) {
    isz[i] = in.size(2 + i);
    ksz[i] = weight.size(2 + i);
    if (s[i] < 1 || d[i] < 1 || p[i] < 0) {
      ctx.fail(Error::InvalidArgument, "%s: stride and dilation must be >= 1, padding >= 0", op);
      return;
    }
    const int64_t span = d[i] * (ksz[i] - 1) + 1;
    if (isz[i] + 2 * p[i] < span) {
      ctx.fail(Error::InvalidArgument, "%s: kernel larger than the padded input in dim %d", op,
               2 + i);
      return;
    }
    osz[i] = (isz[i] + 2 * p[i] - span) / s[i] + 1;
  }
  Shape shape;
  for (int64_t v : {n, c_out, osz[0], osz[1], osz[2]}) shape.push(v);
  if (!resize_out(ctx, out, shape.span(), op)) return;
  if (out.numel() == 0) return;
  const float* x = in.const_data_ptr<float>();
  const float* w = weight.const_data_ptr<float>();
  const float* b = bias != nullptr ? bias->const_data_ptr<float>() : nullptr;
  float* y = out.mutable_data_ptr<float>();
  const auto xs = in.strides(), ws = weight.strides(), ys = out.strides();
  const int64_t cg_in = c_in / groups, cg_out = c_out / groups;
  for (int64_t ni = 0; ni < n; ++ni) {
    for (int64_t co = 0; co < c_out; ++co) {
      const int64_t g0 = (co / cg_out) * cg_in;
      for (int64_t ot = 0; ot < osz[0]; ++ot) {
        for (int64_t oh = 0; oh < osz[1]; ++oh) {
          for (int64_t ow = 0; ow < osz[2]; ++ow) {
            float acc = b != nullptr ? b[bias->strides()[0] * co] : 0.0f;
            for (int64_t ci = 0; ci < cg_in; ++ci) {
              for (int64_t kt = 0; kt < ksz[0]; ++kt) {
                const int64_t it = ot * s[0] - p[0] + kt * d[0];
                if (it < 0 || it >= isz[0]) continue;
                for (int64_t kh = 0; kh < ksz[1]; ++kh) {
                  const int64_t ih = oh * s[1] - p[1] + kh * d[1];
                  if (ih < 0 || ih >= isz[1]) continue;
                  for (int64_t kw = 0; kw < ksz[2]; ++kw) {
                    const int64_t iw = ow * s[2] - p[2] + kw * d[2];
                    if (iw < 0 || iw >= isz[2]) continue;
                    const float xv = x[ni * xs[0] + (g0 + ci) * xs[1] + it * xs[2] +
                                       ih * xs[3] + iw * xs[4]];
                    const float wv =
                        w[co * ws[0] + ci * ws[1] + kt * ws[2] + kh * ws[3] + kw * ws[4]];
                    acc += xv * wv;
                  }
                }
              }
            }
            y[ni * ys[0] + co * ys[1] + ot * ys[2] + oh * ys[3] + ow * ys[4]] = acc;
          }
        }
      }
    }
  }
}

}  // namespace ember::kernels::portable
