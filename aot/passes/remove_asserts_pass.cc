// RemoveAssertsPass (see remove_asserts_pass.h).
#include "aot/passes/remove_asserts_pass.h"

#include <algorithm>

namespace ember::aot {
namespace {

bool is_assert(const Node& n) {
  if (n.kind != NodeKind::Op || n.op.ns != "aten") return false;
  return n.op.name == "_assert_scalar" || n.op.name == "_assert_tensor_metadata" ||
         n.op.name == "_assert_async" || n.op.name == "sym_constrain_range" ||
         n.op.name == "sym_constrain_range_for_size";
}

}  // namespace

Error RemoveAssertsPass::run(Graph& graph) const {
  auto& nodes = graph.nodes();
  nodes.erase(std::remove_if(nodes.begin(), nodes.end(), is_assert), nodes.end());
  return Error::Ok;
}

}  // namespace ember::aot
