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

// The demo compiler takes no specs; they still reach DemoBackend::init through the program.
aot::Result<aot::PreprocessResult> DemoPartitioner::preprocess(
    const aot::Graph& subgraph, const std::vector<aot::CompileSpec>&) const {
  aot::PreprocessResult result;
  EMBER_ASSIGN_OR_RETURN(result.processed, compile_subgraph(subgraph));
  return result;
}

aot::Error register_demo_recipe(aot::RecipeRegistry* registry) {
  return registry->register_recipe("demo", [](const aot::RecipeOptions& options) -> aot::Result<aot::Recipe> {
    aot::Recipe r;
    r.name = "demo";
    r.partitioners.push_back(std::make_shared<DemoPartitioner>(std::vector<std::string>{}, options.compile_specs));
    return r;
  });
}

}  // namespace ember::backends::demo
