// The driver every broadcasting binary op shares: check the out dtype against
// the computed type, resize out to the broadcast shape, dispatch on the compute
// dtype and run map_binary with the op's lambda. `make(TypeTag<S>)` returns the
// per-element lambda for storage type S (computing in compute_t<S>), so scalar
// arguments are converted once. ScalarTensor turns a Scalar into a 0-dim
// tensor so the .Scalar overloads reuse the tensor path.
#pragma once

#include <cstddef>
#include <cstring>
#include <type_traits>

#include "kernels/portable/util/dispatch.h"
#include "kernels/portable/util/elementwise.h"
#include "kernels/portable/util/promote.h"
#include "kernels/portable/util/tensor_util.h"

namespace ember::kernels::portable {

// A 0-dim tensor holding a scalar converted to `type`.
class ScalarTensor {
 public:
  ScalarTensor(ScalarType type, const Scalar& value) {
    std::memset(storage_, 0, sizeof(storage_));
    dispatch<kAll>(type, [&](auto tag) {
      using T = typename decltype(tag)::type;
      T v;
      if (value.is_floating_point()) {
        v = cast<T>(value.to_double());
      } else if (value.is_boolean()) {
        v = cast<T>(value.to_bool());
      } else {
        v = cast<T>(value.to_int());
      }
      std::memcpy(storage_, &v, sizeof(T));
    });
    tensor_ = Tensor(type, 0, nullptr, nullptr, nullptr, storage_);
  }
  const Tensor& tensor() const { return tensor_; }

 private:
  alignas(8) unsigned char storage_[8];
  Tensor tensor_;
};

// Checks, resizes and runs `make`'s lambda over a and b computed in dtype
// `compute` (one of `families`), storing into out. The lambda's result is
// cast to out's dtype (So = S, or bool when `bool_result`). `fast(a, b, out)`, when
// given, is tried first once out is resized (an ISA path such as binary_f32_neon; it
// returns false, writing nothing, when it does not apply).
template <unsigned Families, bool kBoolResult = false, typename Make,
          typename Fast = std::nullptr_t>
Tensor& binary_op(KernelRuntimeContext& ctx, const Tensor& a, const Tensor& b, Tensor& out,
                  ScalarType compute, const char* op, Make make, Fast fast = nullptr) {
  if (!kBoolResult && !check_out_dtype(ctx, out, compute, op)) return out;
  Shape shape;
  if (!broadcast_shape(ctx, a.sizes(), b.sizes(), &shape, op)) return out;
  if (!resize_out(ctx, out, shape.span(), op)) return out;
  if constexpr (!std::is_same<Fast, std::nullptr_t>::value) {
    if (fast(a, b, out)) return out;
  }
  const bool ok = dispatch<Families>(compute, [&](auto tag) {
    using S = typename decltype(tag)::type;
    using So = std::conditional_t<kBoolResult, bool, S>;
    // A one-element operand of another dtype (hardswish's int64 constants 3 and 6 in
    // exported graphs) is converted once, as map_binary's loader would convert it, so
    // the loop stays typed and flat (float and double, where S is the compute type).
    if constexpr (std::is_same<S, compute_t<S>>::value && std::is_floating_point<S>::value) {
      const bool fix_a = a.numel() == 1 && a.scalar_type() != compute &&
                         b.scalar_type() == compute;
      const bool fix_b = b.numel() == 1 && b.scalar_type() != compute &&
                         a.scalar_type() == compute;
      if (fix_a || fix_b) {
        const Tensor& single = fix_a ? a : b;
        const LoadFn<S> load = loader<S>(single.scalar_type());
        if (load != nullptr) {
          S value = load(single.const_data_ptr(), 0);
          const Tensor converted(compute, 0, nullptr, nullptr, nullptr, &value);
          map_binary<S, S, So>(fix_a ? converted : a, fix_a ? b : converted, out, make(tag));
          return;
        }
      }
    }
    map_binary<compute_t<S>, S, So>(a, b, out, make(tag));
  });
  if (!ok) {
    ctx.fail(runtime::Error::InvalidType, "%s: unsupported dtype %s", op,
             runtime::scalar_type_name(compute));
  }
  return out;
}

}  // namespace ember::kernels::portable
