// XnnpackPartitioner: the XNNPACK delegate's answer to the to_backend stage
// (aot/backend/partitioner.h). supports() is xnnpack_support() (xnn_support.h: op,
// dtype, shape and attribute checks with a reason for every refusal); preprocess()
// lowers the subgraph with LowerContext (lower_context.h: NCHW at the delegate boundary,
// NHWC inside, transposes only where a layout-sensitive op needs them) and serializes it
// as an XH00 blob with the constants in the blob's constant region. Stateless.
//
//   RecipeRegistry recipes;
//   register_builtin_recipes(&recipes);
//   ember::backends::xnnpack::register_xnnpack_recipe(&recipes);   // adds "xnnpack"
#pragma once

#include <cstdint>
#include <vector>

#include "aot/backend/partitioner.h"
#include "aot/recipe/recipe.h"
#include "backends/xnnpack/aot/xnn_graph_builder.h"

namespace ember::backends::xnnpack {

class XnnpackPartitioner final : public aot::Partitioner {
 public:
  const char* name() const override { return "xnnpack"; }
  const char* backend_id() const override { return "XnnpackBackend"; }
  aot::Support supports(const aot::Node& node, const aot::Graph& graph) const override;
  aot::StatusOr<std::vector<uint8_t>> preprocess(const aot::Graph& subgraph) const override;
};

// Lowers a subgraph to an XnnpackBackend blob (what preprocess() returns with kInline).
aot::StatusOr<XnnBlob> lower_to_xnnpack(const aot::Graph& subgraph, ConstantPlacement placement);

// Registers the "xnnpack" recipe: the portable pipeline with XnnpackPartitioner at
// to_backend (everything it supports is delegated; the rest runs on portable kernels).
aot::Status register_xnnpack_recipe(aot::RecipeRegistry* registry);

}  // namespace ember::backends::xnnpack
