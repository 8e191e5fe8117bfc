// mylib::scaled_add.out (see scaled_add_kernel.h).
#include "examples/custom_op/scaled_add_kernel.h"

#include "kernels/portable/util/boxing.h"

namespace mylib {

using ember::runtime::Error;
using ember::runtime::ScalarType;
using ember::runtime::scalar_type_name;

Tensor& scaled_add_out(KernelRuntimeContext& ctx, const Tensor& a, const Tensor& b, double alpha,
                       Tensor& out) {
  for (const Tensor* t : {&a, &b, static_cast<const Tensor*>(&out)}) {
    if (t->scalar_type() != ScalarType::Float) {
      ctx.fail(Error::InvalidArgument, "mylib::scaled_add.out: float32 tensors only, got %s",
               scalar_type_name(t->scalar_type()));
      return out;
    }
  }
  bool same = a.dim() == b.dim();
  for (size_t d = 0; same && d < a.dim(); ++d) same = a.size(d) == b.size(d);
  if (!same) {
    ctx.fail(Error::InvalidArgument, "mylib::scaled_add.out: a and b differ in shape");
    return out;
  }
  if (out.resize(a.sizes()) != Error::Ok) {
    ctx.fail(Error::InvalidArgument, "mylib::scaled_add.out: out cannot take a's shape");
    return out;
  }
  const float* pa = a.const_data_ptr<float>();
  const float* pb = b.const_data_ptr<float>();
  float* po = out.mutable_data_ptr<float>();
  const float s = static_cast<float>(alpha);
  for (size_t i = 0; i < a.numel(); ++i) po[i] = pa[i] + s * pb[i];
  return out;
}

ember::runtime::Error register_kernels(ember::runtime::KernelRegistry& registry) {
  // boxed<> adapts the typed function to the registry's boxed ABI (arguments in schema order,
  // then the return slot), checking the argument count and each argument's tag.
  return registry.register_kernel(
      {"mylib::scaled_add.out", ember::kernels::portable::boxed<&scaled_add_out>});
}

}  // namespace mylib
