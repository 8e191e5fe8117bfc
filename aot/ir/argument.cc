// Argument constructors and kind names.
#include "aot/ir/argument.h"

#include <utility>

namespace ember::aot {

const char* to_string(ArgKind kind) {
  switch (kind) {
    case ArgKind::None:
      return "None";
    case ArgKind::Tensor:
      return "Tensor";
    case ArgKind::TensorList:
      return "Tensor[]";
    case ArgKind::OptionalTensorList:
      return "Tensor?[]";
    case ArgKind::Int:
      return "int";
    case ArgKind::IntList:
      return "int[]";
    case ArgKind::Float:
      return "float";
    case ArgKind::FloatList:
      return "float[]";
    case ArgKind::Bool:
      return "bool";
    case ArgKind::BoolList:
      return "bool[]";
    case ArgKind::String:
      return "str";
    case ArgKind::StringList:
      return "str[]";
    case ArgKind::ScalarType:
      return "ScalarType";
    case ArgKind::MemoryFormat:
      return "MemoryFormat";
    case ArgKind::Layout:
      return "Layout";
    case ArgKind::Device:
      return "Device";
    case ArgKind::SymInt:
      return "SymInt";
    case ArgKind::SymIntList:
      return "SymInt[]";
    case ArgKind::SymFloat:
      return "SymFloat";
    case ArgKind::SymBool:
      return "SymBool";
    case ArgKind::CustomObj:
      return "CustomObj";
    case ArgKind::Operator:
      return "Operator";
  }
  return "unknown";
}

Argument Argument::tensor(ValueId v) {
  Argument a;
  a.kind = ArgKind::Tensor;
  a.values = {v};
  return a;
}
Argument Argument::tensor_list(std::vector<ValueId> v) {
  Argument a;
  a.kind = ArgKind::TensorList;
  a.values = std::move(v);
  return a;
}
Argument Argument::integer(int64_t v) {
  Argument a;
  a.kind = ArgKind::Int;
  a.i = v;
  return a;
}
Argument Argument::int_list(std::vector<int64_t> v) {
  Argument a;
  a.kind = ArgKind::IntList;
  a.ints = std::move(v);
  return a;
}
Argument Argument::floating(double v) {
  Argument a;
  a.kind = ArgKind::Float;
  a.f = v;
  return a;
}
Argument Argument::float_list(std::vector<double> v) {
  Argument a;
  a.kind = ArgKind::FloatList;
  a.floats = std::move(v);
  return a;
}
Argument Argument::boolean(bool v) {
  Argument a;
  a.kind = ArgKind::Bool;
  a.b = v;
  return a;
}
Argument Argument::string(std::string v) {
  Argument a;
  a.kind = ArgKind::String;
  a.s = std::move(v);
  return a;
}
Argument Argument::scalar_type(ScalarType t) {
  Argument a;
  a.kind = ArgKind::ScalarType;
  a.dtype = t;
  return a;
}

}  // namespace ember::aot
