// Small helpers every rewriting pass needs: fresh value names, new tensor values with
// contiguous layout, new op nodes that keep the origin's provenance (name prefix, stack
// trace), replacing the uses of one value by another, use counts, removing nodes, and reading a node's
// arguments through its schema (defaults filled in).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "aot/ir/graph.h"
#include "aot/ir/graph_util.h"  // for_each_value
#include "aot/ir/op_schema.h"

namespace ember::aot {

// `base` if unused in `graph`, else base_1, base_2, ... (deterministic).
std::string fresh_value_name(const Graph& graph, const std::string& base);

// Contiguous TensorSpec of `dtype` and `sizes` (strides and identity dim order filled in).
TensorSpec contiguous_spec(ScalarType dtype, std::vector<SymInt> sizes);
std::vector<SymInt> static_sizes(const std::vector<int64_t>& sizes);

// Adds a tensor value called fresh_value_name(base) with `spec`.
Result<ValueId> add_tensor_value(Graph& graph, const std::string& base, TensorSpec spec);

// An op node `ns::name.overload` with the given inputs/outputs; copies origin's stack trace
// and metadata so error messages keep pointing at the user's source line.
Node make_op_node(const std::string& ns, const std::string& name, const std::string& overload,
                  std::vector<NamedArgument> inputs, std::vector<Argument> outputs,
                  const Node& origin);

// Makes constant value `v` a lifted parameter: a graph input placed before the user inputs
// (torch.export's placeholder order), with a Parameter input spec named after the value.
void lift_as_parameter(Graph& graph, ValueId v);

// Replaces every use of `from` by `to` in nodes [first_node, end) and in graph outputs.
void replace_uses(Graph& graph, ValueId from, ValueId to, size_t first_node = 0);

// Number of uses of each value (node inputs and graph outputs).
std::vector<int32_t> use_counts(const Graph& graph);

// Removes the nodes whose entry in `drop` (one per node) is true, keeping the others' order.
void remove_nodes(Graph& graph, const std::vector<bool>& drop);

// The node's full argument list in schema order (defaults filled in), or the error from
// bind_arguments; NotSupported naming the node when its op has no schema.
Result<std::vector<Argument>> bound_arguments(const Node& node, const OpSchema** schema = nullptr);
// The same, looking the schema up with find_op_schema (built-in, then the graph's custom ops).
Result<std::vector<Argument>> bound_arguments(const Graph& graph, const Node& node,
                                              const OpSchema** schema = nullptr);

// Static integers of an int list / SymInt list argument (an int argument gives one element).
// NotSupported when an element is symbolic.
Result<std::vector<int64_t>> static_int_list(const Argument& arg, const Node& node,
                                               const char* what);

// The tensor value of a graph output / node input; kNoValue when not a tensor argument.
inline ValueId tensor_of(const Argument& arg) {
  return arg.kind == ArgKind::Tensor ? arg.values[0] : kNoValue;
}

// The tensor passed to `node` as its input named `name`; kNoValue when absent or not a tensor.
inline ValueId optional_tensor_input(const Node& node, const char* name) {
  const NamedArgument* a = node.find_input(name);
  return a == nullptr ? kNoValue : tensor_of(a->arg);
}

// Whether `node` calls aten::name.overload.
inline bool is_aten_op(const Node& node, const char* name, const char* overload) {
  return node.kind == NodeKind::Op && node.op.ns == "aten" && node.op.name == name &&
         node.op.overload == overload;
}

// Whether `node` reads a size or a value out of a tensor as a scalar (aten::sym_size.int,
// sym_numel, _local_scalar_dense, and item, the training-IR spelling of _local_scalar_dense):
// no out variant, emitted as upstream's prim kernels of the same names.
inline bool is_scalar_read_op(const Node& node) {
  return node.op.ns == "aten" && (node.op.name == "sym_size" || node.op.name == "sym_numel" ||
                                  node.op.name == "_local_scalar_dense" || node.op.name == "item");
}

}  // namespace ember::aot
