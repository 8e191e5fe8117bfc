#include "runtime/kernel/prim_ops/prim_tensor_ops.h"

#include <cstring>

#include "runtime/core/half.h"

namespace ember::runtime {
namespace {

bool expect(KernelRuntimeContext& ctx, bool ok, const char* op, const char* what) {
  if (!ok) ctx.fail(Error::InvalidArgument, "%s: %s", op, what);
  return ok;
}

void store_int(EValue* out, int64_t v) {
  if (out->is_double()) {
    *out = EValue(double(v));
  } else {
    *out = EValue(v);
  }
}

}  // namespace

void sym_size(KernelRuntimeContext& ctx, Span<EValue*> args) {
  const char* op = "aten::sym_size.int";
  if (!expect(ctx, args.size() == 3 && args[0]->is_tensor() && args[1]->is_int(), op,
              "expects (Tensor, int) and a return slot")) {
    return;
  }
  const Tensor& t = args[0]->to_tensor();
  int64_t dim = args[1]->to_int();
  if (dim < 0) dim += int64_t(t.dim());
  if (!expect(ctx, dim >= 0 && size_t(dim) < t.dim(), op, "dim out of range")) return;
  store_int(args[2], t.size(size_t(dim)));
}

void sym_numel(KernelRuntimeContext& ctx, Span<EValue*> args) {
  if (!expect(ctx, args.size() == 2 && args[0]->is_tensor(), "aten::sym_numel",
              "expects (Tensor) and a return slot")) {
    return;
  }
  store_int(args[1], int64_t(args[0]->to_tensor().numel()));
}

void local_scalar_dense(KernelRuntimeContext& ctx, Span<EValue*> args) {
  const char* op = "aten::_local_scalar_dense";
  if (!expect(ctx, args.size() == 2 && args[0]->is_tensor(), op, "expects (Tensor) and a return slot")) return;
  const Tensor& t = args[0]->to_tensor();
  if (!expect(ctx, t.numel() == 1 && t.const_data_ptr() != nullptr, op, "tensor must hold one element")) return;
  const void* p = t.const_data_ptr();
  double d = 0;
  int64_t i = 0;
  bool is_float = true;
  switch (t.scalar_type()) {
    case ScalarType::Float: d = *static_cast<const float*>(p); break;
    case ScalarType::Double: d = *static_cast<const double*>(p); break;
    case ScalarType::Half: d = float(*static_cast<const Half*>(p)); break;
    case ScalarType::Long: i = *static_cast<const int64_t*>(p); is_float = false; break;
    case ScalarType::Int: i = *static_cast<const int32_t*>(p); is_float = false; break;
    case ScalarType::Short: i = *static_cast<const int16_t*>(p); is_float = false; break;
    case ScalarType::Char: i = *static_cast<const int8_t*>(p); is_float = false; break;
    case ScalarType::Byte: i = *static_cast<const uint8_t*>(p); is_float = false; break;
    case ScalarType::Bool: *args[1] = EValue(*static_cast<const uint8_t*>(p) != 0); return;
    default: ctx.fail(Error::NotSupported, "%s: dtype %s", op, scalar_type_name(t.scalar_type())); return;
  }
  if (args[1]->is_int() || (!is_float && !args[1]->is_double())) {
    *args[1] = EValue(is_float ? int64_t(d) : i);
  } else {
    *args[1] = EValue(is_float ? d : double(i));
  }
}

void et_view(KernelRuntimeContext& ctx, Span<EValue*> args) {
  const char* op = "executorch_prim::et_view.default";
  if (!expect(ctx, args.size() == 3 && args[0]->is_tensor() && args[1]->is_int_list() &&
                       args[2]->is_tensor(),
              op, "expects (Tensor self, int[] size, Tensor out)")) {
    return;
  }
  const Tensor& self = args[0]->to_tensor();
  Tensor& out = args[2]->to_tensor();
  Span<const int64_t> size = args[1]->to_int_list();
  if (!expect(ctx, size.size() == out.dim() && size.size() <= kMaxTensorDims, op, "rank of size differs from out")) return;
  SizesType new_sizes[kMaxTensorDims];
  int infer = -1;
  size_t known = 1;
  uint64_t span = 1;
  for (size_t d = 0; d < size.size(); ++d) {
    if (size[d] == -1 && infer < 0) {
      infer = int(d);
      continue;
    }
    if (!expect(ctx, size[d] >= 0 && size[d] <= INT32_MAX, op, "invalid size")) return;
    new_sizes[d] = SizesType(size[d]);
    span *= size[d] > 1 ? uint64_t(size[d]) : 1;  // strides are int32
    if (!expect(ctx, span <= uint64_t(INT32_MAX), op, "size overflows int32 strides")) return;
    known *= size_t(size[d]);
  }
  if (infer >= 0) {
    if (!expect(ctx, known != 0 && self.numel() % known == 0, op, "cannot infer -1")) return;
    if (!expect(ctx, self.numel() / known <= size_t(INT32_MAX) / span, op, "size overflows int32 strides")) return;
    new_sizes[infer] = SizesType(self.numel() / known);
    known *= size_t(new_sizes[infer]);
  }
  if (!expect(ctx, known == self.numel() && self.scalar_type() == out.scalar_type(), op,
              "view must keep numel and dtype")) {
    return;
  }
  const Error err = out.resize(Span<const SizesType>(new_sizes, size.size()));
  if (err != Error::Ok) {
    ctx.fail(err);
    return;
  }
  out.set_data(self.mutable_data_ptr());
}

void et_copy_index(KernelRuntimeContext& ctx, Span<EValue*> args) {
  const char* op = "executorch_prim::et_copy_index.tensor";
  if (!expect(ctx, (args.size() == 3 || args.size() == 4) && args[0]->is_tensor() &&
                       args[1]->is_tensor() && args[2]->is_int(),
              op, "expects (Tensor copy_to, Tensor copy_from, int index)")) {
    return;
  }
  Tensor& to = args[0]->to_tensor();
  const Tensor& from = args[1]->to_tensor();
  const int64_t index = args[2]->to_int();
  if (!expect(ctx, to.dim() == from.dim() + 1 && to.scalar_type() == from.scalar_type() && index >= 0 &&
                       index < INT32_MAX,
              op, "copy_to must be copy_from's shape with one leading dim, same dtype")) {
    return;
  }
  for (size_t d = 0; d < from.dim(); ++d) {
    if (!expect(ctx, to.size(d + 1) == from.size(d), op, "trailing sizes differ")) return;
  }
  // A dynamic copy_to takes index + 1 rows (a map's stacked result ends with as many rows as
  // the loop ran); a static one only grows (it never does within its fixed shape).
  const bool dynamic = to.shape_dynamism() != ShapeDynamism::Static;
  if (index >= to.size(0) || (dynamic && index + 1 != to.size(0))) {
    SizesType sizes[kMaxTensorDims];
    for (size_t d = 0; d < to.dim(); ++d) sizes[d] = to.size(d);
    sizes[0] = SizesType(index + 1);
    const Error err = to.resize(Span<const SizesType>(sizes, to.dim()));
    if (err != Error::Ok) {
      ctx.fail(err);
      return;
    }
  }
  if (from.nbytes() == 0) return;
  if (!expect(ctx, to.mutable_data_ptr() != nullptr && from.const_data_ptr() != nullptr, op, "no data")) return;
  std::memcpy(static_cast<uint8_t*>(to.mutable_data_ptr()) + size_t(index) * from.nbytes(),
              from.const_data_ptr(), from.nbytes());
}

}  // namespace ember::runtime
