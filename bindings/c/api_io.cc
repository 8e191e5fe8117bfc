// ember_method_*: metadata, inputs (copy, zero copy, resize), execute, outputs and the
// per-instruction profile. Nothing here allocates: inputs are copied into planned memory
// or into storage reserved at creation, outputs alias the method's memory.
#include <cstring>

#include "bindings/c/handles.h"

namespace ember::capi {
namespace {

using runtime::Error;
using runtime::fail;
using runtime::Tensor;

// Fills `info` for a tensor (current sizes) and its declaration (bounds).
void describe_tensor(const Tensor& t, const runtime::TensorInfo& decl, ember_tensor_info* info) {
  info->kind = EMBER_KIND_TENSOR;
  info->dtype = static_cast<ember_dtype>(static_cast<int>(t.scalar_type()));
  info->dynamic = t.shape_dynamism() == runtime::ShapeDynamism::DynamicBound;
  info->memory_planned = decl.is_memory_planned();
  info->rank = t.dim();
  for (size_t d = 0; d < t.dim() && d < EMBER_MAX_RANK; ++d) {
    info->sizes[d] = t.size(d);
    const int64_t declared = d < decl.sizes().size() ? decl.sizes()[d] : t.size(d);
    info->max_sizes[d] = declared;
    info->min_sizes[d] = info->dynamic ? 0 : declared;
  }
  info->nbytes = t.nbytes();
  info->max_nbytes = t.capacity_numel() * t.element_size();
}

Error info_of(const ember_method* m, size_t index, bool input, ember_tensor_info* out) {
  if (out == nullptr) return fail(Error::InvalidArgument, "info is NULL");
  const runtime::Method& method = *m->method;
  const size_t count = input ? method.inputs_size() : method.outputs_size();
  if (index >= count) {
    return fail(Error::InvalidArgument, "%s index %zu out of range (method '%s' has %zu)",
                input ? "input" : "output", index, method.name(), count);
  }
  ember_tensor_info info;
  ember_tensor_info_init(&info);
  const runtime::EValue& v = input ? method.get_input(index) : method.get_output(index);
  info.kind = static_cast<ember_kind>(static_cast<uint32_t>(v.tag()));
  if (v.is_tensor()) {
    const runtime::MethodMeta meta = method.method_meta();
    runtime::Result<runtime::TensorInfo> decl =
        input ? meta.input_tensor_meta(index) : meta.output_tensor_meta(index);
    if (!decl.ok()) return decl.error();
    describe_tensor(v.to_tensor(), *decl, &info);
    if (input) {  // the export's lower bounds, from the method's input guards
      for (const runtime::InputGuard& g : method.input_guards()) {
        if (g.kind == runtime::InputGuardKind::MinSize && g.input == index && g.dim < info.rank) {
          info.min_sizes[g.dim] = g.a;
        }
      }
    }
  }
  return write_result(info, out, "info");
}

// The tensor at input `index`, after checking the index, the kind and the dtype.
Error input_tensor(ember_method* m, size_t index, ember_dtype dtype, Tensor** out) {
  runtime::Method& method = *m->method;
  if (index >= method.inputs_size()) {
    return fail(Error::InvalidArgument, "input index %zu out of range (method '%s' has %zu inputs)",
                index, method.name(), method.inputs_size());
  }
  const runtime::EValue& v = method.get_input(index);
  if (!v.is_tensor()) {
    return fail(Error::InvalidType, "input %zu of method '%s' is a %s, not a Tensor", index,
                method.name(), runtime::tag_name(v.tag()));
  }
  Tensor& t = v.to_tensor();
  const auto type = static_cast<runtime::ScalarType>(static_cast<int>(dtype));
  if (type != t.scalar_type()) {
    char want[96];
    return fail(Error::InvalidType, "input %zu of method '%s' expects %s, got %s data", index,
                method.name(), runtime::describe(t, want, sizeof(want)), ember_dtype_name(dtype));
  }
  *out = &t;
  return Error::Ok;
}

Error check_bytes(const ember_method* m, size_t index, const Tensor& t, const void* data,
                  size_t nbytes) {
  if (nbytes != t.nbytes()) {
    char want[96];
    return fail(Error::InvalidArgument, "input %zu expects %s (%zu bytes), got %zu bytes", index,
                runtime::describe(t, want, sizeof(want)), t.nbytes(), nbytes);
  }
  if (data == nullptr && nbytes > 0)
    return fail(Error::InvalidArgument, "input %zu: data is NULL", index);
  (void)m;
  return Error::Ok;
}

// Hands `data` to Method::set_input as a tensor of t's current shape: the method copies it
// into planned memory, or (unplanned) points the input at it.
Error set_from(ember_method* m, size_t index, const Tensor& t, void* data) {
  runtime::SizesType sizes[runtime::kMaxTensorDims];
  runtime::DimOrderType order[runtime::kMaxTensorDims];
  runtime::StridesType strides[runtime::kMaxTensorDims];
  for (size_t d = 0; d < t.dim(); ++d) {
    sizes[d] = t.size(d);
    order[d] = t.dim_order()[d];
  }
  Tensor view(t.scalar_type(), t.dim(), sizes, order, strides, data, t.shape_dynamism());
  return m->method->set_input(runtime::EValue(&view), index);
}

Error set_input(ember_method* m, size_t index, ember_dtype dtype, const void* data, size_t nbytes,
                bool copy) {
  Tensor* t = nullptr;
  EMBER_TRY(input_tensor(m, index, dtype, &t));
  EMBER_TRY(check_bytes(m, index, *t, data, nbytes));
  void* storage = m->input_storage[index];
  if (!copy) {
    if (storage == nullptr) {
      return fail(Error::NotSupported,
                  "input %zu of method '%s' is memory-planned: its data lives in the method's "
                  "memory, so it "
                  "can only be copied in (ember_method_set_input)",
                  index, m->method->name());
    }
    return set_from(m, index, *t, const_cast<void*>(data));
  }
  if (storage != nullptr) {  // unplanned: copy into the storage reserved at creation
    if (nbytes > 0) std::memcpy(storage, data, nbytes);
    return set_from(m, index, *t, storage);
  }
  return set_from(m, index, *t, const_cast<void*>(data));  // planned: set_input copies
}

Error resize_input(ember_method* m, size_t index, const int64_t* sizes, size_t rank) {
  runtime::Method& method = *m->method;
  if (index >= method.inputs_size()) {
    return fail(Error::InvalidArgument, "input index %zu out of range (method '%s' has %zu inputs)",
                index, method.name(), method.inputs_size());
  }
  const runtime::EValue& v = method.get_input(index);
  if (!v.is_tensor())
    return fail(Error::InvalidType, "input %zu is a %s, not a Tensor", index,
                runtime::tag_name(v.tag()));
  Tensor& t = v.to_tensor();
  if (sizes == nullptr && rank > 0) return fail(Error::InvalidArgument, "sizes is NULL");
  if (rank != t.dim()) {
    return fail(Error::InvalidArgument, "input %zu has rank %zu, %zu sizes given", index, t.dim(),
                rank);
  }
  runtime::SizesType new_sizes[runtime::kMaxTensorDims];
  runtime::DimOrderType order[runtime::kMaxTensorDims];
  runtime::StridesType strides[runtime::kMaxTensorDims];
  for (size_t d = 0; d < rank; ++d) {
    if (sizes[d] < 0 || sizes[d] > INT32_MAX) {
      return fail(Error::InvalidArgument, "input %zu: size %lld of dim %zu is out of range", index,
                  static_cast<long long>(sizes[d]), d);
    }
    new_sizes[d] = runtime::SizesType(sizes[d]);
    order[d] = t.dim_order()[d];
  }
  // The input's own data at the new shape: set_input checks the bounds and resizes
  // without copying (same pointer), leaving the data to the next set_input.
  Tensor view(t.scalar_type(), t.dim(), new_sizes, order, strides, t.mutable_data_ptr(),
              t.shape_dynamism());
  return method.set_input(runtime::EValue(&view), index);
}

Error set_input_value(ember_method* m, size_t index, const ember_value* in) {
  if (in == nullptr) return fail(Error::InvalidArgument, "value is NULL");
  ember_value v;
  ember_value_init(&v);
  EMBER_TRY(read_options(in, &v, "ember_value"));
  switch (v.kind) {
    case EMBER_KIND_TENSOR: {
      Tensor* t = nullptr;
      EMBER_TRY(input_tensor(m, index, v.dtype, &t));
      bool same = v.rank == t->dim();
      for (size_t d = 0; same && d < v.rank; ++d) same = v.sizes[d] == t->size(d);
      if (!same)
        EMBER_TRY(
            resize_input(m, index, v.sizes, v.rank > EMBER_MAX_RANK ? EMBER_MAX_RANK + 1 : v.rank));
      return set_input(m, index, v.dtype, v.data, v.nbytes, true);
    }
    case EMBER_KIND_INT:
      return m->method->set_input(runtime::EValue(int64_t(v.i)), index);
    case EMBER_KIND_DOUBLE:
      return m->method->set_input(runtime::EValue(v.d), index);
    case EMBER_KIND_BOOL:
      return m->method->set_input(runtime::EValue(v.b != 0), index);
    case EMBER_KIND_NONE:
      return m->method->set_input(runtime::EValue(), index);
    default:
      return fail(Error::NotSupported,
                  "input %zu: values of kind %d cannot be set through the C API", index,
                  int(v.kind));
  }
}

Error output_of(const ember_method* m, size_t index, ember_value* out) {
  if (out == nullptr) return fail(Error::InvalidArgument, "value is NULL");
  const runtime::Method& method = *m->method;
  if (index >= method.outputs_size()) {
    return fail(Error::InvalidArgument,
                "output index %zu out of range (method '%s' has %zu outputs)", index, method.name(),
                method.outputs_size());
  }
  ember_value value;
  ember_value_init(&value);
  const runtime::EValue& v = method.get_output(index);
  value.kind = static_cast<ember_kind>(static_cast<uint32_t>(v.tag()));
  switch (v.tag()) {
    case runtime::Tag::Tensor: {
      const Tensor& t = v.to_tensor();
      value.dtype = static_cast<ember_dtype>(static_cast<int>(t.scalar_type()));
      value.rank = t.dim();
      for (size_t d = 0; d < t.dim(); ++d) value.sizes[d] = t.size(d);
      if (t.const_data_ptr() == nullptr && t.nbytes() > 0) {
        return fail(Error::InvalidState, "output %zu of method '%s' has no data", index,
                    method.name());
      }
      value.data = t.const_data_ptr();
      value.nbytes = t.nbytes();
      value.count = t.numel();
      break;
    }
    case runtime::Tag::Int:
      value.i = v.to_int();
      break;
    case runtime::Tag::Double:
      value.d = v.to_double();
      break;
    case runtime::Tag::Bool:
      value.b = v.to_bool() ? 1 : 0;
      break;
    case runtime::Tag::None:
      break;
    case runtime::Tag::String:
      value.data = v.to_string().data();
      value.count = value.nbytes = v.to_string().size();
      break;
    case runtime::Tag::ListInt: {
      const runtime::Span<const int64_t> l = v.to_int_list();
      value.data = l.data();
      value.count = l.size();
      value.nbytes = l.size() * sizeof(int64_t);
      break;
    }
    case runtime::Tag::ListDouble: {
      const runtime::Span<const double> l = v.to_double_list();
      value.data = l.data();
      value.count = l.size();
      value.nbytes = l.size() * sizeof(double);
      break;
    }
    case runtime::Tag::ListBool: {
      const runtime::Span<const bool> l = v.to_bool_list();
      value.data = l.data();
      value.count = l.size();
      value.nbytes = l.size() * sizeof(bool);
      break;
    }
    default:
      return fail(Error::NotSupported,
                  "output %zu of method '%s' is a %s: not readable through the C API", index,
                  method.name(), runtime::tag_name(v.tag()));
  }
  return write_result(value, out, "value");
}

Error set_output_buffer(ember_method* m, size_t index, void* data, size_t nbytes) {
  if (data == nullptr) return fail(Error::InvalidArgument, "output %zu: data is NULL", index);
  return m->method->set_output_data_ptr(data, nbytes, index);
}

Error execute(ember_method* m) {
  const size_t k = m->method->num_instructions();
  if (m->profiling) {
    for (size_t i = 0; i < k; ++i) m->profile[i] = runtime::InstructionProfile{};
  }
  m->method->set_profile(m->profiling ? m->profile : nullptr);
  const Error e = m->method->execute();
  m->method->set_profile(nullptr);
  return e;
}

Error profile_entry(const ember_method* m, size_t index, ember_profile_entry* out) {
  if (out == nullptr) return fail(Error::InvalidArgument, "entry is NULL");
  const size_t k = m->method->num_instructions();
  if (index >= k)
    return fail(Error::InvalidArgument, "instruction index %zu out of range (%zu instructions)",
                index, k);
  ember_profile_entry entry;
  ember_profile_entry_init(&entry);
  entry.name = m->method->instruction_name(index);
  entry.calls = m->profile[index].calls;
  entry.total_ns = m->profile[index].total_ns;
  return write_result(entry, out, "entry");
}

}  // namespace
}  // namespace ember::capi

