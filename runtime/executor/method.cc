// Method: inputs, outputs and teardown. Execution is in method_execute.cc.
#include "runtime/executor/method.h"

#include <cmath>
#include <cstring>

#include "runtime/executor/method_state.h"

namespace ember::runtime {

using namespace internal;  // NOLINT

namespace {

bool doubles_match(double a, double b) {
  if (std::isnan(a) && std::isnan(b)) return true;
  if (std::isinf(a) || std::isinf(b)) return a == b;
  return std::fabs(a - b) <= 1e-4 + 1e-5 * std::fabs(b);
}

// Checks every dim of `src` against the .pte's declared sizes for input i: a
// DYNAMIC_BOUND input's sizes are per-dim upper bounds (checked one by one, not only
// the element count), a STATIC input's sizes are exact. The lower end of the range is
// the MinSize guard from __ember_guards__<method> if any, else 0.
Error check_input_dims(const MethodState* s, const Tensor& src, size_t i) {
  const fb::EValue* v = s->plan->values()->Get(flatbuffers::uoffset_t(s->inputs[i]));
  const fb::Tensor* t = v == nullptr ? nullptr : v->val_as_Tensor();
  if (t == nullptr || t->sizes() == nullptr || t->sizes()->size() != src.dim()) return Error::Ok;
  const bool bounded = t->shape_dynamism() != fb::TensorShapeDynamism::STATIC;
  for (size_t d = 0; d < src.dim(); ++d) {
    const int32_t bound = t->sizes()->Get(flatbuffers::uoffset_t(d));
    const int32_t given = src.size(d);
    const int32_t min = guard_min(s, i, d);
    if (bounded && (given < min || given > bound)) {
      return fail(Error::InvalidArgument,
                  "input %zu of method '%s': dim %zu is %d, allowed range [%d, %d] (%s)", i, s->name, d,
                  given, min, bound,
                  given > bound ? "DYNAMIC_BOUND upper bound" : "min from export range constraint");
    }
    if (!bounded && given != bound) {
      return fail(Error::NotSupported,
                  "input %zu of method '%s': dim %zu is %d, must be %d (static input)", i, s->name,
                  d, given, bound);
    }
  }
  return Error::Ok;
}

Error set_tensor_input(MethodState* s, const Tensor& src, size_t i) {
  Tensor& dst = s->values[s->inputs[i]].to_tensor();
  char want[96], got[96];
  if (src.scalar_type() == dst.scalar_type() && src.dim() != dst.dim()) {
    return fail(Error::InvalidArgument, "input %zu of method '%s': rank is %zu, expected %zu (%s, got %s)",
                i, s->name, src.dim(), dst.dim(), describe(dst, want, sizeof(want)),
                describe(src, got, sizeof(got)));
  }
  if (src.scalar_type() != dst.scalar_type() || src.dim() != dst.dim()) {
    return fail(Error::InvalidArgument, "input %zu of method '%s' expects %s, got %s", i, s->name,
                describe(dst, want, sizeof(want)), describe(src, got, sizeof(got)));
  }
  for (size_t d = 0; d < dst.dim(); ++d) {
    if (src.dim_order()[d] != dst.dim_order()[d]) {
      return fail(Error::InvalidArgument, "input %zu of method '%s': dim order differs at dim %zu", i,
                  s->name, d);
    }
  }
  EMBER_TRY(check_input_dims(s, src, i));
  const Error err = dst.resize(src.sizes());
  if (err != Error::Ok) return annotate(err, "input %zu of method '%s'", i, s->name);
  EMBER_TRY(check_derived_guards_of(s, i));
  if (!s->input_planned[i]) {
    dst.set_data(src.mutable_data_ptr());
    return Error::Ok;
  }
  if (src.nbytes() > 0 && src.const_data_ptr() == nullptr) {
    return fail(Error::InvalidArgument, "input %zu of method '%s': tensor has no data", i, s->name);
  }
  if (src.const_data_ptr() != dst.const_data_ptr() && src.nbytes() > 0) {
    std::memcpy(dst.mutable_data_ptr(), src.const_data_ptr(), src.nbytes());
  }
  return Error::Ok;
}

}  // namespace

Method::~Method() {
  if (state_ == nullptr) return;
  for (size_t i = 0; i < state_->num_delegates; ++i) {
    DelegateRecord& d = state_->delegates[i];
    if (d.initialized) d.backend->destroy(d.handle);
    d.initialized = false;
    d.processed.free();
  }
  for (size_t i = 0; i < state_->num_external_buffers; ++i) state_->external_buffers[i].free();
  state_ = nullptr;
}

const char* Method::name() const { return state_->name; }
MethodMeta Method::method_meta() const { return MethodMeta(state_->plan); }
size_t Method::inputs_size() const { return state_->num_inputs; }
size_t Method::outputs_size() const { return state_->num_outputs; }
size_t Method::num_values() const { return state_->num_values; }
const EValue& Method::get_value(size_t i) const { return state_->values[i]; }
Result<Span<uint8_t>> Method::mutable_buffer(size_t value_index) const {
  if (value_index >= state_->num_values || !method_meta().is_mutable_buffer(value_index) ||
      !state_->values[value_index].is_tensor()) {
    return fail(Error::InvalidArgument, "method '%s': value %zu is not a mutable buffer",
                state_->name, value_index);
  }
  const Tensor& t = state_->values[value_index].to_tensor();
  return Span<uint8_t>(static_cast<uint8_t*>(t.mutable_data_ptr()), t.nbytes());
}

size_t Method::num_instructions() const { return state_->num_instructions; }
const char* Method::instruction_name(size_t i) const {
  return i < state_->num_instructions ? state_->instructions[i].name : "";
}
void Method::set_profile(InstructionProfile* profile) { state_->profile = profile; }
void Method::set_delegate_profiler(DelegateProfiler* profiler) { state_->delegate_profiler = profiler; }
void Method::set_instruction_observer(InstructionObserver* observer) { state_->observer = observer; }
Span<const InputGuard> Method::input_guards() const {
  return Span<const InputGuard>(state_->guards, state_->num_guards);
}

Error Method::set_input(const EValue& value, size_t i) {
  MethodState* s = state_;
  if (i >= s->num_inputs) {
    return fail(Error::InvalidArgument, "input index %zu out of range (method '%s' has %zu inputs)", i,
                s->name, s->num_inputs);
  }
  const EValue& slot = s->values[s->inputs[i]];
  if (slot.tag() != value.tag()) {
    return fail(Error::InvalidArgument, "input %zu of method '%s' is a %s, got a %s", i, s->name,
                tag_name(slot.tag()), tag_name(value.tag()));
  }
  bool same = true;
  switch (value.tag()) {
    case Tag::Tensor: EMBER_TRY(set_tensor_input(s, value.to_tensor(), i)); break;
    case Tag::Int: same = slot.to_int() == value.to_int(); break;
    case Tag::Bool: same = slot.to_bool() == value.to_bool(); break;
    case Tag::String: same = slot.to_string() == value.to_string(); break;
    case Tag::Double: same = doubles_match(value.to_double(), slot.to_double()); break;
    case Tag::None: break;
    default:
      return fail(Error::InvalidArgument, "input %zu of method '%s': %s inputs are not supported", i,
                  s->name, tag_name(value.tag()));
  }
  if (!same) {
    return fail(Error::InvalidArgument,
                "input %zu of method '%s' is a %s baked in at export; the value given differs", i,
                s->name, tag_name(value.tag()));
  }
  s->input_set[i] = true;
  s->input_fresh[i] = true;
  return Error::Ok;
}

Error Method::set_inputs(Span<const EValue> values) {
  if (values.size() != state_->num_inputs) {
    return fail(Error::InvalidArgument, "method '%s' takes %zu inputs, %zu given", state_->name,
                state_->num_inputs, values.size());
  }
  for (size_t i = 0; i < values.size(); ++i) EMBER_TRY(set_input(values[i], i));
  return Error::Ok;
}

Error Method::set_output_data_ptr(void* buffer, size_t size, size_t i) {
  MethodState* s = state_;
  if (i >= s->num_outputs) {
    return fail(Error::InvalidArgument, "output index %zu out of range (method '%s' has %zu)", i,
                s->name, s->num_outputs);
  }
  const fb::Tensor* t = s->plan->values()->Get(flatbuffers::uoffset_t(s->outputs[i]))->val_as_Tensor();
  EValue& slot = s->values[s->outputs[i]];
  if (t == nullptr || !slot.is_tensor()) {
    return fail(Error::InvalidArgument, "output %zu of method '%s' is not a Tensor", i, s->name);
  }
  if (t->allocation_info() != nullptr || t->data_buffer_idx() != 0 || t->extra_tensor_info() != nullptr) {
    return fail(Error::InvalidState, "output %zu of method '%s' is memory-planned or constant", i, s->name);
  }
  Tensor& out = slot.to_tensor();
  if (size < out.capacity_numel() * out.element_size()) {
    return fail(Error::InvalidArgument, "output %zu of method '%s' needs %zu bytes, buffer has %zu", i,
                s->name, out.capacity_numel() * out.element_size(), size);
  }
  out.set_data(buffer);
  return Error::Ok;
}

const EValue& Method::get_input(size_t i) const {
  static const EValue kNone;
  return i < state_->num_inputs ? state_->values[state_->inputs[i]] : kNone;
}

const EValue& Method::get_output(size_t i) const {
  static const EValue kNone;
  return i < state_->num_outputs ? state_->values[state_->outputs[i]] : kNone;
}

Error Method::get_outputs(EValue* out, size_t count) const {
  if (count < state_->num_outputs) {
    return fail(Error::InvalidArgument, "method '%s' has %zu outputs, room for %zu given", state_->name,
                state_->num_outputs, count);
  }
  for (size_t i = 0; i < state_->num_outputs; ++i) out[i] = get_output(i);
  return Error::Ok;
}

}  // namespace ember::runtime
