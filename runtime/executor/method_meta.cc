// MethodMeta: checked reads of an ExecutionPlan's interface.
#include "runtime/executor/method_meta.h"

#include <cstring>

#include "runtime/core/diagnostics.h"
#include "runtime/core/tensor.h"
#include "runtime/executor/flatbuffer_access.h"

namespace ember::runtime {

using internal::as_plan;
using internal::size_of;
namespace fb = internal::fb;
using IndexVector = flatbuffers::Vector<int32_t>;

// Maps a FlatBuffer KernelTypes code to the runtime Tag.
Tag tag_of(fb::KernelTypes type) {
  switch (type) {
    case fb::KernelTypes::Null: return Tag::None;
    case fb::KernelTypes::Int: return Tag::Int;
    case fb::KernelTypes::Bool: return Tag::Bool;
    case fb::KernelTypes::Double: return Tag::Double;
    case fb::KernelTypes::Tensor: return Tag::Tensor;
    case fb::KernelTypes::String: return Tag::String;
    case fb::KernelTypes::IntList: return Tag::ListInt;
    case fb::KernelTypes::DoubleList: return Tag::ListDouble;
    case fb::KernelTypes::BoolList: return Tag::ListBool;
    case fb::KernelTypes::TensorList: return Tag::ListTensor;
    case fb::KernelTypes::OptionalTensorList: return Tag::ListOptionalTensor;
    default: return Tag::None;
  }
}

size_t TensorInfo::nbytes() const {
  size_t numel = 0;
  if (!Tensor::compute_numel(sizes_, &numel)) return 0;
  const size_t element = element_size(type_);
  return element != 0 && numel > SIZE_MAX / element ? 0 : numel * element;
}

const char* MethodMeta::name() const { return internal::plan_name(as_plan(plan_)); }

size_t MethodMeta::num_inputs() const { return size_of(as_plan(plan_)->inputs()); }
size_t MethodMeta::num_outputs() const { return size_of(as_plan(plan_)->outputs()); }

Result<Tag> MethodMeta::value_tag(const void* indices, size_t i, const char* what) const {
  const auto* list = static_cast<const IndexVector*>(indices);
  const auto* values = as_plan(plan_)->values();
  if (i >= size_of(list)) {
    return fail(Error::InvalidArgument, "%s %zu out of range (method '%s' has %zu)", what, i,
                name(), size_of(list));
  }
  const int32_t index = list->Get(flatbuffers::uoffset_t(i));
  if (index < 0 || size_t(index) >= size_of(values)) {
    return fail(Error::InvalidProgram, "%s %zu: value index %d out of range (%zu values)", what, i,
                index, size_of(values));
  }
  return tag_of(values->Get(flatbuffers::uoffset_t(index))->val_type());
}

Result<TensorInfo> MethodMeta::value_tensor_meta(const void* indices, size_t i,
                                                 const char* what) const {
  Result<Tag> tag = value_tag(indices, i, what);
  if (!tag.ok()) return tag.error();
  if (*tag != Tag::Tensor) {
    return fail(Error::InvalidArgument, "%s %zu of method '%s' is %s, not a Tensor", what, i,
                name(), tag_name(*tag));
  }
  const int32_t index = static_cast<const IndexVector*>(indices)->Get(flatbuffers::uoffset_t(i));
  const fb::Tensor* t = as_plan(plan_)->values()->Get(flatbuffers::uoffset_t(index))->val_as_Tensor();
  if (t == nullptr || t->sizes() == nullptr || t->dim_order() == nullptr) {
    return fail(Error::InvalidProgram, "%s %zu: tensor value %d lacks sizes or dim_order", what, i,
                index);
  }
  const bool planned = t->allocation_info() != nullptr || t->data_buffer_idx() != 0;
  const bool dynamic = t->shape_dynamism() != fb::TensorShapeDynamism::STATIC;
  const char* fqn = "";
  if (t->extra_tensor_info() != nullptr && t->extra_tensor_info()->fully_qualified_name()) {
    fqn = t->extra_tensor_info()->fully_qualified_name()->c_str();
  }
  return TensorInfo(Span<const int32_t>(t->sizes()->data(), t->sizes()->size()),
                    Span<const uint8_t>(t->dim_order()->data(), t->dim_order()->size()),
                    static_cast<ScalarType>(t->scalar_type()), planned, dynamic, fqn);
}

Result<Tag> MethodMeta::input_tag(size_t i) const {
  return value_tag(as_plan(plan_)->inputs(), i, "input");
}
Result<TensorInfo> MethodMeta::input_tensor_meta(size_t i) const {
  return value_tensor_meta(as_plan(plan_)->inputs(), i, "input");
}
Result<Tag> MethodMeta::output_tag(size_t i) const {
  return value_tag(as_plan(plan_)->outputs(), i, "output");
}
Result<TensorInfo> MethodMeta::output_tensor_meta(size_t i) const {
  return value_tensor_meta(as_plan(plan_)->outputs(), i, "output");
}

size_t MethodMeta::num_memory_planned_buffers() const {
  const size_t n = size_of(as_plan(plan_)->non_const_buffer_sizes());
  return n == 0 ? 0 : n - 1;
}

Result<int64_t> MethodMeta::memory_planned_buffer_size(size_t i) const {
  if (i >= num_memory_planned_buffers()) {
    return fail(Error::InvalidArgument, "planned buffer %zu out of range (method '%s' plans %zu)",
                i, name(), num_memory_planned_buffers());
  }
  const int64_t size = internal::load_element(as_plan(plan_)->non_const_buffer_sizes(), i + 1);
  if (size < 0) {
    return fail(Error::InvalidProgram, "planned buffer %zu has negative size %lld", i,
                static_cast<long long>(size));
  }
  return size;
}

size_t MethodMeta::num_values() const { return size_of(as_plan(plan_)->values()); }

bool MethodMeta::is_mutable_buffer(size_t value_index) const {
  const auto* values = as_plan(plan_)->values();
  if (value_index >= size_of(values)) return false;
  const fb::Tensor* t = values->Get(flatbuffers::uoffset_t(value_index))->val_as_Tensor();
  if (t == nullptr || t->allocation_info() == nullptr) return false;
  const bool named = t->extra_tensor_info() != nullptr &&
                     t->extra_tensor_info()->fully_qualified_name() != nullptr &&
                     t->extra_tensor_info()->fully_qualified_name()->size() > 0;
  return t->data_buffer_idx() > 0 || named;
}

Result<uint64_t> MethodMeta::mutable_buffer_bytes() const {
  const auto* values = as_plan(plan_)->values();
  uint64_t total = 0;
  for (size_t i = 0; i < size_of(values); ++i) {
    if (!is_mutable_buffer(i)) continue;
    const fb::Tensor* t = values->Get(flatbuffers::uoffset_t(i))->val_as_Tensor();
    uint64_t bytes = element_size(static_cast<ScalarType>(t->scalar_type()));
    for (size_t d = 0; t->sizes() != nullptr && d < t->sizes()->size(); ++d) {
      const int32_t size = t->sizes()->Get(flatbuffers::uoffset_t(d));
      if (size < 0 || (size > 0 && bytes > (uint64_t(1) << 48) / uint64_t(size))) {
        return fail(Error::InvalidProgram, "value %zu: mutable buffer size overflows", i);
      }
      bytes *= uint64_t(size);
    }
    total += bytes;
  }
  return total;
}

size_t MethodMeta::num_backends() const { return size_of(as_plan(plan_)->delegates()); }

Result<const char*> MethodMeta::get_backend_name(size_t i) const {
  if (i >= num_backends()) {
    return fail(Error::InvalidArgument, "backend %zu out of range (method '%s' has %zu)", i,
                name(), num_backends());
  }
  const auto* id = as_plan(plan_)->delegates()->Get(flatbuffers::uoffset_t(i))->id();
  if (id == nullptr) return fail(Error::InvalidProgram, "delegate %zu has no id", i);
  return id->c_str();
}

bool MethodMeta::uses_backend(const char* backend) const {
  for (size_t i = 0; i < num_backends(); ++i) {
    Result<const char*> id = get_backend_name(i);
    if (id.ok() && std::strcmp(*id, backend) == 0) return true;
  }
  return false;
}

size_t MethodMeta::num_instructions() const {
  size_t n = 0;
  const auto* chains = as_plan(plan_)->chains();
  for (size_t c = 0; c < size_of(chains); ++c) {
    n += size_of(chains->Get(flatbuffers::uoffset_t(c))->instructions());
  }
  return n;
}

}  // namespace ember::runtime
