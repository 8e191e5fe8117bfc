// Builds a method's value table from ExecutionPlan.values: scalars, strings,
// lists (boxed int lists point at Int values; tensor lists at earlier Tensor
// values) and tensors (tensor_parser.cc). Every index is checked.
#include "runtime/executor/method_state.h"

namespace ember::runtime::internal {
namespace {

size_t count_external_constants(const fb::ExecutionPlan* plan) {
  size_t n = 0;
  for (const fb::EValue* v : *plan->values()) {
    const fb::Tensor* t = v->val_as_Tensor();
    if (t != nullptr && t->allocation_info() == nullptr && t->extra_tensor_info() != nullptr &&
        t->extra_tensor_info()->location() == fb::TensorDataLocation::EXTERNAL) {
      ++n;
    }
  }
  return n;
}

Error parse_int_list(LoadContext& ctx, size_t index, const fb::IntList* list, EValue* out) {
  if (list->items() == nullptr) return fail(Error::InvalidProgram, "value %zu: IntList without items", index);
  MethodState* s = ctx.state;
  const size_t n = list->items()->size();
  EValue** items = nullptr;
  int64_t* scratch = nullptr;
  EMBER_TRY(allocate_array(ctx.memory->method_allocator(), n, "int list items", &items));
  EMBER_TRY(allocate_array(ctx.memory->method_allocator(), n, "int list slots", &scratch));
  for (size_t k = 0; k < n; ++k) {
    const int64_t item = load_element(list->items(), k);
    if (item < 0 || uint64_t(item) >= s->num_values ||
        ctx.plan->values()->Get(flatbuffers::uoffset_t(item))->val_type() != fb::KernelTypes::Int) {
      return fail(Error::InvalidProgram, "value %zu: IntList item %zu (value %lld) is not an Int value",
                  index, k, static_cast<long long>(item));
    }
    items[k] = &s->values[item];
  }
  *out = EValue(BoxedIntList(items, scratch, n));
  return Error::Ok;
}

// TensorList (optional = false) or OptionalTensorList (optional = true).
Error parse_tensor_list(LoadContext& ctx, size_t index, const flatbuffers::Vector<int32_t>* list,
                        bool optional, EValue* out) {
  if (list == nullptr) return fail(Error::InvalidProgram, "value %zu: tensor list without items", index);
  MethodState* s = ctx.state;
  EValue** items = nullptr;
  EMBER_TRY(allocate_array(ctx.memory->method_allocator(), list->size(), "tensor list items", &items));
  for (size_t k = 0; k < list->size(); ++k) {
    const int32_t item = list->Get(flatbuffers::uoffset_t(k));
    if (optional && item == -1) continue;  // None
    const bool ok = item >= 0 && size_t(item) < index &&
                    (s->values[item].is_tensor() || (optional && s->values[item].is_none()));
    if (!ok) {
      return fail(Error::InvalidProgram,
                  "value %zu: tensor list item %zu (value %d) must be an earlier Tensor value", index,
                  k, item);
    }
    items[k] = &s->values[item];
  }
  *out = optional ? EValue(OptionalTensorList(items, list->size()))
                  : EValue(TensorList(items, list->size()));
  return Error::Ok;
}

Error parse_value(LoadContext& ctx, size_t index, const fb::EValue* v, size_t* external_slot) {
  EValue* out = &ctx.state->values[index];
  const fb::KernelTypes type = v->val_type();
  if (type != fb::KernelTypes::Null && v->val() == nullptr) {
    return fail(Error::InvalidProgram, "value %zu: type %d without a payload", index, int(type));
  }
  switch (type) {
    case fb::KernelTypes::Null: *out = EValue(); return Error::Ok;
    case fb::KernelTypes::Int: *out = EValue(int64_t(v->val_as_Int()->int_val())); return Error::Ok;
    case fb::KernelTypes::Bool: *out = EValue(bool(v->val_as_Bool()->bool_val())); return Error::Ok;
    case fb::KernelTypes::Double: *out = EValue(double(v->val_as_Double()->double_val())); return Error::Ok;
    case fb::KernelTypes::String: {
      const auto* s = v->val_as_String()->string_val();
      *out = EValue(s == nullptr ? std::string_view() : s->string_view());
      return Error::Ok;
    }
    case fb::KernelTypes::IntList: return parse_int_list(ctx, index, v->val_as_IntList(), out);
    case fb::KernelTypes::DoubleList: {
      const auto* items = v->val_as_DoubleList()->items();
      if (items == nullptr) return fail(Error::InvalidProgram, "value %zu: DoubleList without items", index);
      const double* data = items->data();
      if (reinterpret_cast<uintptr_t>(data) % alignof(double) != 0) {  // hostile layout: copy
        double* copy = nullptr;
        EMBER_TRY(allocate_array(ctx.memory->method_allocator(), items->size(), "double list items", &copy));
        for (size_t k = 0; k < items->size(); ++k) copy[k] = load_element(items, k);
        data = copy;
      }
      *out = EValue(Span<const double>(data, items->size()));
      return Error::Ok;
    }
    case fb::KernelTypes::BoolList: {
      const auto* items = v->val_as_BoolList()->items();
      if (items == nullptr) return fail(Error::InvalidProgram, "value %zu: BoolList without items", index);
      bool* copy = nullptr;  // normalise bytes to true/false
      EMBER_TRY(allocate_array(ctx.memory->method_allocator(), items->size(), "bool list items", &copy));
      for (size_t k = 0; k < items->size(); ++k) copy[k] = items->Get(flatbuffers::uoffset_t(k)) != 0;
      *out = EValue(Span<const bool>(copy, items->size()));
      return Error::Ok;
    }
    case fb::KernelTypes::TensorList:
      return parse_tensor_list(ctx, index, v->val_as_TensorList()->items(), false, out);
    case fb::KernelTypes::OptionalTensorList:
      return parse_tensor_list(ctx, index, v->val_as_OptionalTensorList()->items(), true, out);
    case fb::KernelTypes::Tensor: {
      Tensor* tensor = nullptr;
      EMBER_TRY(parse_tensor(ctx, index, v->val_as_Tensor(), &tensor, external_slot));
      *out = EValue(tensor);
      return Error::Ok;
    }
    default:
      return fail(Error::InvalidProgram, "value %zu: unknown value type %d", index, int(type));
  }
}

Error check_io_indices(const flatbuffers::Vector<int32_t>* list, size_t num_values, const char* what) {
  if (list == nullptr) return Error::Ok;
  for (size_t i = 0; i < list->size(); ++i) {
    const int32_t v = list->Get(flatbuffers::uoffset_t(i));
    if (v < 0 || size_t(v) >= num_values) {
      return fail(Error::InvalidProgram, "%s %zu: value index %d out of range (%zu values)", what, i,
                  v, num_values);
    }
  }
  return Error::Ok;
}

}  // namespace

Error parse_values(LoadContext& ctx) {
  MethodState* s = ctx.state;
  MemoryAllocator* alloc = ctx.memory->method_allocator();
  s->num_values = ctx.plan->values()->size();
  EMBER_TRY(allocate_array(alloc, s->num_values, "values", &s->values));
  s->num_external_buffers = count_external_constants(ctx.plan);
  EMBER_TRY(allocate_array(alloc, s->num_external_buffers, "external buffers", &s->external_buffers));
  size_t external_slot = 0;
  for (size_t i = 0; i < s->num_values; ++i) {
    EMBER_TRY(parse_value(ctx, i, ctx.plan->values()->Get(flatbuffers::uoffset_t(i)), &external_slot));
  }
  EMBER_TRY(check_io_indices(ctx.plan->inputs(), s->num_values, "input"));
  EMBER_TRY(check_io_indices(ctx.plan->outputs(), s->num_values, "output"));
  s->inputs = ctx.plan->inputs() ? ctx.plan->inputs()->data() : nullptr;
  s->num_inputs = size_of(ctx.plan->inputs());
  s->outputs = ctx.plan->outputs() ? ctx.plan->outputs()->data() : nullptr;
  s->num_outputs = size_of(ctx.plan->outputs());
  EMBER_TRY(allocate_array(alloc, s->num_inputs, "input flags", &s->input_set));
  EMBER_TRY(allocate_array(alloc, s->num_inputs, "input flags", &s->input_fresh));
  EMBER_TRY(allocate_array(alloc, s->num_inputs, "input flags", &s->input_planned));
  for (size_t i = 0; i < s->num_inputs; ++i) {
    const fb::Tensor* t = ctx.plan->values()->Get(flatbuffers::uoffset_t(s->inputs[i]))->val_as_Tensor();
    s->input_planned[i] = t != nullptr && t->allocation_info() != nullptr;
  }
  return Error::Ok;
}

}  // namespace ember::runtime::internal
