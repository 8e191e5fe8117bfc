// boxed<&fn>: the boxed OpFunction for an unboxed out-variant kernel
// `R fn(KernelRuntimeContext&, A...)`. It checks that the call has one value
// per schema argument plus the return slot, that each EValue has the tag its
// parameter needs (failing with InvalidType naming the argument otherwise),
// unboxes and calls fn. One template instead of a hand-written wrapper per op.
#pragma once

#include <optional>
#include <string_view>
#include <utility>

#include "runtime/core/evalue.h"
#include "runtime/kernel/kernel_registry.h"

namespace ember::kernels::portable {

using runtime::EValue;
using runtime::OptionalTensorList;
using runtime::Scalar;
using runtime::ScalarType;
using runtime::Tag;
using runtime::Tensor;
using runtime::TensorList;
using IntList = runtime::Span<const int64_t>;

// How a parameter type is read from an EValue: check() then get().
template <typename T>
struct ArgCast;

template <>
struct ArgCast<const Tensor&> {
  static bool check(const EValue& e) { return e.is_tensor(); }
  static const Tensor& get(const EValue& e) { return e.to_tensor(); }
};
template <>
struct ArgCast<Tensor&> {
  static bool check(const EValue& e) { return e.is_tensor(); }
  static Tensor& get(const EValue& e) { return e.to_tensor(); }
};
// Optional tensor: None -> nullptr.
template <>
struct ArgCast<const Tensor*> {
  static bool check(const EValue& e) { return e.is_tensor() || e.is_none(); }
  static const Tensor* get(const EValue& e) { return e.to_optional_tensor(); }
};
template <>
struct ArgCast<const Scalar&> {
  static bool check(const EValue& e) { return e.is_scalar(); }
  static Scalar get(const EValue& e) { return e.to_scalar(); }
};
template <>
struct ArgCast<Scalar> : ArgCast<const Scalar&> {};
template <>
struct ArgCast<int64_t> {
  static bool check(const EValue& e) { return e.is_int(); }
  static int64_t get(const EValue& e) { return e.to_int(); }
};
template <>
struct ArgCast<double> {
  static bool check(const EValue& e) { return e.is_double() || e.is_int(); }
  static double get(const EValue& e) { return e.is_int() ? double(e.to_int()) : e.to_double(); }
};
template <>
struct ArgCast<bool> {
  static bool check(const EValue& e) { return e.is_bool(); }
  static bool get(const EValue& e) { return e.to_bool(); }
};
template <>
struct ArgCast<ScalarType> {
  static bool check(const EValue& e) { return e.is_int(); }
  static ScalarType get(const EValue& e) { return static_cast<ScalarType>(e.to_int()); }
};
template <>
struct ArgCast<IntList> {
  static bool check(const EValue& e) { return e.is_int_list(); }
  static IntList get(const EValue& e) { return e.to_int_list(); }
};
template <>
struct ArgCast<runtime::Span<const double>> {
  static bool check(const EValue& e) { return e.is_double_list(); }
  static runtime::Span<const double> get(const EValue& e) { return e.to_double_list(); }
};
template <>
struct ArgCast<TensorList> {
  static bool check(const EValue& e) { return e.is_tensor_list(); }
  static TensorList get(const EValue& e) { return e.to_tensor_list(); }
};
template <>
struct ArgCast<OptionalTensorList> {
  static bool check(const EValue& e) { return e.is_optional_tensor_list(); }
  static OptionalTensorList get(const EValue& e) { return e.to_optional_tensor_list(); }
};
template <>
struct ArgCast<std::string_view> {
  static bool check(const EValue& e) { return e.is_string(); }
  static std::string_view get(const EValue& e) { return e.to_string(); }
};
// Optional<T>: None -> nullopt, otherwise as T.
template <typename T>
struct ArgCast<std::optional<T>> {
  static bool check(const EValue& e) { return e.is_none() || ArgCast<T>::check(e); }
  static std::optional<T> get(const EValue& e) {
    if (e.is_none()) return std::nullopt;
    return ArgCast<T>::get(e);
  }
};
namespace detail {

template <typename Sig>
struct FnArgs;
template <typename R, typename... A>
struct FnArgs<R (*)(runtime::KernelRuntimeContext&, A...)> {
  static constexpr size_t kCount = sizeof...(A);
  template <auto Fn, size_t... I>
  static void call(runtime::KernelRuntimeContext& ctx, runtime::Span<EValue*> args,
                   std::index_sequence<I...>) {
    if (args.size() != kCount + 1) {
      ctx.fail(runtime::Error::InvalidArgument,
               "kernel expects %zu arguments plus the return slot, got %zu values", kCount,
               args.size());
      return;
    }
    size_t bad = kCount;
    ((bad == kCount && !ArgCast<A>::check(*args[I]) ? (bad = I, 0) : 0), ...);
    if (bad != kCount) {
      ctx.fail(runtime::Error::InvalidType, "kernel argument %zu has the wrong tag %s", bad,
               runtime::tag_name(args[bad]->tag()));
      return;
    }
    Fn(ctx, ArgCast<A>::get(*args[I])...);
  }
};

}  // namespace detail

template <auto Fn>
void boxed(runtime::KernelRuntimeContext& ctx, runtime::Span<EValue*> args) {
  using Traits = detail::FnArgs<decltype(Fn)>;
  Traits::template call<Fn>(ctx, args, std::make_index_sequence<Traits::kCount>{});
}

}  // namespace ember::kernels::portable
