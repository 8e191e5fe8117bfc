// Argument: one node input or output, or one graph input/output.
//
// Mirrors the torch.export Argument union in a flat struct: the kind says which fields
// are meaningful. References to graph values (tensors, symbolic scalars) are ValueIds;
// constants are stored inline. Lists of SymInt may mix literals and values: for
// kSymIntList, ints[k] holds the literal and values[k] == kNoValue, or values[k] names
// a SymInt value. kOptionalTensorList uses kNoValue for None entries.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "aot/ir/scalar_type.h"
#include "aot/ir/value.h"

namespace ember::aot {

enum class ArgKind : uint8_t {
  None,
  Tensor,              // values[0]
  TensorList,          // values
  OptionalTensorList,  // values, NoValue = None
  Int,                 // i
  IntList,             // ints
  Float,               // f
  FloatList,           // floats
  Bool,                // b
  BoolList,            // ints (0/1)
  String,              // s
  StringList,          // strings
  ScalarType,          // dtype
  MemoryFormat,  // i: 0 unknown, 1 contiguous, 2 channels_last, 3 channels_last_3d, 4 preserve
  Layout,        // i: 7 strided
  Device,        // s = type ("cpu"), i = index or -1
  SymInt,        // values[0] or (values empty) literal i
  SymIntList,    // ints + values (see above)
  SymFloat,      // values[0] or literal f
  SymBool,       // values[0] or literal b
  CustomObj,     // values[0]
  Operator,      // s = target
};

const char* to_string(ArgKind kind);

struct Argument {
  ArgKind kind = ArgKind::None;
  int64_t i = 0;
  double f = 0.0;
  bool b = false;
  ScalarType dtype = ScalarType::Undefined;
  std::string s;
  std::vector<int64_t> ints;
  std::vector<double> floats;
  std::vector<std::string> strings;
  std::vector<ValueId> values;

  static Argument none() { return Argument(); }
  static Argument tensor(ValueId v);
  static Argument tensor_list(std::vector<ValueId> v);
  static Argument integer(int64_t v);
  static Argument int_list(std::vector<int64_t> v);
  static Argument floating(double v);
  static Argument float_list(std::vector<double> v);
  static Argument boolean(bool v);
  static Argument string(std::string v);
  static Argument scalar_type(ScalarType t);

  bool is_value_ref() const {
    return kind == ArgKind::Tensor || kind == ArgKind::CustomObj ||
           ((kind == ArgKind::SymInt || kind == ArgKind::SymFloat || kind == ArgKind::SymBool) &&
            !values.empty());
  }
  // The single referenced value (kTensor, kCustomObj, symbolic scalars), else kNoValue.
  ValueId value() const { return is_value_ref() ? values[0] : kNoValue; }
};

}  // namespace ember::aot
