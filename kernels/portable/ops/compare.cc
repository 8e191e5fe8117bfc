// Comparison, logical and bitwise kernels; see compare.h.
#include "kernels/portable/ops/compare.h"

#include "kernels/portable/util/binary.h"
#include "kernels/portable/util/math.h"

namespace ember::kernels::portable {

namespace {

template <typename F>
Tensor& compare_op(KernelRuntimeContext& ctx, const Tensor& a, const Tensor& b, ScalarType common,
                   Tensor& out, const char* op, F f) {
  return binary_op<kAll, true>(ctx, a, b, out, common, op, [&](auto tag) {
    using C = compute_t<typename decltype(tag)::type>;
    return [f](C x, C y) -> bool { return f(x, y); };
  });
}

template <typename F>
Tensor& bitwise_op(KernelRuntimeContext& ctx, const Tensor& a, const Tensor& b, ScalarType common,
                   Tensor& out, const char* op, F f) {
  return binary_op<kInts | kBool>(ctx, a, b, out, common, op, [&](auto tag) {
    using C = compute_t<typename decltype(tag)::type>;
    return [f](C x, C y) -> C { return static_cast<C>(f(x, y)); };
  });
}

template <typename F>
Tensor& logical_op(KernelRuntimeContext& ctx, const Tensor& a, const Tensor& b, Tensor& out,
                   const char* op, F f) {
  // Inputs load as bool ("!= 0"), whatever their dtype.
  Shape shape;
  if (!broadcast_shape(ctx, a.sizes(), b.sizes(), &shape, op)) return out;
  if (!resize_out(ctx, out, shape.span(), op)) return out;
  map_binary<bool, bool, bool>(a, b, out, [f](bool x, bool y) -> bool { return f(x, y); });
  return out;
}

}  // namespace

#define EMBER_COMPARE_(name, expr)                                                           \
  Tensor& name##_tensor_out(KernelRuntimeContext& ctx, const Tensor& a, const Tensor& b,     \
                            Tensor& out) {                                                   \
    return compare_op(ctx, a, b, result_type(a, b), out, #name ".Tensor_out",                \
                      [](auto x, auto y) { return expr; });                                  \
  }                                                                                          \
  Tensor& name##_scalar_out(KernelRuntimeContext& ctx, const Tensor& a, const Scalar& b,     \
                            Tensor& out) {                                                   \
    const ScalarType common = result_type(a, b);                                             \
    ScalarTensor s(common, b);                                                               \
    return compare_op(ctx, a, s.tensor(), common, out, #name ".Scalar_out",                  \
                      [](auto x, auto y) { return expr; });                                  \
  }
EMBER_COMPARE_(eq, x == y)
EMBER_COMPARE_(ne, x != y)
EMBER_COMPARE_(lt, x < y)
EMBER_COMPARE_(le, x <= y)
EMBER_COMPARE_(gt, x > y)
EMBER_COMPARE_(ge, x >= y)
#undef EMBER_COMPARE_

#define EMBER_BITWISE_(name, expr)                                                           \
  Tensor& name##_tensor_out(KernelRuntimeContext& ctx, const Tensor& a, const Tensor& b,     \
                            Tensor& out) {                                                   \
    return bitwise_op(ctx, a, b, result_type(a, b), out, #name ".Tensor_out",                \
                      [](auto x, auto y) { return expr; });                                  \
  }                                                                                          \
  Tensor& name##_scalar_out(KernelRuntimeContext& ctx, const Tensor& a, const Scalar& b,     \
                            Tensor& out) {                                                   \
    const ScalarType common = result_type(a, b);                                             \
    ScalarTensor s(common, b);                                                               \
    return bitwise_op(ctx, a, s.tensor(), common, out, #name ".Scalar_out",                  \
                      [](auto x, auto y) { return expr; });                                  \
  }
EMBER_BITWISE_(bitwise_and, x & y)
EMBER_BITWISE_(bitwise_or, x | y)
EMBER_BITWISE_(bitwise_xor, x ^ y)
EMBER_BITWISE_(bitwise_left_shift, shift_left(x, y))
EMBER_BITWISE_(bitwise_right_shift, shift_right(x, y))
#undef EMBER_BITWISE_

Tensor& logical_and_out(KernelRuntimeContext& ctx, const Tensor& a, const Tensor& b, Tensor& out) {
  return logical_op(ctx, a, b, out, "logical_and.out", [](bool x, bool y) { return x && y; });
}
Tensor& logical_or_out(KernelRuntimeContext& ctx, const Tensor& a, const Tensor& b, Tensor& out) {
  return logical_op(ctx, a, b, out, "logical_or.out", [](bool x, bool y) { return x || y; });
}
Tensor& logical_xor_out(KernelRuntimeContext& ctx, const Tensor& a, const Tensor& b, Tensor& out) {
  return logical_op(ctx, a, b, out, "logical_xor.out", [](bool x, bool y) { return x != y; });
}

}  // namespace ember::kernels::portable
