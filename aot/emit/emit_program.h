// The emit-level description of a program: plain structs that say exactly what
// goes into a .pte, independent of the graph IR. The emit stage
// (emit_graph) fills an EmitProgram from the graph; write_pte() (pte_writer.h) turns it
// into bytes. Everything is by index, as in the file: values are referred to by
// their position in EmitMethod::values, operators by their position in
// EmitMethod::operators, and so on. Constant, mutable-initial and named-data bytes
// live once at program level and tensors refer to them by 0-based index;
// the writer de-duplicates them and adds the reserved index-0 placeholders the
// format needs. See shared/docs/pte-format.md sections 1.4-1.5 for the meaning of
// each field.
//
// What upstream's emitter does and emit_graph should reproduce (pte-format.md 1.5,
// 4.2): methods sorted by name, constant getters after them; operators
// de-duplicated per method by (name, overload), overload "" for `default`;
// KernelCall args = every schema argument in order with defaults filled in (a
// new EValue per constant argument, no sharing), then one return slot repeating
// `out` (a TensorList of the outs when there are several); None is kNone, except
// for a plain `Tensor` argument (an empty BYTE tensor, sizes [0], dim_order [0]);
// dtypes, layouts and memory formats are kInt codes; int lists are kIntList of
// kInt values emitted before the list; DelegateCall args = the delegate's inputs
// then its outputs; list elements always precede their list. Memory planning
// (aot/planning) gives memory_id / memory_offset and non_const_buffer_sizes.
#pragma once

#include "aot/backend/backend_data.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ember::aot {

// Tensor shape dynamism, same codes as the schema's TensorShapeDynamism.
enum class EmitDynamism : uint8_t { Static = 0, DynamicBound = 1, DynamicUnbound = 2 };

struct EmitTensor {
  int8_t scalar_type = 6;          // ScalarType code (pte-format.md 1.6); 6 = FLOAT
  std::vector<int32_t> sizes;      // upper bounds when kDynamicBound; [] for a scalar
  std::vector<uint8_t> dim_order;  // same length as sizes; [0..n) is contiguous
  EmitDynamism dynamism = EmitDynamism::Static;
  bool requires_grad = false;
  // Index into EmitProgram::constants, or -1. A constant tensor has no allocation.
  int32_t constant_index = -1;
  // Memory plan: planned when memory_id >= 1 (1-based buffer id; the offset is in
  // bytes inside EmitMethod::non_const_buffer_sizes[memory_id]). 0 = not planned.
  uint32_t memory_id = 0;
  uint64_t memory_offset = 0;
  // Index into EmitProgram::mutable_data (initial contents of a planned mutable
  // buffer), or -1. Requires memory_id >= 1.
  int32_t mutable_data_index = -1;
  // ExtraTensorInfo: written when fully_qualified_name is non-empty or external.
  std::string fully_qualified_name;
  // Data comes from a named data map (.ptd) keyed by the name. The writer sets
  // data_buffer_idx to a 0-based index per distinct name (first appearance order),
  // as upstream does; the runtime ignores it.
  bool external = false;
};

enum class EmitValueKind : uint8_t {
  None,                // Null EValue
  Int,                 // int_value
  Double,              // double_value
  Bool,                // bool_value
  String,              // string_value
  Tensor,              // tensor
  IntList,             // indices: value indices of Int values
  DoubleList,          // doubles: literal values
  BoolList,            // bools: literal values
  TensorList,          // indices: value indices of Tensor values
  OptionalTensorList,  // indices: Tensor value indices, -1 = None
};

struct EmitValue {
  EmitValueKind kind = EmitValueKind::None;
  int64_t int_value = 0;
  double double_value = 0;
  bool bool_value = false;
  std::string string_value;
  EmitTensor tensor;
  std::vector<int64_t> indices;  // IntList / TensorList / OptionalTensorList items
  std::vector<double> doubles;
  std::vector<bool> bools;

  static EmitValue none();
  static EmitValue of_int(int64_t v);
  static EmitValue of_double(double v);
  static EmitValue of_bool(bool v);
  static EmitValue of_string(std::string v);
  static EmitValue of_tensor(EmitTensor t);
  static EmitValue of_list(EmitValueKind kind, std::vector<int64_t> value_indices);
  static EmitValue of_doubles(std::vector<double> v);
  static EmitValue of_bools(std::vector<bool> v);
};

// Operator table entry; lookup key at run time is "name.overload" (name alone if
// overload is empty; the emitter writes "" for `default`).
struct EmitOperator {
  std::string name;      // e.g. "aten::add"
  std::string overload;  // e.g. "out"
};

enum class EmitInstructionKind : uint8_t {
  KernelCall,     // index = op_index, args = schema args + 1 return slot
  DelegateCall,   // index = delegate_index, args = inputs then outputs
  MoveCall,       // index = move_from, target = move_to
  JumpFalseCall,  // index = cond_value_index, target = destination_instruction
  FreeCall,       // index = value_index
};

struct EmitInstruction {
  EmitInstructionKind kind = EmitInstructionKind::KernelCall;
  int32_t index = 0;
  int32_t target = 0;
  std::vector<int32_t> args;

  static EmitInstruction kernel(int32_t op_index, std::vector<int32_t> args);
  static EmitInstruction delegate(int32_t delegate_index, std::vector<int32_t> args);
  static EmitInstruction move(int32_t from, int32_t to);
  static EmitInstruction jump_false(int32_t cond_value, int32_t destination);
  static EmitInstruction free(int32_t value_index);
};

struct EmitDelegate {
  std::string id;                  // backend name registered at run time
  std::vector<uint8_t> processed;  // the preprocessed blob
  std::vector<CompileSpec> compile_specs;
};

// Provenance of one instruction: the node it was emitted from and, for a delegate call, the
// nodes the backend took over (in graph order).
struct EmitInstructionDebug {
  NodeProvenance origin;
  std::string backend;                     // delegate calls: the backend id
  std::vector<NodeProvenance> delegated;   // delegate calls: the nodes inside, in order
  int32_t num_outputs = 0;                 // delegate calls: how many trailing args are outputs
};

struct EmitMethod {
  std::string name;
  std::vector<EmitValue> values;
  std::vector<int32_t> inputs;   // value indices
  std::vector<int32_t> outputs;  // value indices
  std::vector<EmitOperator> operators;
  std::vector<EmitInstruction> instructions;  // written as the method's one chain
  // Provenance, one entry per instruction when the emitter filled it (else empty); not
  // written into the .pte.
  std::vector<EmitInstructionDebug> debug;
  // The value index of each graph value (by ValueId; -1: not emitted), when the emitter filled
  // it; not written into the .pte.
  std::vector<int32_t> value_index;
  std::vector<EmitDelegate> delegates;
  // Bytes per planned buffer, entry 0 the placeholder 0: [0] when nothing is
  // planned, [0, arena] for the usual single arena.
  std::vector<int64_t> non_const_buffer_sizes{0};
  // Optional pytree specs (ContainerMetadata); not written when both are empty.
  std::string encoded_inp_str;
  std::string encoded_out_str;
};

struct EmitProgram {
  // Written in this order. Upstream sorts methods by name and appends constant
  // getters after them; emit_graph decides the order.
  std::vector<EmitMethod> methods;
  std::vector<std::vector<uint8_t>> constants;     // EmitTensor::constant_index
  std::vector<std::vector<uint8_t>> mutable_data;  // EmitTensor::mutable_data_index
  std::vector<NamedData> named_data;
};

}  // namespace ember::aot
