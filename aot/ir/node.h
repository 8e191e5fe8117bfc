// Node: one operator call of the AoT graph.
//
// target is the ATen operator as namespace, name and overload (aten::add.Tensor);
// inputs are named by the operator-schema argument names exactly as the export wrote
// them (trailing arguments equal to their default may be absent; bind_arguments() in
// op_schema.h fills them in); outputs hold one Argument per schema return (kTensor,
// kTensorList, kSymInt value, or kNone for an undefined return). Metadata keeps the
// export's strings; source_location() extracts the user's "file:line" from stack_trace.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "aot/ir/argument.h"
#include "aot/ir/error.h"

namespace ember::aot {

enum class NodeKind : uint8_t {
  Op,        // an operator overload: torch.ops.<ns>.<name>.<overload>
  Symbolic,  // a Python scalar op on SymInts: _operator.mul, torch.sym_max, math.trunc
};

struct OpName {
  std::string ns;        // "aten"
  std::string name;      // "convolution"
  std::string overload;  // "default", "Tensor", "int"

  // "aten::convolution.default"; symbolic ops: their Python name ("_operator.mul").
  std::string qualified() const;
  bool operator==(const OpName& o) const {
    return ns == o.ns && name == o.name && overload == o.overload;
  }
};

struct NamedArgument {
  std::string name;  // schema argument name ("self", "weight"); "" for positional HOP args
  Argument arg;
  bool keyword = false;  // written as kind KEYWORD
};

struct Node {
  NodeKind kind = NodeKind::Op;
  OpName op;
  std::string target;  // as written in the file: "torch.ops.aten.add.Tensor"
  std::vector<NamedArgument> inputs;
  std::vector<Argument> outputs;

  std::string name;         // FX node name (from the file, or the first output's name)
  std::string stack_trace;  // metadata["stack_trace"], may be empty
  std::map<std::string, std::string> metadata;  // all metadata strings as exported

  // The input named `arg_name`, or nullptr when absent (then the schema default applies).
  const NamedArgument* find_input(const std::string& arg_name) const;
  // "model.py:97" for the innermost frame of user code in stack_trace (the first frame not
  // inside torch itself), "" if unknown.
  std::string source_location() const;
  // "node 'conv2d' (aten::conv2d.default, model.py:97)" for error messages.
  std::string describe() const;
};

// Parses a node target. "torch.ops.aten.add.Tensor" -> kOp {aten, add, Tensor};
// "_operator.mul", "torch.sym_max", "math.trunc", ... -> kSymbolic. Higher-order ops
// (torch.ops.higher_order.*) give Error::NotSupported; anything else Error::InvalidProgram.
Result<std::pair<NodeKind, OpName>> parse_node_target(const std::string& target);

}  // namespace ember::aot
