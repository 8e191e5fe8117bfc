// validate_emit_program: the consistency checks write_pte runs before writing
// (see pte_writer.h). Every message names the method and the value or
// instruction index, and gives expected versus actual.
#include <set>
#include <string>

#include "aot/emit/element_size.h"
#include "aot/emit/pte_writer.h"

namespace ember::aot {
namespace {

constexpr size_t kMaxRank = 16;

std::string value_at(size_t i) { return "value " + std::to_string(i); }

// dtype, rank, dim_order and dynamism.
Error check_tensor_shape(const EmitTensor& t) {
  if (pte_element_size(t.scalar_type) == 0) {
    return invalid_program("unknown scalar_type " + std::to_string(t.scalar_type));
  }
  if (t.sizes.size() > kMaxRank) {
    return fail(Error::NotSupported,
                  "rank " + std::to_string(t.sizes.size()) + " exceeds the runtime's limit of 16");
  }
  if (t.dim_order.size() != t.sizes.size()) {
    return invalid_program("dim_order has " + std::to_string(t.dim_order.size()) +
                           " entries, sizes has " + std::to_string(t.sizes.size()));
  }
  std::set<uint8_t> dims(t.dim_order.begin(), t.dim_order.end());
  if (dims.size() != t.dim_order.size() || (!dims.empty() && *dims.rbegin() >= t.sizes.size())) {
    return invalid_program("dim_order is not a permutation of [0, rank)");
  }
  if (t.dynamism == EmitDynamism::DynamicUnbound) {
    return fail(Error::NotSupported,
                  "DYNAMIC_UNBOUND tensors are rejected by the runtime; give upper bounds");
  }
  return Error::Ok;
}

// Where the tensor's data comes from: constant, mutable initial data, external
// name, planned bytes inside their buffer.
Error check_tensor_data(const EmitProgram& program, const EmitMethod& method,
                         const EmitTensor& t) {
  uint64_t nbytes = 0;
  if (!pte_tensor_nbytes(t.scalar_type, t.sizes, &nbytes)) {
    return invalid_program("sizes are negative or their byte size overflows");
  }
  if (t.constant_index >= 0) {
    if (static_cast<size_t>(t.constant_index) >= program.constants.size()) {
      return invalid_program("constant_index " + std::to_string(t.constant_index) +
                             " out of range, the program has " +
                             std::to_string(program.constants.size()) + " constant(s)");
    }
    if (t.memory_id != 0 || t.mutable_data_index >= 0 || t.external) {
      return invalid_program("a constant tensor cannot be planned, mutable or external");
    }
    if (program.constants[t.constant_index].size() < nbytes) {
      return invalid_program("constant " + std::to_string(t.constant_index) + " has " +
                             std::to_string(program.constants[t.constant_index].size()) +
                             " bytes, the tensor needs " + std::to_string(nbytes));
    }
  }
  if (t.mutable_data_index >= 0) {
    if (static_cast<size_t>(t.mutable_data_index) >= program.mutable_data.size()) {
      return invalid_program("mutable_data_index " + std::to_string(t.mutable_data_index) +
                             " out of range, the program has " +
                             std::to_string(program.mutable_data.size()) + " entries");
    }
    if (t.memory_id == 0) {
      return invalid_program("a tensor with mutable initial data must be planned");
    }
  }
  if (t.external && t.fully_qualified_name.empty()) {
    return invalid_program("an external tensor needs a fully_qualified_name");
  }
  if (t.memory_id != 0) {
    const std::vector<int64_t>& buffers = method.non_const_buffer_sizes;
    if (t.memory_id >= buffers.size()) {
      return invalid_program("memory_id " + std::to_string(t.memory_id) +
                             " out of range, the method plans " +
                             std::to_string(buffers.size() - 1) + " buffer(s)");
    }
    uint64_t capacity = static_cast<uint64_t>(buffers[t.memory_id]);
    if (t.memory_offset > capacity || nbytes > capacity - t.memory_offset) {
      return invalid_program("planned at offset " + std::to_string(t.memory_offset) + " with " +
                             std::to_string(nbytes) + " bytes, past buffer " +
                             std::to_string(t.memory_id) + " of " + std::to_string(capacity) +
                             " bytes");
    }
  }
  return Error::Ok;
}

Error check_list(const EmitMethod& method, size_t self, const EmitValue& v) {
  EmitValueKind want =
      v.kind == EmitValueKind::IntList ? EmitValueKind::Int : EmitValueKind::Tensor;
  const char* want_name = want == EmitValueKind::Int ? "Int" : "Tensor";
  for (size_t k = 0; k < v.indices.size(); ++k) {
    int64_t idx = v.indices[k];
    if (idx == -1 && v.kind == EmitValueKind::OptionalTensorList) continue;
    if (idx < 0 || static_cast<size_t>(idx) >= self) {
      return invalid_program("item " + std::to_string(k) + " is value " + std::to_string(idx) +
                             "; list elements must be earlier values "
                             "(index < " +
                             std::to_string(self) + ")");
    }
    if (method.values[idx].kind != want) {
      return invalid_program("item " + std::to_string(k) + " (value " + std::to_string(idx) +
                             ") must be a " + want_name + " value");
    }
  }
  return Error::Ok;
}

Error check_index(int64_t idx, size_t count, const std::string& what) {
  if (idx < 0 || static_cast<uint64_t>(idx) >= count) {
    return invalid_program(what + " " + std::to_string(idx) + " out of range [0, " +
                           std::to_string(count) + ")");
  }
  return Error::Ok;
}

Error check_instruction(const EmitMethod& method, const EmitInstruction& in) {
  size_t n_values = method.values.size();
  switch (in.kind) {
    case EmitInstructionKind::KernelCall:
      EMBER_TRY(check_index(in.index, method.operators.size(), "op_index"));
      break;
    case EmitInstructionKind::DelegateCall:
      EMBER_TRY(check_index(in.index, method.delegates.size(), "delegate_index"));
      break;
    case EmitInstructionKind::MoveCall:
      EMBER_TRY(check_index(in.index, n_values, "move_from"));
      EMBER_TRY(check_index(in.target, n_values, "move_to"));
      break;
    case EmitInstructionKind::JumpFalseCall:
      EMBER_TRY(check_index(in.index, n_values, "cond_value_index"));
      EMBER_TRY(
          check_index(in.target, method.instructions.size(), "destination_instruction"));
      break;
    case EmitInstructionKind::FreeCall:
      EMBER_TRY(check_index(in.index, n_values, "value_index"));
      if (method.values[in.index].kind != EmitValueKind::Tensor) {
        return invalid_program("FreeCall of value " + std::to_string(in.index) +
                               ", which is not a Tensor");
      }
      break;
  }
  for (int32_t arg : in.args) EMBER_TRY(check_index(arg, n_values, "arg value"));
  return Error::Ok;
}

Error check_method(const EmitProgram& program, const EmitMethod& method) {
  const std::vector<int64_t>& buffers = method.non_const_buffer_sizes;
  if (buffers.empty() || buffers[0] != 0) {
    return invalid_program("non_const_buffer_sizes must start with the placeholder 0");
  }
  for (size_t b = 0; b < buffers.size(); ++b) {
    if (buffers[b] < 0) return invalid_program("buffer " + std::to_string(b) + " size < 0");
  }
  for (size_t i = 0; i < method.values.size(); ++i) {
    const EmitValue& v = method.values[i];
    Error s = Error::Ok;
    if (v.kind == EmitValueKind::Tensor) {
      s = check_tensor_shape(v.tensor);
      if (s == Error::Ok) s = check_tensor_data(program, method, v.tensor);
    }
    if (v.kind == EmitValueKind::IntList || v.kind == EmitValueKind::TensorList ||
        v.kind == EmitValueKind::OptionalTensorList) {
      s = check_list(method, i, v);
    }
    if (s != Error::Ok) return annotate(s, value_at(i));
  }
  for (int32_t in : method.inputs)
    EMBER_TRY(check_index(in, method.values.size(), "input value"));
  for (int32_t out : method.outputs)
    EMBER_TRY(check_index(out, method.values.size(), "output value"));
  for (size_t k = 0; k < method.operators.size(); ++k) {
    if (method.operators[k].name.empty()) {
      return invalid_program("operator " + std::to_string(k) + " has an empty name");
    }
  }
  for (size_t k = 0; k < method.delegates.size(); ++k) {
    if (method.delegates[k].id.empty()) {
      return invalid_program("delegate " + std::to_string(k) + " has an empty id");
    }
  }
  for (size_t k = 0; k < method.instructions.size(); ++k) {
    Error s = check_instruction(method, method.instructions[k]);
    if (s != Error::Ok) return annotate(s, "instruction " + std::to_string(k));
  }
  return Error::Ok;
}

}  // namespace

Error validate_emit_program(const EmitProgram& program) {
  std::set<std::string> names;
  for (const EmitMethod& method : program.methods) {
    if (method.name.empty()) return invalid_program("a method has an empty name");
    if (!names.insert(method.name).second) {
      return invalid_program("method name '" + method.name + "' is used twice");
    }
    Error s = check_method(program, method);
    if (s != Error::Ok) return annotate(s, "method " + method.name);
  }
  for (const NamedData& item : program.named_data) {
    if (item.key.empty()) return invalid_program("a named data entry has an empty key");
  }
  return Error::Ok;
}

}  // namespace ember::aot
