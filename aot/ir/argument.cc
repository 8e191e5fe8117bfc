// Argument constructors and kind names.
#include "aot/ir/argument.h"

#include <utility>

namespace ember::aot {

const char* to_string(ArgKind kind) {
  switch (kind) {
    case ArgKind::kNone:
      return "None";
    case ArgKind::kTensor:
      return "Tensor";
    case ArgKind::kTensorList:
      return "Tensor[]";
    case ArgKind::kOptionalTensorList:
      return "Tensor?[]";
    case ArgKind::kInt:
      return "int";
    case ArgKind::kIntList:
      return "int[]";
    case ArgKind::kFloat:
      return "float";
    case ArgKind::kFloatList:
      return "float[]";
    case ArgKind::kBool:
      return "bool";
    case ArgKind::kBoolList:
      return "bool[]";
    case ArgKind::kString:
      return "str";
    case ArgKind::kStringList:
      return "str[]";
    case ArgKind::kScalarType:
      return "ScalarType";
    case ArgKind::kMemoryFormat:
      return "MemoryFormat";
    case ArgKind::kLayout:
      return "Layout";
    case ArgKind::kDevice:
      return "Device";
    case ArgKind::kSymInt:
      return "SymInt";
    case ArgKind::kSymIntList:
      return "SymInt[]";
    case ArgKind::kSymFloat:
      return "SymFloat";
    case ArgKind::kSymBool:
      return "SymBool";
    case ArgKind::kCustomObj:
      return "CustomObj";
    case ArgKind::kOperator:
      return "Operator";
  }
  return "unknown";
}

Argument Argument::tensor(ValueId v) {
  Argument a;
  a.kind = ArgKind::kTensor;
  a.values = {v};
  return a;
}
Argument Argument::tensor_list(std::vector<ValueId> v) {
  Argument a;
  a.kind = ArgKind::kTensorList;
  a.values = std::move(v);
  return a;
}
Argument Argument::integer(int64_t v) {
  Argument a;
  a.kind = ArgKind::kInt;
  a.i = v;
  return a;
}
Argument Argument::int_list(std::vector<int64_t> v) {
  Argument a;
  a.kind = ArgKind::kIntList;
  a.ints = std::move(v);
  return a;
}
Argument Argument::floating(double v) {
  Argument a;
  a.kind = ArgKind::kFloat;
  a.f = v;
  return a;
}
Argument Argument::float_list(std::vector<double> v) {
  Argument a;
  a.kind = ArgKind::kFloatList;
  a.floats = std::move(v);
  return a;
}
Argument Argument::boolean(bool v) {
  Argument a;
  a.kind = ArgKind::kBool;
  a.b = v;
  return a;
}
Argument Argument::string(std::string v) {
  Argument a;
  a.kind = ArgKind::kString;
  a.s = std::move(v);
  return a;
}
Argument Argument::scalar_type(ScalarType t) {
  Argument a;
  a.kind = ArgKind::kScalarType;
  a.dtype = t;
  return a;
}

}  // namespace ember::aot
