// DemoPartitioner and the "demo" recipe (see demo_partitioner.h).
#include "backends/demo/aot/demo_partitioner.h"

#include <algorithm>

#include "backends/demo/aot/demo_compiler.h"
#include "backends/demo/aot/demo_ops.h"

namespace ember::backends::demo {

aot::Support DemoPartitioner::supports(const aot::Node& node, const aot::Graph& graph) const {
  const DemoOp* op = find_demo_op(node);
  if (op != nullptr && !ops_.empty() &&
      std::find(ops_.begin(), ops_.end(), op->short_name) == ops_.end()) {
    return aot::Support::no(std::string("'") + op->short_name + "' not in this partitioner's op list");
  }
  return demo_support(node, graph);
}

aot::StatusOr<std::vector<uint8_t>> DemoPartitioner::preprocess(const aot::Graph& subgraph) const {
  return compile_subgraph(subgraph);
}

aot::Status register_demo_recipe(aot::RecipeRegistry* registry) {
  return registry->register_recipe("demo", [](const aot::RecipeOptions&) -> aot::StatusOr<aot::Recipe> {
    aot::Recipe r;
    r.name = "demo";
    r.partitioners.push_back(std::make_shared<DemoPartitioner>());
    return r;
  });
}

}  // namespace ember::backends::demo
