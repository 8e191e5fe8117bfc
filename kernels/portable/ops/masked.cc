// masked_select, masked_scatter, nonzero, repeat_interleave (declared in
// index.h): ops whose output size depends on the data. Positions are taken
// in logical row-major order; out is resized within its capacity.
#include <cstring>

#include "kernels/portable/ops/index.h"
#include "kernels/portable/util/cast.h"
#include "kernels/portable/util/copy.h"
#include "kernels/portable/util/dispatch.h"
#include "kernels/portable/util/loop.h"
#include "kernels/portable/util/tensor_util.h"

namespace ember::kernels::portable {

namespace {

using runtime::Error;

bool truthy(const Tensor& t, const int64_t* strides, int64_t i) {
  bool v = false;
  dispatch<kAll>(t.scalar_type(), [&](auto tag) {
    using S = typename decltype(tag)::type;
    const S x = t.const_data_ptr<S>()[offset_of(i, t.sizes().data(), strides, t.dim())];
    v = cast<bool>(x);
  });
  return v;
}

}  // namespace

Tensor& masked_select_out(KernelRuntimeContext& ctx, const Tensor& in, const Tensor& mask,
                          Tensor& out) {
  const char* op = "masked_select.out";
  if (mask.scalar_type() != ScalarType::Bool) {
    fail_dtype(ctx, mask, op, "mask (bool expected)");
    return out;
  }
  if (!check_dtype(ctx, out, in.scalar_type(), op, "out")) return out;
  Shape shape;
  if (!broadcast_shape(ctx, in.sizes(), mask.sizes(), &shape, op)) return out;
  int64_t is[kMaxTensorDims], ms[kMaxTensorDims];
  broadcast_strides(in, shape.dim, is);
  broadcast_strides(mask, shape.dim, ms);
  const bool* pm = mask.const_data_ptr<bool>();
  const int64_t n = shape_numel(shape.span());
  int64_t count = 0;
  for (int64_t i = 0; i < n; ++i) count += pm[offset_of(i, shape.sizes, ms, shape.dim)] ? 1 : 0;
  const SizesType size = static_cast<SizesType>(count);
  if (!resize_out(ctx, out, {&size, 1}, op)) return out;
  const size_t es = in.element_size();
  const char* pi = static_cast<const char*>(in.const_data_ptr());
  char* po = static_cast<char*>(out.mutable_data_ptr());
  int64_t j = 0;
  for (int64_t i = 0; i < n; ++i) {
    if (!pm[offset_of(i, shape.sizes, ms, shape.dim)]) continue;
    std::memcpy(po + (j++) * es, pi + offset_of(i, shape.sizes, is, shape.dim) * es, es);
  }
  return out;
}

Tensor& masked_scatter_out(KernelRuntimeContext& ctx, const Tensor& in, const Tensor& mask,
                           const Tensor& source, Tensor& out) {
  const char* op = "masked_scatter.out";
  if (mask.scalar_type() != ScalarType::Bool) {
    fail_dtype(ctx, mask, op, "mask (bool expected)");
    return out;
  }
  if (source.scalar_type() != in.scalar_type() ||
      !check_dtype(ctx, out, in.scalar_type(), op, "out")) {
    if (source.scalar_type() != in.scalar_type()) fail_dtype(ctx, source, op, "source");
    return out;
  }
  Shape shape;
  if (!broadcast_shape(ctx, in.sizes(), mask.sizes(), &shape, op)) return out;
  if (!resize_out(ctx, out, shape.span(), op)) return out;
  copy_into(in, out);
  int64_t ms[kMaxTensorDims], os[kMaxTensorDims], ss[kMaxTensorDims];
  broadcast_strides(mask, shape.dim, ms);
  tensor_strides(out, os);
  tensor_strides(source, ss);
  const bool* pm = mask.const_data_ptr<bool>();
  const size_t es = in.element_size();
  const char* ps = static_cast<const char*>(source.const_data_ptr());
  char* po = static_cast<char*>(out.mutable_data_ptr());
  const int64_t n = shape_numel(shape.span());
  int64_t j = 0;
  for (int64_t i = 0; i < n; ++i) {
    if (!pm[offset_of(i, shape.sizes, ms, shape.dim)]) continue;
    if (j >= int64_t(source.numel())) {
      ctx.fail(Error::InvalidArgument, "%s: source has %zu elements, the mask selects more", op,
               source.numel());
      return out;
    }
    std::memcpy(po + offset_of(i, shape.sizes, os, shape.dim) * es,
                ps + offset_of(j, source.sizes().data(), ss, source.dim()) * es, es);
    ++j;
  }
  return out;
}

Tensor& nonzero_out(KernelRuntimeContext& ctx, const Tensor& in, Tensor& out) {
  const char* op = "nonzero.out";
  if (!check_dtype(ctx, out, ScalarType::Long, op, "out") || !check_rank(ctx, out, 2, op, "out")) {
    return out;
  }
  int64_t is[kMaxTensorDims];
  tensor_strides(in, is);
  int64_t count = 0;
  const int64_t n = int64_t(in.numel());
  for (int64_t i = 0; i < n; ++i) count += truthy(in, is, i) ? 1 : 0;
  const SizesType shape[2] = {static_cast<SizesType>(count), static_cast<SizesType>(in.dim())};
  if (!resize_out(ctx, out, {shape, 2}, op)) return out;
  int64_t* po = out.mutable_data_ptr<int64_t>();
  const int64_t r0 = out.strides()[0], r1 = out.strides()[1];
  int64_t j = 0;
  for (int64_t i = 0; i < n; ++i) {
    if (!truthy(in, is, i)) continue;
    int64_t rest = i;
    for (size_t d = in.dim(); d-- > 0;) {
      po[j * r0 + int64_t(d) * r1] = rest % in.size(d);
      rest /= in.size(d);
    }
    ++j;
  }
  return out;
}

Tensor& repeat_interleave_tensor_out(KernelRuntimeContext& ctx, const Tensor& repeats,
                                     std::optional<int64_t> output_size, Tensor& out) {
  const char* op = "repeat_interleave.Tensor_out";
  if (repeats.dim() > 1 ||
      (repeats.scalar_type() != ScalarType::Long && repeats.scalar_type() != ScalarType::Int)) {
    ctx.fail(Error::InvalidArgument, "%s: repeats must be a 0-D or 1-D int tensor", op);
    return out;
  }
  if (!check_dtype(ctx, out, repeats.scalar_type(), op, "out")) return out;
  const int64_t rs = repeats.dim() == 0 ? 0 : repeats.strides()[0];
  auto at = [&](int64_t i) {
    return repeats.scalar_type() == ScalarType::Long ? repeats.const_data_ptr<int64_t>()[i * rs]
                                                     : int64_t(repeats.const_data_ptr<int32_t>()[i * rs]);
  };
  int64_t total = 0;
  for (int64_t i = 0; i < int64_t(repeats.numel()); ++i) {
    if (at(i) < 0) {
      ctx.fail(Error::InvalidArgument, "%s: repeats must be non-negative", op);
      return out;
    }
    total += at(i);
  }
  if (output_size.has_value() && *output_size != total) {
    ctx.fail(Error::InvalidArgument, "%s: output_size %lld doesn't match the repeats' sum %lld",
             op, static_cast<long long>(*output_size), static_cast<long long>(total));
    return out;
  }
  const SizesType size = static_cast<SizesType>(total);
  if (!resize_out(ctx, out, {&size, 1}, op)) return out;
  int64_t j = 0;
  for (int64_t i = 0; i < int64_t(repeats.numel()); ++i) {
    for (int64_t r = 0; r < at(i); ++r, ++j) {
      if (out.scalar_type() == ScalarType::Long) {
        out.mutable_data_ptr<int64_t>()[j] = i;
      } else {
        out.mutable_data_ptr<int32_t>()[j] = static_cast<int32_t>(i);
      }
    }
  }
  return out;
}

}  // namespace ember::kernels::portable
