// lower_node dispatch and the argument helpers shared by the lower_ops_*.cc files.
#include "backends/xnnpack/aot/lower_context.h"

namespace ember::backends::xnnpack {

using aot::ArgKind;

aot::ValueId input_tensor(const aot::Node& node, const char* name) {
  const aot::NamedArgument* a = node.find_input(name);
  return a != nullptr && a->arg.kind == ArgKind::kTensor ? a->arg.values[0] : aot::kNoValue;
}

aot::ValueId output_tensor(const aot::Node& node, size_t k) {
  return k < node.outputs.size() && node.outputs[k].kind == ArgKind::kTensor ? node.outputs[k].values[0]
                                                                            : aot::kNoValue;
}

double input_double(const aot::Node& node, const char* name, double dflt) {
  const aot::NamedArgument* a = node.find_input(name);
  if (a == nullptr) return dflt;
  switch (a->arg.kind) {
    case ArgKind::kInt: case ArgKind::kSymInt: return static_cast<double>(a->arg.i);
    case ArgKind::kFloat: case ArgKind::kSymFloat: return a->arg.f;
    case ArgKind::kBool: return a->arg.b ? 1.0 : 0.0;
    default: return dflt;
  }
}

std::vector<int64_t> input_ints(const aot::Node& node, const char* name, std::vector<int64_t> dflt) {
  const aot::NamedArgument* a = node.find_input(name);
  if (a == nullptr) return dflt;
  if (a->arg.kind == ArgKind::kInt || a->arg.kind == ArgKind::kSymInt) return {a->arg.i};
  if (a->arg.kind == ArgKind::kIntList || a->arg.kind == ArgKind::kSymIntList) return a->arg.ints;
  return dflt;
}

bool input_bool(const aot::Node& node, const char* name, bool dflt) {
  const aot::NamedArgument* a = node.find_input(name);
  return a != nullptr && a->arg.kind == ArgKind::kBool ? a->arg.b : dflt;
}

aot::Error lower_node(LowerContext& ctx, const aot::Node& node) {
  aot::Error st = lower_nn_op(ctx, node);
  if (st != aot::Error::NotFound) return st;
  st = lower_elementwise_op(ctx, node);
  if (st != aot::Error::NotFound) return st;
  st = lower_layout_op(ctx, node);
  if (st != aot::Error::NotFound) return st;
  return aot::not_supported("xnnpack lowering: no lowering for " + node.describe());
}

}  // namespace ember::backends::xnnpack
