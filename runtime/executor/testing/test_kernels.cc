#include "runtime/executor/testing/test_kernels.h"

#include <cstdint>

namespace ember::testing {
namespace {

using runtime::EValue;
using runtime::Error;
using runtime::KernelRuntimeContext;
using runtime::ScalarType;
using runtime::Span;
using runtime::Tensor;

template <typename T, typename Op>
void binary_loop(const Tensor& a, const Tensor& b, Tensor& out, Op op) {
  const T* x = a.const_data_ptr<T>();
  const T* y = b.const_data_ptr<T>();
  T* z = out.mutable_data_ptr<T>();
  const size_t n = out.numel();
  const size_t sx = a.numel() == 1 ? 0 : 1, sy = b.numel() == 1 ? 0 : 1;
  for (size_t i = 0; i < n; ++i) z[i] = op(x[i * sx], y[i * sy]);
}

template <typename Op>
void binary(KernelRuntimeContext& ctx, Span<EValue*> args, size_t out_index, double alpha, Op op) {
  if (!args[0]->is_tensor() || !args[1]->is_tensor() || !args[out_index]->is_tensor()) {
    ctx.fail(Error::InvalidType);
    return;
  }
  const Tensor& a = args[0]->to_tensor();
  const Tensor& b = args[1]->to_tensor();
  Tensor& out = args[out_index]->to_tensor();
  const Tensor& big = a.numel() >= b.numel() ? a : b;
  const Tensor& small = a.numel() >= b.numel() ? b : a;
  if (a.scalar_type() != b.scalar_type() || a.scalar_type() != out.scalar_type() ||
      (small.numel() != 1 && small.numel() != big.numel())) {
    ctx.fail(Error::NotSupported, "test kernels: unsupported dtype or broadcast");
    return;
  }
  if (out.resize(big.sizes()) != Error::Ok) {
    ctx.fail(Error::InvalidArgument);
    return;
  }
  if (out.numel() > 0 && (a.const_data_ptr() == nullptr || b.const_data_ptr() == nullptr ||
                          out.mutable_data_ptr() == nullptr)) {
    ctx.fail(Error::InvalidState, "test kernels: tensor without data");
    return;
  }
  switch (out.scalar_type()) {
    case ScalarType::Float:
      binary_loop<float>(a, b, out, [&](float x, float y) { return op(x, float(alpha) * y); });
      return;
    case ScalarType::Double:
      binary_loop<double>(a, b, out, [&](double x, double y) { return op(x, alpha * y); });
      return;
    case ScalarType::Int:
      binary_loop<int32_t>(a, b, out, [&](int32_t x, int32_t y) { return op(x, int32_t(alpha) * y); });
      return;
    case ScalarType::Long:
      binary_loop<int64_t>(a, b, out, [&](int64_t x, int64_t y) { return op(x, int64_t(alpha) * y); });
      return;
    default: ctx.fail(Error::NotSupported, "test kernels: dtype");
  }
}

void add_out(KernelRuntimeContext& ctx, Span<EValue*> args) {
  if (args.size() != 5) return ctx.fail(Error::InvalidProgram);
  const double alpha = args[2]->is_scalar() ? args[2]->to_scalar().to_double() : 1.0;
  binary(ctx, args, 3, alpha, [](auto x, auto y) { return x + y; });
}

void mul_out(KernelRuntimeContext& ctx, Span<EValue*> args) {
  if (args.size() != 4) return ctx.fail(Error::InvalidProgram);
  binary(ctx, args, 2, 1.0, [](auto x, auto y) { return x * y; });
}

template <typename From>
double read(const void* p, size_t i) {
  return double(static_cast<const From*>(p)[i]);
}

double read_any(ScalarType t, const void* p, size_t i) {
  switch (t) {
    case ScalarType::Float: return read<float>(p, i);
    case ScalarType::Double: return read<double>(p, i);
    case ScalarType::Int: return read<int32_t>(p, i);
    case ScalarType::Long: return read<int64_t>(p, i);
    default: return 0;
  }
}

void write_any(ScalarType t, void* p, size_t i, double v) {
  switch (t) {
    case ScalarType::Float: static_cast<float*>(p)[i] = float(v); return;
    case ScalarType::Double: static_cast<double*>(p)[i] = v; return;
    case ScalarType::Int: static_cast<int32_t*>(p)[i] = int32_t(v); return;
    case ScalarType::Long: static_cast<int64_t*>(p)[i] = int64_t(v); return;
    default: return;
  }
}

bool convertible(ScalarType t) {
  return t == ScalarType::Float || t == ScalarType::Double || t == ScalarType::Int || t == ScalarType::Long;
}

// dim_order_ops::_to_dim_order_copy.out(self, *, non_blocking, dim_order, out) + return slot.
void to_dim_order_copy_out(KernelRuntimeContext& ctx, Span<EValue*> args) {
  if (args.size() != 5 || !args[0]->is_tensor() || !args[3]->is_tensor()) return ctx.fail(Error::InvalidProgram);
  const Tensor& in = args[0]->to_tensor();
  Tensor& out = args[3]->to_tensor();
  if (!convertible(in.scalar_type()) || !convertible(out.scalar_type()) || !in.is_contiguous_dim_order() ||
      !out.is_contiguous_dim_order()) {
    return ctx.fail(Error::NotSupported, "test kernels: _to_dim_order_copy dtype/layout");
  }
  if (out.resize(in.sizes()) != Error::Ok) return ctx.fail(Error::InvalidArgument);
  if (in.numel() > 0 && (in.const_data_ptr() == nullptr || out.mutable_data_ptr() == nullptr)) {
    return ctx.fail(Error::InvalidState, "test kernels: tensor without data");
  }
  for (size_t i = 0; i < in.numel(); ++i) {
    write_any(out.scalar_type(), out.mutable_data_ptr(), i, read_any(in.scalar_type(), in.const_data_ptr(), i));
  }
}

const runtime::Kernel kKernels[] = {
    {"aten::add.out", add_out},
    {"aten::mul.out", mul_out},
    {"dim_order_ops::_to_dim_order_copy.out", to_dim_order_copy_out},
};

}  // namespace

runtime::Error register_test_kernels(runtime::KernelRegistry& registry) {
  return registry.register_kernels(Span<const runtime::Kernel>(kKernels, 3));
}

}  // namespace ember::testing
