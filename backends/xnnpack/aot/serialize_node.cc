// serialize_node dispatch and the argument helpers shared by the serialize_ops_*.cc files.
#include "backends/xnnpack/aot/serialize_context.h"

#include <algorithm>

namespace ember::backends::xnnpack {

using aot::ArgKind;

aot::ValueId input_tensor(const aot::Node& node, const char* name) {
  const aot::NamedArgument* a = node.find_input(name);
  return a != nullptr && a->arg.kind == ArgKind::Tensor ? a->arg.values[0] : aot::kNoValue;
}

aot::ValueId output_tensor(const aot::Node& node, size_t k) {
  return k < node.outputs.size() && node.outputs[k].kind == ArgKind::Tensor ? node.outputs[k].values[0]
                                                                            : aot::kNoValue;
}

double input_double(const aot::Node& node, const char* name, double dflt) {
  const aot::NamedArgument* a = node.find_input(name);
  if (a == nullptr) return dflt;
  switch (a->arg.kind) {
    case ArgKind::Int: case ArgKind::SymInt: return static_cast<double>(a->arg.i);
    case ArgKind::Float: case ArgKind::SymFloat: return a->arg.f;
    case ArgKind::Bool: return a->arg.b ? 1.0 : 0.0;
    default: return dflt;
  }
}

std::vector<int64_t> input_ints(const aot::Node& node, const char* name, std::vector<int64_t> dflt) {
  const aot::NamedArgument* a = node.find_input(name);
  if (a == nullptr) return dflt;
  if (a->arg.kind == ArgKind::Int || a->arg.kind == ArgKind::SymInt) return {a->arg.i};
  if (a->arg.kind == ArgKind::IntList || a->arg.kind == ArgKind::SymIntList) return a->arg.ints;
  return dflt;
}

bool input_bool(const aot::Node& node, const char* name, bool dflt) {
  const aot::NamedArgument* a = node.find_input(name);
  return a != nullptr && a->arg.kind == ArgKind::Bool ? a->arg.b : dflt;
}

std::vector<int64_t> split_lengths(const aot::Node& node, int64_t dim_size) {
  if (node.op.name == "split_with_sizes") return input_ints(node, "split_sizes", {});
  const int64_t each = int64_t(input_double(node, "split_size", 0));
  std::vector<int64_t> lens;
  for (int64_t start = 0; each > 0 && start < dim_size; start += each) {
    lens.push_back(std::min(each, dim_size - start));
  }
  return lens;
}

aot::Error serialize_node(SerializeContext& ctx, const aot::Node& node) {
  aot::Error st = serialize_qdq_op(ctx, node);
  if (st != aot::Error::NotFound) return st;
  st = serialize_nn_op(ctx, node);
  if (st != aot::Error::NotFound) return st;
  st = serialize_elementwise_op(ctx, node);
  if (st != aot::Error::NotFound) return st;
  st = serialize_decomposed_op(ctx, node);
  if (st != aot::Error::NotFound) return st;
  st = serialize_layout_op(ctx, node);
  if (st != aot::Error::NotFound) return st;
  return aot::not_supported("xnnpack lowering: no lowering for " + node.describe());
}

}  // namespace ember::backends::xnnpack
