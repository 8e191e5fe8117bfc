// XnnpackPartitioner: the XNNPACK delegate's answer to the to_backend stage
// (aot/backend/partitioner.h). supports() is xnnpack_support() (xnnpack_support.h: op,
// dtype, shape and attribute checks with a reason for every refusal); preprocess()
// lowers the subgraph with SerializeContext (serialize_context.h: NCHW at the delegate boundary,
// NHWC inside, transposes only where a layout-sensitive op needs them) and serializes it
// as an XH00 blob. Constants go where upstream's exporter puts them: into the program's
// named_data, keyed by the SHA-256 hex of their bytes (shared across delegate calls and
// methods). The compile spec "xnnpack.constants" = "inline" puts them into the blob's own
// constant region instead (the older layout; one self-contained blob per call).
//
//   RecipeRegistry recipes;
//   register_builtin_recipes(&recipes);
//   ember::backends::xnnpack::register_xnnpack_recipe(&recipes);   // adds "xnnpack"
#pragma once

#include <cstdint>
#include <vector>

#include "aot/backend/partitioner.h"
#include "aot/recipe/recipe.h"
#include "backends/xnnpack/aot/dynamic_quant.h"
#include "backends/xnnpack/aot/xnnpack_graph_builder.h"

namespace ember::backends::xnnpack {

// What the compile specs select for the serializer.
struct SerializeOptions {
  bool dynamic_weights = false;
  WeightScheme scheme = WeightScheme::Int8PerChannel;
  uint32_t block_size = 0;
};

// Compile spec selecting where constants go: "named_data" (default) or "inline".
inline constexpr const char* kConstantsSpec = "xnnpack.constants";
// Compile spec turning on dynamic quantization of fully-connected weights (activations stay
// fp32, quantized per row at run time): "int8" (per channel), "int4" (per channel),
// "int4-b32", "int4-b64", "int4-b128" (per block of input channels); all symmetric.
inline constexpr const char* kDynamicWeightsSpec = "xnnpack.dq_weights";

class XnnpackPartitioner final : public aot::Partitioner {
 public:
  using aot::Partitioner::Partitioner;
  const char* name() const override { return "xnnpack"; }
  const char* backend_id() const override { return "XnnpackBackend"; }
  aot::Support supports(const aot::Node& node, const aot::Graph& graph) const override;
  // InvalidArgument for an unknown spec key or value.
  aot::Result<aot::PreprocessResult> preprocess(
      const aot::Graph& subgraph, const std::vector<aot::CompileSpec>& compile_specs) const override;
};

// Lowers a subgraph to an XnnpackBackend blob (what preprocess() returns).
aot::Result<XnnpackBlob> serialize_to_xnnpack(const aot::Graph& subgraph,
                                              ConstantPlacement placement,
                                              SerializeOptions options = {});

// Registers the "xnnpack" recipe: the portable pipeline with XnnpackPartitioner at
// to_backend (everything it supports is delegated; the rest runs on portable kernels),
// constructed with the recipe options' compile specs. Also the dynamic-quantization recipes
// "xnnpack-dq-w8" (int8 weights per channel) and "xnnpack-dq-w4-b32" / "-b64" / "-b128" (4-bit
// weights per block): "xnnpack" with the compile spec xnnpack.dq_weights set; and their LLM
// names "xnnpack-8da8w" (= dq-w8) and "xnnpack-8da4w" (= dq-w4-b32), "-8da4w-b64", "-8da4w-b128".
aot::Error register_xnnpack_recipe(aot::RecipeRegistry* registry);

}  // namespace ember::backends::xnnpack