using ember::capi::finish;
using ember::capi::to_status;
using ember::runtime::Error;
using ember::runtime::fail;

// Every entry point on a method: a NULL handle is InvalidArgument, the message goes to
// the handle and the thread.
// A destroyed handle or one another thread is using is refused before it is touched
// (MethodClaim, handle_registry.h).
#define EMBER_METHOD_CALL(m, expr)                                \
  do {                                                            \
    ember::runtime::clear_error_message();                        \
    const ember::capi::MethodClaim claim(m);                      \
    if (!claim.ok()) return to_status(claim.error());             \
    return finish(const_cast<ember_method*>(m)->error, (expr));   \
  } while (false)

// The getters that return a count or a name: 0 or "" for a handle that cannot be claimed.
#define EMBER_METHOD_GET(m, fallback, expr)     \
  do {                                          \
    const ember::capi::MethodClaim claim(m);    \
    return claim.ok() ? (expr) : (fallback);    \
  } while (false)

extern "C" {

const char* ember_method_last_error(const ember_method* method) {
  if (ember::capi::check_handle(method, ember::capi::HandleKind::Method, "method") != Error::Ok) return "";
  return method->error;
}

const char* ember_method_name(const ember_method* method) {
  EMBER_METHOD_GET(method, "", method->method->name());
}

size_t ember_method_input_count(const ember_method* method) {
  EMBER_METHOD_GET(method, size_t{0}, method->method->inputs_size());
}

size_t ember_method_output_count(const ember_method* method) {
  EMBER_METHOD_GET(method, size_t{0}, method->method->outputs_size());
}

ember_status ember_method_input_info(const ember_method* method, size_t index,
                                     ember_tensor_info* info) {
  EMBER_METHOD_CALL(method, ember::capi::info_of(method, index, true, info));
}

ember_status ember_method_output_info(const ember_method* method, size_t index,
                                      ember_tensor_info* info) {
  EMBER_METHOD_CALL(method, ember::capi::info_of(method, index, false, info));
}

ember_status ember_method_set_input(ember_method* method, size_t index, ember_dtype dtype,
                                    const void* data, size_t nbytes) {
  EMBER_METHOD_CALL(method, ember::capi::set_input(method, index, dtype, data, nbytes, true));
}

ember_status ember_method_set_input_zero_copy(ember_method* method, size_t index, ember_dtype dtype,
                                              void* data, size_t nbytes) {
  EMBER_METHOD_CALL(method, ember::capi::set_input(method, index, dtype, data, nbytes, false));
}

ember_status ember_method_resize_input(ember_method* method, size_t index, const int64_t* sizes,
                                       size_t rank) {
  EMBER_METHOD_CALL(method, ember::capi::resize_input(method, index, sizes, rank));
}

ember_status ember_method_set_input_value(ember_method* method, size_t index,
                                          const ember_value* value) {
  EMBER_METHOD_CALL(method, ember::capi::set_input_value(method, index, value));
}

ember_status ember_method_execute(ember_method* method) {
  EMBER_METHOD_CALL(method, ember::capi::execute(method));
}

ember_status ember_method_set_output_buffer(ember_method* method, size_t index, void* data,
                                            size_t nbytes) {
  EMBER_METHOD_CALL(method, ember::capi::set_output_buffer(method, index, data, nbytes));
}

ember_status ember_method_output(const ember_method* method, size_t index, ember_value* value) {
  EMBER_METHOD_CALL(method, ember::capi::output_of(method, index, value));
}

ember_status ember_method_set_profiling(ember_method* method, int32_t enabled) {
  EMBER_METHOD_CALL(method, (method->profiling = enabled != 0, Error::Ok));
}

size_t ember_method_profile_count(const ember_method* method) {
  EMBER_METHOD_GET(method, size_t{0}, method->method->num_instructions());
}

ember_status ember_method_profile_entry(const ember_method* method, size_t index,
                                        ember_profile_entry* entry) {
  EMBER_METHOD_CALL(method, ember::capi::profile_entry(method, index, entry));
}

}  // extern "C"
