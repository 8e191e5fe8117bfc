// 3-D convolution (video models), reached from convolution_out for 5-D inputs (see conv.h).
#include <type_traits>

#include "kernels/portable/ops/conv.h"
#include "kernels/portable/util/cast.h"
#include "kernels/portable/util/dispatch.h"
#include "kernels/portable/util/tensor_util.h"

namespace ember::kernels::portable {

namespace {

using runtime::Error;

// Per spatial dim (D, H, W): input, output, kernel, stride, padding, dilation, output padding;
// element strides as (N, C, D, H, W) of input, output and weight.
struct Conv3dGeometry {
  int64_t n = 0, c_in = 0, c_out = 0, groups = 1;
  int64_t in[3] = {}, out[3] = {}, k[3] = {}, s[3] = {}, p[3] = {}, d[3] = {}, op[3] = {};
  int64_t is[5] = {}, os[5] = {}, ws[5] = {};
};

bool triple(KernelRuntimeContext& ctx, IntList l, int64_t dflt, int64_t* v, const char* name) {
  if (l.size() != 0 && l.size() != 1 && l.size() != 3) {
    ctx.fail(Error::InvalidArgument, "convolution.out: %s has %zu values for 3 spatial dims",
             name, l.size());
    return false;
  }
  for (size_t i = 0; i < 3; ++i) v[i] = l.size() == 0 ? dflt : l[l.size() == 1 ? 0 : i];
  return true;
}

bool conv3d_geometry(KernelRuntimeContext& ctx, const Tensor& in, const Tensor& weight,
                     const Tensor* bias, IntList stride, IntList padding, IntList dilation,
                     bool transposed, IntList output_padding, int64_t groups, Conv3dGeometry* g) {
  const char* op = "convolution.out";
  if (weight.dim() != 5) {
    ctx.fail(Error::InvalidArgument, "%s: a 5-D input needs a 5-D weight, got %zu dims", op,
             weight.dim());
    return false;
  }
  g->n = in.size(0);
  g->c_in = in.size(1);
  g->groups = groups;
  if (!triple(ctx, stride, 1, g->s, "stride") || !triple(ctx, padding, 0, g->p, "padding") ||
      !triple(ctx, dilation, 1, g->d, "dilation") ||
      !triple(ctx, output_padding, 0, g->op, "output_padding")) {
    return false;
  }
  if (groups <= 0) {
    ctx.fail(Error::InvalidArgument, "%s: groups must be positive, got %lld", op,
             static_cast<long long>(groups));
    return false;
  }
  const int64_t w_in = transposed ? weight.size(0) : weight.size(1) * groups;
  g->c_out = transposed ? weight.size(1) * groups : weight.size(0);
  if (w_in != g->c_in || g->c_in % groups != 0 || weight.size(0) % groups != 0) {
    ctx.fail(Error::InvalidArgument,
             "%s: input has %lld channels but weight and groups %lld expect %lld", op,
             static_cast<long long>(g->c_in), static_cast<long long>(groups),
             static_cast<long long>(w_in));
    return false;
  }
  if (bias != nullptr && (bias->dim() != 1 || bias->size(0) != g->c_out)) {
    ctx.fail(Error::InvalidArgument, "%s: bias must have %lld values", op,
             static_cast<long long>(g->c_out));
    return false;
  }
  for (size_t i = 0; i < 3; ++i) {
    g->in[i] = in.size(2 + i);
    g->k[i] = weight.size(2 + i);
    if (g->s[i] <= 0 || g->d[i] <= 0 || g->p[i] < 0 || g->op[i] < 0) {
      ctx.fail(Error::InvalidArgument,
               "%s: stride and dilation must be positive, padding non-negative (dim %zu)", op, i);
      return false;
    }
    g->out[i] = transposed ? (g->in[i] - 1) * g->s[i] - 2 * g->p[i] + g->d[i] * (g->k[i] - 1) +
                                 g->op[i] + 1
                           : (g->in[i] + 2 * g->p[i] - g->d[i] * (g->k[i] - 1) - 1) / g->s[i] + 1;
    if (!transposed && g->in[i] + 2 * g->p[i] < g->d[i] * (g->k[i] - 1) + 1) g->out[i] = 0;
    if (g->out[i] <= 0) {
      ctx.fail(Error::InvalidArgument, "%s: output size would be %lld in spatial dim %zu", op,
               static_cast<long long>(g->out[i]), i);
      return false;
    }
  }
  tensor_strides(in, g->is);
  tensor_strides(weight, g->ws);
  return true;
}

}  // namespace

// 3-D convolution, transposed or not, with groups: a reference loop accumulating each output
// in the compute type (float for float16/bfloat16).
Tensor& conv3d_out(KernelRuntimeContext& ctx, const Tensor& in, const Tensor& weight,
                   const Tensor* bias, IntList stride, IntList padding, IntList dilation,
                   bool transposed, IntList output_padding, int64_t groups, Tensor& out) {
  const char* op = "convolution.out";
  Conv3dGeometry g;
  if (!conv3d_geometry(ctx, in, weight, bias, stride, padding, dilation, transposed,
                       output_padding, groups, &g)) {
    return out;
  }
  const SizesType shape[5] = {SizesType(g.n), SizesType(g.c_out), SizesType(g.out[0]),
                              SizesType(g.out[1]), SizesType(g.out[2])};
  if (!resize_out(ctx, out, Span<const SizesType>(shape, 5), op)) return out;
  tensor_strides(out, g.os);
  const bool ok = dispatch<kAllFloats>(in.scalar_type(), [&](auto tag) {
    using S = typename decltype(tag)::type;
    using C = compute_t<S>;
    const S* pi = in.const_data_ptr<S>();
    const S* pw = weight.const_data_ptr<S>();
    S* po = out.mutable_data_ptr<S>();
    const int64_t cig = g.c_in / g.groups, cog = g.c_out / g.groups;
    // Input coordinate of output o and kernel tap t in dim i, or -1 when outside the input.
    auto tap = [&](size_t i, int64_t o, int64_t t) -> int64_t {
      int64_t x;
      if (!transposed) {
        x = o * g.s[i] - g.p[i] + t * g.d[i];
      } else {
        const int64_t num = o + g.p[i] - t * g.d[i];
        if (num < 0 || num % g.s[i] != 0) return -1;
        x = num / g.s[i];
      }
      return x >= 0 && x < g.in[i] ? x : -1;
    };
    for (int64_t n = 0; n < g.n; ++n) {
      for (int64_t co = 0; co < g.c_out; ++co) {
        const int64_t grp = co / cog, col = co % cog;
        const C b = bias != nullptr ? cast<C>(bias->const_data_ptr<S>()[co]) : C(0);
        for (int64_t oz = 0; oz < g.out[0]; ++oz) {
          for (int64_t oy = 0; oy < g.out[1]; ++oy) {
            for (int64_t ox = 0; ox < g.out[2]; ++ox) {
              C acc = b;
              for (int64_t cil = 0; cil < cig; ++cil) {
                const int64_t ci = grp * cig + cil;
                const S* plane = pi + n * g.is[0] + ci * g.is[1];
                const S* wk = pw + (transposed ? ci * g.ws[0] + col * g.ws[1]
                                               : co * g.ws[0] + cil * g.ws[1]);
                for (int64_t kz = 0; kz < g.k[0]; ++kz) {
                  const int64_t iz = tap(0, oz, kz);
                  if (iz < 0) continue;
                  for (int64_t ky = 0; ky < g.k[1]; ++ky) {
                    const int64_t iy = tap(1, oy, ky);
                    if (iy < 0) continue;
                    for (int64_t kx = 0; kx < g.k[2]; ++kx) {
                      const int64_t ix = tap(2, ox, kx);
                      if (ix < 0) continue;
                      acc += cast<C>(plane[iz * g.is[2] + iy * g.is[3] + ix * g.is[4]]) *
                             cast<C>(wk[kz * g.ws[2] + ky * g.ws[3] + kx * g.ws[4]]);
                    }
                  }
                }
              }
              po[n * g.os[0] + co * g.os[1] + oz * g.os[2] + oy * g.os[3] + ox * g.os[4]] =
                  cast<S>(acc);
            }
          }
        }
      }
    }
  });
  if (!ok) fail_dtype(ctx, in, op, "input");
  return out;
}

}  // namespace ember::kernels::portable
