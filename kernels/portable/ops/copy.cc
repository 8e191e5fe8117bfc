// Copy and factory kernels; see copy.h.
#include "kernels/portable/ops/copy.h"

#include <cmath>

#include "kernels/portable/util/cast.h"
#include "kernels/portable/util/copy.h"
#include "kernels/portable/util/dispatch.h"
#include "kernels/portable/util/tensor_util.h"

namespace ember::kernels::portable {

namespace {

using runtime::Error;

Tensor& copy_like(KernelRuntimeContext& ctx, const Tensor& in, Tensor& out, const char* op) {
  if (!resize_like(ctx, out, in, op)) return out;
  if (!copy_into(in, out)) fail_dtype(ctx, in, op, "copy");
  return out;
}

bool check_dim_order_arg(KernelRuntimeContext& ctx, OptIntList dim_order, const Tensor& out,
                         const char* op) {
  if (!dim_order.has_value()) return true;
  bool same = dim_order->size() == out.dim();
  for (size_t i = 0; same && i < out.dim(); ++i) same = (*dim_order)[i] == out.dim_order()[i];
  if (!same) {
    ctx.fail(Error::InvalidArgument, "%s: dim_order argument does not match out's dim order", op);
  }
  return same;
}

bool check_fits(KernelRuntimeContext& ctx, const Tensor& out, const Scalar& v, const char* op) {
  if (scalar_fits(out.scalar_type(), v)) return true;
  ctx.fail(Error::InvalidArgument, "%s: value cannot be converted to %s without overflow", op,
           runtime::scalar_type_name(out.scalar_type()));
  return false;
}

bool shape_from_list(KernelRuntimeContext& ctx, IntList size, Shape* shape, const char* op) {
  if (size.size() > kMaxTensorDims) {
    ctx.fail(Error::InvalidArgument, "%s: %zu dims exceed the maximum of %zu", op, size.size(),
             kMaxTensorDims);
    return false;
  }
  for (int64_t s : size) {
    if (s < 0) {
      ctx.fail(Error::InvalidArgument, "%s: negative size %lld", op, static_cast<long long>(s));
      return false;
    }
    shape->push(s);
  }
  return true;
}

Tensor& full_impl(KernelRuntimeContext& ctx, IntList size, const Scalar& value, Tensor& out,
                  const char* op) {
  Shape shape;
  if (!shape_from_list(ctx, size, &shape, op)) return out;
  if (!check_fits(ctx, out, value, op)) return out;
  if (!resize_out(ctx, out, shape.span(), op)) return out;
  fill_scalar(out, value);
  return out;
}

}  // namespace

Tensor& clone_out(KernelRuntimeContext& ctx, const Tensor& in, OptInt, Tensor& out) {
  return copy_like(ctx, in, out, "clone.out");
}

Tensor& to_copy_out(KernelRuntimeContext& ctx, const Tensor& in, bool, OptInt, Tensor& out) {
  return copy_like(ctx, in, out, "_to_copy.out");
}

Tensor& to_dim_order_copy_out(KernelRuntimeContext& ctx, const Tensor& in, bool,
                              OptIntList dim_order, Tensor& out) {
  const char* op = "_to_dim_order_copy.out";
  if (!check_dim_order_arg(ctx, dim_order, out, op)) return out;
  return copy_like(ctx, in, out, op);
}

Tensor& clone_dim_order_out(KernelRuntimeContext& ctx, const Tensor& in, bool,
                            OptIntList dim_order, Tensor& out) {
  const char* op = "_clone_dim_order.out";
  if (!check_dim_order_arg(ctx, dim_order, out, op)) return out;
  if (!check_dtype(ctx, out, in.scalar_type(), op, "out")) return out;
  return copy_like(ctx, in, out, op);
}

Tensor& empty_dim_order_out(KernelRuntimeContext& ctx, IntList size, OptIntList dim_order,
                            Tensor& out) {
  const char* op = "_empty_dim_order.out";
  if (!check_dim_order_arg(ctx, dim_order, out, op)) return out;
  Shape shape;
  if (!shape_from_list(ctx, size, &shape, op)) return out;
  resize_out(ctx, out, shape.span(), op);
  return out;
}

Tensor& copy_out(KernelRuntimeContext& ctx, const Tensor& in, const Tensor& src, bool,
                 Tensor& out) {
  const char* op = "copy.out";
  Shape shape;
  if (!broadcast_shape(ctx, in.sizes(), src.sizes(), &shape, op)) return out;
  if (shape.dim != in.dim() || shape_numel(shape.span()) != int64_t(in.numel())) {
    ctx.fail(Error::InvalidArgument, "copy.out: src doesn't broadcast to self's shape");
    return out;
  }
  if (!resize_like(ctx, out, in, op)) return out;
  if (!copy_into(src, out)) fail_dtype(ctx, src, op, "src");
  return out;
}

Tensor& copy_inplace(KernelRuntimeContext& ctx, Tensor& self, const Tensor& src, bool) {
  Shape shape;
  if (!broadcast_shape(ctx, self.sizes(), src.sizes(), &shape, "copy_")) return self;
  if (shape.dim != self.dim() || shape_numel(shape.span()) != int64_t(self.numel())) {
    ctx.fail(Error::InvalidArgument, "copy_: src doesn't broadcast to self's shape");
    return self;
  }
  if (!copy_into(src, self)) fail_dtype(ctx, src, "copy_", "src");
  return self;
}

Tensor& plain_copy_out(KernelRuntimeContext& ctx, const Tensor& in, Tensor& out) {
  if (!check_dtype(ctx, out, in.scalar_type(), "copy", "out")) return out;
  return copy_like(ctx, in, out, "copy");
}

Tensor& fill_scalar_out(KernelRuntimeContext& ctx, const Tensor& in, const Scalar& value,
                        Tensor& out) {
  if (!check_dtype(ctx, out, in.scalar_type(), "fill.Scalar_out", "out")) return out;
  if (!check_fits(ctx, out, value, "fill.Scalar_out")) return out;
  if (!resize_like(ctx, out, in, "fill.Scalar_out")) return out;
  fill_scalar(out, value);
  return out;
}

Tensor& fill_tensor_out(KernelRuntimeContext& ctx, const Tensor& in, const Tensor& value,
                        Tensor& out) {
  const char* op = "fill.Tensor_out";
  if (value.dim() != 0) {
    ctx.fail(Error::InvalidArgument, "%s: value must be a 0-dim tensor, got %zu dims", op,
             value.dim());
    return out;
  }
  if (!check_dtype(ctx, out, in.scalar_type(), op, "out")) return out;
  if (!resize_like(ctx, out, in, op)) return out;
  if (!copy_into(value, out)) fail_dtype(ctx, value, op, "value");
  return out;
}

Tensor& full_out(KernelRuntimeContext& ctx, IntList size, const Scalar& value, Tensor& out) {
  return full_impl(ctx, size, value, out, "full.out");
}

Tensor& full_like_out(KernelRuntimeContext& ctx, const Tensor& in, const Scalar& value, OptInt,
                      Tensor& out) {
  if (!check_fits(ctx, out, value, "full_like.out")) return out;
  if (!resize_like(ctx, out, in, "full_like.out")) return out;
  fill_scalar(out, value);
  return out;
}

Tensor& zeros_out(KernelRuntimeContext& ctx, IntList size, Tensor& out) {
  return full_impl(ctx, size, Scalar(int64_t(0)), out, "zeros.out");
}

Tensor& ones_out(KernelRuntimeContext& ctx, IntList size, Tensor& out) {
  return full_impl(ctx, size, Scalar(int64_t(1)), out, "ones.out");
}

Tensor& empty_out(KernelRuntimeContext& ctx, IntList size, OptInt, Tensor& out) {
  Shape shape;
  if (!shape_from_list(ctx, size, &shape, "empty.out")) return out;
  resize_out(ctx, out, shape.span(), "empty.out");
  return out;
}

Tensor& empty_strided_out(KernelRuntimeContext& ctx, IntList size, IntList stride, Tensor& out) {
  const char* op = "empty_strided.out";
  if (stride.size() != size.size()) {
    ctx.fail(Error::InvalidArgument, "%s: %zu sizes but %zu strides", op, size.size(),
             stride.size());
    return out;
  }
  Shape shape;
  if (!shape_from_list(ctx, size, &shape, op)) return out;
  resize_out(ctx, out, shape.span(), op);
  return out;
}

Tensor& scalar_tensor_out(KernelRuntimeContext& ctx, const Scalar& value, Tensor& out) {
  if (!check_fits(ctx, out, value, "scalar_tensor.out")) return out;
  if (!resize_out(ctx, out, {}, "scalar_tensor.out")) return out;
  fill_scalar(out, value);
  return out;
}

Tensor& arange_start_out(KernelRuntimeContext& ctx, const Scalar& start, const Scalar& end,
                         const Scalar& step, Tensor& out) {
  const char* op = "arange.start_out";
  const double s = start.to_double(), e = end.to_double(), st = step.to_double();
  if (st == 0 || std::isnan(s) || std::isnan(e) || std::isinf(s) || std::isinf(e) ||
      (st > 0 && e < s) || (st < 0 && e > s)) {
    ctx.fail(Error::InvalidArgument, "%s: invalid range start %g end %g step %g", op, s, e, st);
    return out;
  }
  const bool integral = start.is_integral() && end.is_integral() && step.is_integral();
  const double n = integral ? std::ceil(double(end.to_int() - start.to_int()) / double(step.to_int()))
                            : std::ceil((e - s) / st);
  if (out.dim() != 1 || n > 2147483647.0) {
    ctx.fail(Error::InvalidArgument, "%s: out must be 1-D and the range small enough", op);
    return out;
  }
  const SizesType size = static_cast<SizesType>(n);
  if (!resize_out(ctx, out, {&size, 1}, op)) return out;
  const bool ok = dispatch<kReal>(out.scalar_type(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* p = out.mutable_data_ptr<T>();
    for (SizesType i = 0; i < size; ++i) {
      if constexpr (is_float_v<T>) {
        p[i] = cast<T>(s + st * double(i));
      } else {
        p[i] = cast<T>(integral ? start.to_int() + step.to_int() * int64_t(i) : s + st * double(i));
      }
    }
  });
  if (!ok) fail_dtype(ctx, out, op, "out");
  return out;
}

Tensor& arange_out(KernelRuntimeContext& ctx, const Scalar& end, Tensor& out) {
  return arange_start_out(ctx, Scalar(int64_t(0)), end, Scalar(int64_t(1)), out);
}

}  // namespace ember::kernels::portable
