// Values of the AoT graph: every named thing a node produces or a graph input provides.
//
// A Value is identified by a ValueId (its index in Graph::values()); ids stay valid for
// the life of the graph (values are never removed, dead ones are simply unused). Tensor
// values carry a TensorSpec; symbolic scalars (SymInt/SymFloat/SymBool produced by
// aten.sym_size.int, _operator.mul, ...) carry their expression in `sym`. Plain
// constants (ints, lists, dtypes...) are not Values: they live inline in Argument.
#pragma once

#include <cstdint>
#include <string>

#include "aot/ir/sym_int.h"
#include "aot/ir/tensor_spec.h"

namespace ember::aot {

using ValueId = int32_t;
constexpr ValueId kNoValue = -1;

enum class ValueKind : uint8_t {
  Tensor,
  SymInt,
  SymFloat,
  SymBool,
  CustomObj,  // a TorchBind object (rejected by later stages)
  None,       // an undefined-tensor output slot (as_none outputs)
};

const char* to_string(ValueKind kind);

struct Value {
  std::string name;  // unique in the graph ("conv2d", "p_conv_weight", "sym_size_int_2")
  ValueKind kind = ValueKind::Tensor;
  TensorSpec tensor;      // kTensor
  SymInt sym;             // kSymInt (expr/hint/range), kSymFloat/kSymBool: expr only
  std::string class_fqn;  // kCustomObj
};

inline const char* to_string(ValueKind kind) {
  switch (kind) {
    case ValueKind::Tensor:
      return "tensor";
    case ValueKind::SymInt:
      return "symint";
    case ValueKind::SymFloat:
      return "symfloat";
    case ValueKind::SymBool:
      return "symbool";
    case ValueKind::CustomObj:
      return "custom_obj";
    case ValueKind::None:
      return "none";
  }
  return "unknown";
}

}  // namespace ember::aot
