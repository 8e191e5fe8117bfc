// Small constructors for EmitValue and EmitInstruction (see emit_program.h).
#include "aot/emit/emit_program.h"

#include <utility>

namespace ember::aot {

EmitValue EmitValue::none() { return EmitValue(); }

EmitValue EmitValue::of_int(int64_t v) {
  EmitValue value;
  value.kind = EmitValueKind::Int;
  value.int_value = v;
  return value;
}

EmitValue EmitValue::of_double(double v) {
  EmitValue value;
  value.kind = EmitValueKind::Double;
  value.double_value = v;
  return value;
}

EmitValue EmitValue::of_bool(bool v) {
  EmitValue value;
  value.kind = EmitValueKind::Bool;
  value.bool_value = v;
  return value;
}

EmitValue EmitValue::of_string(std::string v) {
  EmitValue value;
  value.kind = EmitValueKind::String;
  value.string_value = std::move(v);
  return value;
}

EmitValue EmitValue::of_tensor(EmitTensor t) {
  EmitValue value;
  value.kind = EmitValueKind::Tensor;
  value.tensor = std::move(t);
  return value;
}

EmitValue EmitValue::of_list(EmitValueKind kind, std::vector<int64_t> value_indices) {
  EmitValue value;
  value.kind = kind;
  value.indices = std::move(value_indices);
  return value;
}

EmitValue EmitValue::of_doubles(std::vector<double> v) {
  EmitValue value;
  value.kind = EmitValueKind::DoubleList;
  value.doubles = std::move(v);
  return value;
}

EmitValue EmitValue::of_bools(std::vector<bool> v) {
  EmitValue value;
  value.kind = EmitValueKind::BoolList;
  value.bools = std::move(v);
  return value;
}

EmitInstruction EmitInstruction::kernel(int32_t op_index, std::vector<int32_t> args) {
  EmitInstruction instruction;
  instruction.kind = EmitInstructionKind::KernelCall;
  instruction.index = op_index;
  instruction.args = std::move(args);
  return instruction;
}

EmitInstruction EmitInstruction::delegate(int32_t delegate_index, std::vector<int32_t> args) {
  EmitInstruction instruction;
  instruction.kind = EmitInstructionKind::DelegateCall;
  instruction.index = delegate_index;
  instruction.args = std::move(args);
  return instruction;
}

EmitInstruction EmitInstruction::move(int32_t from, int32_t to) {
  EmitInstruction instruction;
  instruction.kind = EmitInstructionKind::MoveCall;
  instruction.index = from;
  instruction.target = to;
  return instruction;
}

EmitInstruction EmitInstruction::jump_false(int32_t cond_value, int32_t destination) {
  EmitInstruction instruction;
  instruction.kind = EmitInstructionKind::JumpFalseCall;
  instruction.index = cond_value;
  instruction.target = destination;
  return instruction;
}

EmitInstruction EmitInstruction::free(int32_t value_index) {
  EmitInstruction instruction;
  instruction.kind = EmitInstructionKind::FreeCall;
  instruction.index = value_index;
  return instruction;
}

}  // namespace ember::aot
