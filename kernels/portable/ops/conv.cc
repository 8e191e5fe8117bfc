// convolution.out: argument checks, output shape, and the choice of
// implementation (conv_fast.cc for float32, reference loops otherwise).
#include "kernels/portable/ops/conv.h"

#include "kernels/portable/ops/conv_geometry.h"
#include "kernels/portable/util/cast.h"
#include "kernels/portable/util/dispatch.h"
#include "kernels/portable/util/tensor_util.h"

namespace ember::kernels::portable {

namespace {

using runtime::Error;

// A 1- or 2-element parameter list as (y, x); 1-D convs use only x.
bool param(KernelRuntimeContext& ctx, IntList list, size_t spatial, int64_t dflt, int64_t* y,
           int64_t* x, const char* name) {
  if (list.size() == 0) {
    *y = *x = dflt;
    return true;
  }
  if (list.size() != 1 && list.size() != spatial) {
    ctx.fail(Error::InvalidArgument, "convolution.out: %s has %zu values for %zu spatial dims",
             name, list.size(), spatial);
    return false;
  }
  *x = list[list.size() - 1];
  *y = spatial == 1 ? dflt : list[0];
  return true;
}

void strides4(const Tensor& t, int64_t* s) {
  if (t.dim() == 4) {
    for (int i = 0; i < 4; ++i) s[i] = t.strides()[i];
  } else {
    s[0] = t.strides()[0];
    s[1] = t.strides()[1];
    s[2] = 0;
    s[3] = t.strides()[2];
  }
}

}  // namespace

bool conv_geometry(KernelRuntimeContext& ctx, const Tensor& in, const Tensor& weight,
                   const Tensor* bias, IntList stride, IntList padding, IntList dilation,
                   bool transposed, IntList output_padding, int64_t groups, ConvGeometry* g) {
  const char* op = "convolution.out";
  if ((in.dim() != 3 && in.dim() != 4) || weight.dim() != in.dim()) {
    ctx.fail(Error::NotSupported, "%s: supports 1-D, 2-D and 3-D convs (input rank %zu, weight %zu)",
             op, in.dim(), weight.dim());
    return false;
  }
  const size_t spatial = in.dim() - 2;
  const bool d4 = in.dim() == 4;
  g->n = in.size(0);
  g->c_in = in.size(1);
  g->h = d4 ? in.size(2) : 1;
  g->w = in.size(in.dim() - 1);
  g->kh = d4 ? weight.size(2) : 1;
  g->kw = weight.size(weight.dim() - 1);
  g->groups = groups;
  g->transposed = transposed;
  if (!param(ctx, stride, spatial, 1, &g->sy, &g->sx, "stride") ||
      !param(ctx, padding, spatial, 0, &g->py, &g->px, "padding") ||
      !param(ctx, dilation, spatial, 1, &g->dy, &g->dx, "dilation") ||
      !param(ctx, output_padding, spatial, 0, &g->opy, &g->opx, "output_padding")) {
    return false;
  }
  if (groups <= 0 || g->sy <= 0 || g->sx <= 0 || g->dy <= 0 || g->dx <= 0 || g->py < 0 ||
      g->px < 0 || g->opy < 0 || g->opx < 0) {
    ctx.fail(Error::InvalidArgument, "%s: groups, stride and dilation must be positive and "
             "padding non-negative", op);
    return false;
  }
  const int64_t w_in = transposed ? weight.size(0) : weight.size(1) * groups;
  g->c_out = transposed ? weight.size(1) * groups : weight.size(0);
  if (w_in != g->c_in || g->c_in % groups != 0 || g->c_out % groups != 0 ||
      (transposed ? weight.size(0) : weight.size(0)) % groups != 0) {
    ctx.fail(Error::InvalidArgument,
             "%s: input has %lld channels but weight and groups %lld expect %lld", op,
             static_cast<long long>(g->c_in), static_cast<long long>(groups),
             static_cast<long long>(w_in));
    return false;
  }
  if (bias != nullptr && int64_t(bias->numel()) != g->c_out) {
    ctx.fail(Error::InvalidArgument, "%s: bias has %zu elements, expected %lld", op,
             bias->numel(), static_cast<long long>(g->c_out));
    return false;
  }
  if (transposed) {
    g->oh = (g->h - 1) * g->sy - 2 * g->py + g->dy * (g->kh - 1) + g->opy + 1;
    g->ow = (g->w - 1) * g->sx - 2 * g->px + g->dx * (g->kw - 1) + g->opx + 1;
    if (g->opy >= g->sy && g->opy >= g->dy) g->oh = -1;
    if (g->opx >= g->sx && g->opx >= g->dx) g->ow = -1;
  } else {
    g->oh = (g->h + 2 * g->py - g->dy * (g->kh - 1) - 1) / g->sy + 1;
    g->ow = (g->w + 2 * g->px - g->dx * (g->kw - 1) - 1) / g->sx + 1;
    if (g->h + 2 * g->py < g->dy * (g->kh - 1) + 1) g->oh = 0;
    if (g->w + 2 * g->px < g->dx * (g->kw - 1) + 1) g->ow = 0;
  }
  if (g->oh <= 0 || g->ow <= 0) {
    ctx.fail(Error::InvalidArgument, "%s: output size would be %lld x %lld", op,
             static_cast<long long>(g->oh), static_cast<long long>(g->ow));
    return false;
  }
  strides4(in, g->is);
  strides4(weight, g->ws);
  return true;
}

bool conv_reference(const ConvGeometry& g, const Tensor& in, const Tensor& weight,
                    const Tensor* bias, Tensor& out) {
  return dispatch<kAllFloats>(in.scalar_type(), [&](auto tag) {
    using S = typename decltype(tag)::type;
    using C = std::conditional_t<std::is_same<S, double>::value, double, float>;
    const S* pi = in.const_data_ptr<S>();
    const S* pw = weight.const_data_ptr<S>();
    S* po = out.mutable_data_ptr<S>();
    const int64_t cig = g.c_in / g.groups, cog = g.c_out / g.groups;
    for (int64_t n = 0; n < g.n; ++n) {
      for (int64_t co = 0; co < g.c_out; ++co) {
        const int64_t grp = co / cog, col = co % cog;
        const C b = bias != nullptr ? cast<C>(bias->const_data_ptr<S>()[co]) : C(0);
        for (int64_t oy = 0; oy < g.oh; ++oy) {
          for (int64_t ox = 0; ox < g.ow; ++ox) {
            C acc = b;
            for (int64_t cil = 0; cil < cig; ++cil) {
              const int64_t ci = grp * cig + cil;
              for (int64_t ky = 0; ky < g.kh; ++ky) {
                for (int64_t kx = 0; kx < g.kw; ++kx) {
                  int64_t iy, ix, widx;
                  if (!g.transposed) {
                    iy = oy * g.sy - g.py + ky * g.dy;
                    ix = ox * g.sx - g.px + kx * g.dx;
                    widx = co * g.ws[0] + cil * g.ws[1] + ky * g.ws[2] + kx * g.ws[3];
                  } else {
                    const int64_t ny = oy + g.py - ky * g.dy, nx = ox + g.px - kx * g.dx;
                    if (ny < 0 || nx < 0 || ny % g.sy != 0 || nx % g.sx != 0) continue;
                    iy = ny / g.sy;
                    ix = nx / g.sx;
                    widx = ci * g.ws[0] + col * g.ws[1] + ky * g.ws[2] + kx * g.ws[3];
                  }
                  if (iy < 0 || iy >= g.h || ix < 0 || ix >= g.w) continue;
                  acc += cast<C>(pi[n * g.is[0] + ci * g.is[1] + iy * g.is[2] + ix * g.is[3]]) *
                         cast<C>(pw[widx]);
                }
              }
            }
            po[n * g.os[0] + co * g.os[1] + oy * g.os[2] + ox * g.os[3]] = cast<S>(acc);
          }
        }
      }
    }
  });
}

Tensor& convolution_out(KernelRuntimeContext& ctx, const Tensor& in, const Tensor& weight,
                        const Tensor* bias, IntList stride, IntList padding, IntList dilation,
                        bool transposed, IntList output_padding, int64_t groups, Tensor& out) {
  const char* op = "convolution.out";
  if (weight.scalar_type() != in.scalar_type() || out.scalar_type() != in.scalar_type() ||
      (bias != nullptr && bias->scalar_type() != in.scalar_type())) {
    ctx.fail(Error::InvalidType, "%s: input, weight, bias and out must share a dtype", op);
    return out;
  }
  if (in.dim() == 5) {
    return conv3d_out(ctx, in, weight, bias, stride, padding, dilation, transposed,
                      output_padding, groups, out);
  }
  ConvGeometry g;
  if (!conv_geometry(ctx, in, weight, bias, stride, padding, dilation, transposed,
                     output_padding, groups, &g)) {
    return out;
  }
  Shape shape;
  shape.push(g.n);
  shape.push(g.c_out);
  if (in.dim() == 4) shape.push(g.oh);
  shape.push(g.ow);
  if (!resize_out(ctx, out, shape.span(), op)) return out;
  strides4(out, g.os);
  if (out.numel() == 0) return out;
  if (in.scalar_type() == runtime::ScalarType::Float && !transposed) {
    const float* b = bias != nullptr ? bias->const_data_ptr<float>() : nullptr;
    if (g.groups == g.c_in && g.c_out == g.c_in && g.groups > 1) {
      conv_depthwise_f32(g, in.const_data_ptr<float>(), weight.const_data_ptr<float>(), b,
                         out.mutable_data_ptr<float>());
    } else if (kOneConvPath ||
               (!conv_small_plane_f32(ctx, g, in.const_data_ptr<float>(),
                                      weight.const_data_ptr<float>(), b,
                                      out.mutable_data_ptr<float>()) &&
                !conv_padded_f32(ctx, g, in.const_data_ptr<float>(),
                                 weight.const_data_ptr<float>(), b,
                                 out.mutable_data_ptr<float>()))) {
      conv_gemm_f32(g, in.const_data_ptr<float>(), weight.const_data_ptr<float>(), b,
                    out.mutable_data_ptr<float>(), ctx.thread_pool());
    }
    return out;
  }
  if (!conv_reference(g, in, weight, bias, out)) fail_dtype(ctx, in, op, "input");
  return out;
}

}  // namespace ember::kernels::portable
