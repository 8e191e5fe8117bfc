// XnnpackPartitioner and the "xnnpack" recipe (see xnnpack_partitioner.h).
#include "backends/xnnpack/aot/xnnpack_partitioner.h"

#include "backends/xnnpack/aot/lower_context.h"
#include "backends/xnnpack/aot/xnn_support.h"

namespace ember::backends::xnnpack {

aot::Support XnnpackPartitioner::supports(const aot::Node& node, const aot::Graph& graph) const {
  return xnnpack_support(node, graph);
}

aot::StatusOr<XnnBlob> lower_to_xnnpack(const aot::Graph& subgraph, ConstantPlacement placement) {
  LowerContext ctx(subgraph);
  EMBER_AOT_RETURN_IF_ERROR(ctx.run());
  return ctx.builder().serialize(placement);
}

aot::StatusOr<std::vector<uint8_t>> XnnpackPartitioner::preprocess(const aot::Graph& subgraph) const {
  EMBER_AOT_ASSIGN_OR_RETURN(XnnBlob blob, lower_to_xnnpack(subgraph, ConstantPlacement::kInline));
  return std::move(blob.bytes);
}

aot::Status register_xnnpack_recipe(aot::RecipeRegistry* registry) {
  return registry->register_recipe("xnnpack", [](const aot::RecipeOptions&) -> aot::StatusOr<aot::Recipe> {
    aot::Recipe r;
    r.name = "xnnpack";
    r.partitioners.push_back(std::make_shared<XnnpackPartitioner>());
    return r;
  });
}

}  // namespace ember::backends::xnnpack
