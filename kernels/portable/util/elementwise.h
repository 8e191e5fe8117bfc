// Elementwise templates: map_unary, map_binary and map_ternary apply a lambda
// to every element of broadcast inputs and store into `out` (already resized to
// the result shape), in out's memory order, with any dim orders. When the
// operands have the storage types the caller names, the loop is typed (flat or
// with a broadcast scalar operand: tight loops the compiler vectorises);
// otherwise elements go through type-erased loaders/storers (mixed dtypes).
#pragma once

#include <cstdint>

#include "kernels/portable/util/cast.h"
#include "kernels/portable/util/loop.h"
#include "kernels/portable/util/tensor_util.h"

namespace ember::kernels::portable {

namespace detail {

template <size_t N>
StridedLoop<N> make_loop(Tensor& out, const Tensor* const* ins) {
  int64_t strides[N][kMaxTensorDims];
  tensor_strides(out, strides[0]);
  for (size_t k = 1; k < N; ++k) broadcast_strides(*ins[k - 1], out.dim(), strides[k]);
  return StridedLoop<N>(out.sizes().data(), out.dim_order().data(), out.dim(), strides);
}

// How an operand lines up with `out` without a strided loop: Flat (same sizes and
// memory order: element i is element i), Single (one element, broadcast to all), or
// Strided (anything else). Tiny tensors take the first two without any loop setup.
enum class Fit { Flat, Single, Strided };
// An operand that broadcasts to out with out's numel differs from it only by size-1 dims, so
// when both are row-major its element i is out's element i too ([10] against [1, 10]).
inline Fit fit_of(const Tensor& t, const Tensor& out) {
  if (t.numel() == 1) return Fit::Single;
  if (same_layout(t, out)) return Fit::Flat;
  return t.numel() == out.numel() && is_row_major(t) && is_row_major(out)
             ? Fit::Flat
             : Fit::Strided;
}

}  // namespace detail

// out[i] = f(CT(in[i])). Typed loop when in is Sin and out is Sout.
template <typename CT, typename Sin, typename Sout, typename F>
void map_unary(const Tensor& in, Tensor& out, F f) {
  if (in.scalar_type() == dtype_of<Sin>() && out.scalar_type() == dtype_of<Sout>() &&
      detail::fit_of(in, out) == detail::Fit::Flat) {
    Sout* o = out.mutable_data_ptr<Sout>();
    const Sin* a = in.const_data_ptr<Sin>();
    const int64_t n = int64_t(out.numel());
    for (int64_t i = 0; i < n; ++i) o[i] = cast<Sout>(f(cast<CT>(a[i])));
    return;
  }
  const Tensor* ins[1] = {&in};
  const StridedLoop<2> loop = detail::make_loop<2>(out, ins);
  if (in.scalar_type() == dtype_of<Sin>() && out.scalar_type() == dtype_of<Sout>()) {
    Sout* po = out.mutable_data_ptr<Sout>();
    const Sin* pi = in.const_data_ptr<Sin>();
    loop.run([&](const int64_t* off, int64_t n, const int64_t* s) {
      Sout* o = po + off[0];
      const Sin* a = pi + off[1];
      if (s[0] == 1 && s[1] == 1) {
        for (int64_t i = 0; i < n; ++i) o[i] = cast<Sout>(f(cast<CT>(a[i])));
      } else {
        for (int64_t i = 0; i < n; ++i) o[i * s[0]] = cast<Sout>(f(cast<CT>(a[i * s[1]])));
      }
    });
    return;
  }
  using R = decltype(f(CT()));
  const LoadFn<CT> load = loader<CT>(in.scalar_type());
  const StoreFn<R> store = storer<R>(out.scalar_type());
  if (load == nullptr || store == nullptr) return;  // callers check dtypes first
  void* po = out.mutable_data_ptr();
  const void* pi = in.const_data_ptr();
  loop.run([&](const int64_t* off, int64_t n, const int64_t* s) {
    for (int64_t i = 0; i < n; ++i) store(po, off[0] + i * s[0], f(load(pi, off[1] + i * s[1])));
  });
}

// out[i] = f(CT(a[i]), CT(b[i])) with broadcasting. Typed loop when a and b
// are S and out is So.
template <typename CT, typename S, typename So, typename F>
void map_binary(const Tensor& a, const Tensor& b, Tensor& out, F f) {
  if (a.scalar_type() == dtype_of<S>() && b.scalar_type() == dtype_of<S>() &&
      out.scalar_type() == dtype_of<So>()) {
    // Same-layout or single-element operands: one flat loop, no strided-loop setup.
    const detail::Fit fa = detail::fit_of(a, out), fb = detail::fit_of(b, out);
    if (fa != detail::Fit::Strided && fb != detail::Fit::Strided) {
      So* o = out.mutable_data_ptr<So>();
      const S* x = a.const_data_ptr<S>();
      const S* y = b.const_data_ptr<S>();
      const int64_t n = int64_t(out.numel());
      if (fa == detail::Fit::Flat && fb == detail::Fit::Flat) {
        for (int64_t i = 0; i < n; ++i) o[i] = cast<So>(f(cast<CT>(x[i]), cast<CT>(y[i])));
      } else if (fa == detail::Fit::Flat) {
        const CT yv = cast<CT>(y[0]);
        for (int64_t i = 0; i < n; ++i) o[i] = cast<So>(f(cast<CT>(x[i]), yv));
      } else if (fb == detail::Fit::Flat) {
        const CT xv = cast<CT>(x[0]);
        for (int64_t i = 0; i < n; ++i) o[i] = cast<So>(f(xv, cast<CT>(y[i])));
      } else {
        const So v = cast<So>(f(cast<CT>(x[0]), cast<CT>(y[0])));
        for (int64_t i = 0; i < n; ++i) o[i] = v;
      }
      return;
    }
  }
  const Tensor* ins[2] = {&a, &b};
  const StridedLoop<3> loop = detail::make_loop<3>(out, ins);
  if (a.scalar_type() == dtype_of<S>() && b.scalar_type() == dtype_of<S>() &&
      out.scalar_type() == dtype_of<So>()) {
    So* po = out.mutable_data_ptr<So>();
    const S* pa = a.const_data_ptr<S>();
    const S* pb = b.const_data_ptr<S>();
    loop.run([&](const int64_t* off, int64_t n, const int64_t* s) {
      So* o = po + off[0];
      const S* x = pa + off[1];
      const S* y = pb + off[2];
      if (s[0] == 1 && s[1] == 1 && s[2] == 1) {
        for (int64_t i = 0; i < n; ++i) o[i] = cast<So>(f(cast<CT>(x[i]), cast<CT>(y[i])));
      } else if (s[0] == 1 && s[1] == 1 && s[2] == 0) {
        const CT yv = cast<CT>(y[0]);
        for (int64_t i = 0; i < n; ++i) o[i] = cast<So>(f(cast<CT>(x[i]), yv));
      } else if (s[0] == 1 && s[1] == 0 && s[2] == 1) {
        const CT xv = cast<CT>(x[0]);
        for (int64_t i = 0; i < n; ++i) o[i] = cast<So>(f(xv, cast<CT>(y[i])));
      } else {
        for (int64_t i = 0; i < n; ++i) {
          o[i * s[0]] = cast<So>(f(cast<CT>(x[i * s[1]]), cast<CT>(y[i * s[2]])));
        }
      }
    });
    return;
  }
  using R = decltype(f(CT(), CT()));
  const LoadFn<CT> la = loader<CT>(a.scalar_type());
  const LoadFn<CT> lb = loader<CT>(b.scalar_type());
  const StoreFn<R> store = storer<R>(out.scalar_type());
  if (la == nullptr || lb == nullptr || store == nullptr) return;
  void* po = out.mutable_data_ptr();
  const void* pa = a.const_data_ptr();
  const void* pb = b.const_data_ptr();
  loop.run([&](const int64_t* off, int64_t n, const int64_t* s) {
    for (int64_t i = 0; i < n; ++i) {
      store(po, off[0] + i * s[0], f(la(pa, off[1] + i * s[1]), lb(pb, off[2] + i * s[2])));
    }
  });
}

// out[i] = f(A(a[i]), CT(b[i]), CT(c[i])) with broadcasting, through loaders
// (used by where, clamp.Tensor and friends; A is the first operand's compute type).
template <typename A, typename CT, typename F>
void map_ternary(const Tensor& a, const Tensor& b, const Tensor& c, Tensor& out, F f) {
  const Tensor* ins[3] = {&a, &b, &c};
  const StridedLoop<4> loop = detail::make_loop<4>(out, ins);
  using R = decltype(f(A(), CT(), CT()));
  const LoadFn<A> la = loader<A>(a.scalar_type());
  const LoadFn<CT> lb = loader<CT>(b.scalar_type());
  const LoadFn<CT> lc = loader<CT>(c.scalar_type());
  const StoreFn<R> store = storer<R>(out.scalar_type());
  if (la == nullptr || lb == nullptr || lc == nullptr || store == nullptr) return;
  void* po = out.mutable_data_ptr();
  const void* pa = a.const_data_ptr();
  const void* pb = b.const_data_ptr();
  const void* pc = c.const_data_ptr();
  loop.run([&](const int64_t* off, int64_t n, const int64_t* s) {
    for (int64_t i = 0; i < n; ++i) {
      store(po, off[0] + i * s[0],
            f(la(pa, off[1] + i * s[1]), lb(pb, off[2] + i * s[2]), lc(pc, off[3] + i * s[3])));
    }
  });
}

}  // namespace ember::kernels::portable
