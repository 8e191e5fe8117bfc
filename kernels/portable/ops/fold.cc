// col2im and im2col (see fold.h).
#include "kernels/portable/ops/fold.h"

#include "kernels/portable/util/cast.h"
#include "kernels/portable/util/copy.h"
#include "kernels/portable/util/dispatch.h"
#include "kernels/portable/util/tensor_util.h"

namespace ember::kernels::portable {

namespace {

using runtime::Error;
using runtime::Tensor;

// The block geometry shared by both directions.
struct Blocks {
  int64_t n = 1, c = 0, h = 0, w = 0;  // image
  int64_t kh = 0, kw = 0, dh = 0, dw = 0, ph = 0, pw = 0, sh = 0, sw = 0;
  int64_t bh = 0, bw = 0;  // blocks per column / row
};

bool pair(KernelRuntimeContext& ctx, IntList v, int64_t lo, int64_t* a, int64_t* b, const char* op,
          const char* what) {
  if (v.size() != 2 || v[0] < lo || v[1] < lo) {
    ctx.fail(Error::InvalidArgument, "%s: %s must be 2 values >= %lld", op, what,
             static_cast<long long>(lo));
    return false;
  }
  *a = v[0];
  *b = v[1];
  return true;
}

bool geometry(KernelRuntimeContext& ctx, IntList kernel, IntList dilation, IntList padding,
              IntList stride, Blocks* g, const char* op) {
  if (!pair(ctx, kernel, 1, &g->kh, &g->kw, op, "kernel_size") ||
      !pair(ctx, dilation, 1, &g->dh, &g->dw, op, "dilation") ||
      !pair(ctx, padding, 0, &g->ph, &g->pw, op, "padding") ||
      !pair(ctx, stride, 1, &g->sh, &g->sw, op, "stride")) {
    return false;
  }
  g->bh = (g->h + 2 * g->ph - g->dh * (g->kh - 1) - 1) / g->sh + 1;
  g->bw = (g->w + 2 * g->pw - g->dw * (g->kw - 1) - 1) / g->sw + 1;
  if (g->h + 2 * g->ph < g->dh * (g->kh - 1) + 1 || g->w + 2 * g->pw < g->dw * (g->kw - 1) + 1) {
    ctx.fail(Error::InvalidArgument, "%s: the kernel does not fit the padded %lldx%lld image", op,
             static_cast<long long>(g->h), static_cast<long long>(g->w));
    return false;
  }
  return true;
}

// Calls fn(image offset, column offset) for every kernel tap inside the image.
template <typename F>
void for_each_tap(const Blocks& g, const int64_t* is, const int64_t* cs, bool batched, F&& fn) {
  const int64_t b = batched ? 1 : 0;  // index of the first non-batch dim
  for (int64_t n = 0; n < g.n; ++n) {
    for (int64_t c = 0; c < g.c; ++c) {
      for (int64_t ki = 0; ki < g.kh; ++ki) {
        for (int64_t kj = 0; kj < g.kw; ++kj) {
          const int64_t row = (c * g.kh + ki) * g.kw + kj;
          for (int64_t by = 0; by < g.bh; ++by) {
            const int64_t y = by * g.sh - g.ph + ki * g.dh;
            if (y < 0 || y >= g.h) continue;
            for (int64_t bx = 0; bx < g.bw; ++bx) {
              const int64_t x = bx * g.sw - g.pw + kj * g.dw;
              if (x < 0 || x >= g.w) continue;
              const int64_t io =
                  (batched ? n * is[0] : 0) + c * is[b] + y * is[b + 1] + x * is[b + 2];
              const int64_t co =
                  (batched ? n * cs[0] : 0) + row * cs[b] + (by * g.bw + bx) * cs[b + 1];
              fn(io, co);
            }
          }
        }
      }
    }
  }
}

}  // namespace

Tensor& col2im_out(KernelRuntimeContext& ctx, const Tensor& in, IntList output_size,
                   IntList kernel_size, IntList dilation, IntList padding, IntList stride,
                   Tensor& out) {
  const char* op = "col2im.out";
  if (in.dim() != 2 && in.dim() != 3) {
    ctx.fail(Error::InvalidArgument, "%s: input must be [N, C*kh*kw, L] or [C*kh*kw, L]", op);
    return out;
  }
  const bool batched = in.dim() == 3;
  Blocks g;
  g.n = batched ? in.size(0) : 1;
  if (!pair(ctx, output_size, 1, &g.h, &g.w, op, "output_size") ||
      !geometry(ctx, kernel_size, dilation, padding, stride, &g, op)) {
    return out;
  }
  const int64_t rows = in.size(batched ? 1 : 0), cols = in.size(batched ? 2 : 1);
  if (rows % (g.kh * g.kw) != 0 || cols != g.bh * g.bw) {
    ctx.fail(Error::InvalidArgument,
             "%s: input [.., %lld, %lld] does not fit %lldx%lld kernels over %lld blocks", op,
             static_cast<long long>(rows), static_cast<long long>(cols),
             static_cast<long long>(g.kh), static_cast<long long>(g.kw),
             static_cast<long long>(g.bh * g.bw));
    return out;
  }
  g.c = rows / (g.kh * g.kw);
  SizesType shape[4] = {SizesType(g.n), SizesType(g.c), SizesType(g.h), SizesType(g.w)};
  if (!check_dtype(ctx, out, in.scalar_type(), op, "out") ||
      !resize_out(ctx, out, Span<const SizesType>(batched ? shape : shape + 1, batched ? 4 : 3),
                  op)) {
    return out;
  }
  int64_t is[kMaxTensorDims], cs[kMaxTensorDims];
  tensor_strides(out, is);
  tensor_strides(in, cs);
  const bool ok = dispatch<kAllFloats>(in.scalar_type(), [&](auto tag) {
    using S = typename decltype(tag)::type;
    using C = compute_t<S>;
    S* po = out.mutable_data_ptr<S>();
    const S* pc = in.const_data_ptr<S>();
    // Sum in the compute type: overlapping taps add into the same image element.
    for (size_t i = 0; i < out.numel(); ++i) po[i] = cast<S>(C(0));
    for_each_tap(g, is, cs, batched, [&](int64_t io, int64_t co) {
      po[io] = cast<S>(cast<C>(po[io]) + cast<C>(pc[co]));
    });
  });
  if (!ok) fail_dtype(ctx, in, op, "input");
  return out;
}

Tensor& im2col_out(KernelRuntimeContext& ctx, const Tensor& in, IntList kernel_size,
                   IntList dilation, IntList padding, IntList stride, Tensor& out) {
  const char* op = "im2col.out";
  if (in.dim() != 3 && in.dim() != 4) {
    ctx.fail(Error::InvalidArgument, "%s: input must be [N, C, H, W] or [C, H, W]", op);
    return out;
  }
  const bool batched = in.dim() == 4;
  const size_t b = batched ? 1 : 0;
  Blocks g;
  g.n = batched ? in.size(0) : 1;
  g.c = in.size(b);
  g.h = in.size(b + 1);
  g.w = in.size(b + 2);
  if (!geometry(ctx, kernel_size, dilation, padding, stride, &g, op)) return out;
  SizesType shape[3] = {SizesType(g.n), SizesType(g.c * g.kh * g.kw), SizesType(g.bh * g.bw)};
  if (!check_dtype(ctx, out, in.scalar_type(), op, "out") ||
      !resize_out(ctx, out, Span<const SizesType>(batched ? shape : shape + 1, batched ? 3 : 2),
                  op)) {
    return out;
  }
  int64_t is[kMaxTensorDims], cs[kMaxTensorDims];
  tensor_strides(in, is);
  tensor_strides(out, cs);
  const bool ok = dispatch<kReal>(in.scalar_type(), [&](auto tag) {
    using S = typename decltype(tag)::type;
    S* pc = out.mutable_data_ptr<S>();
    const S* pi = in.const_data_ptr<S>();
    for (size_t i = 0; i < out.numel(); ++i) pc[i] = S(0);  // taps in the padding stay zero
    for_each_tap(g, is, cs, batched, [&](int64_t io, int64_t co) { pc[co] = pi[io]; });
  });
  if (!ok) fail_dtype(ctx, in, op, "input");
  return out;
}

}  // namespace ember::kernels::portable
