// XnnpackPartitioner and the "xnnpack" recipe (see xnnpack_partitioner.h).
#include "backends/xnnpack/aot/xnnpack_partitioner.h"

#include "aot/passes/broadcast_bmm_to_mm_pass.h"
#include "aot/passes/cast_scalar_constants_pass.h"
#include "aot/passes/distribute_conv_over_cat_pass.h"
#include "aot/passes/fuse_hardswish_pass.h"
#include "backends/xnnpack/aot/serialize_context.h"
#include "backends/xnnpack/aot/xnnpack_support.h"

namespace ember::backends::xnnpack {

aot::Support XnnpackPartitioner::supports(const aot::Node& node, const aot::Graph& graph) const {
  return xnnpack_support(node, graph);
}

aot::Result<XnnpackBlob> serialize_to_xnnpack(const aot::Graph& subgraph, ConstantPlacement placement) {
  SerializeContext ctx(subgraph);
  EMBER_TRY(ctx.run());
  return ctx.builder().serialize(placement);
}

namespace {

aot::Result<ConstantPlacement> placement_from(const std::vector<aot::CompileSpec>& specs) {
  ConstantPlacement placement = ConstantPlacement::NamedData;
  for (const aot::CompileSpec& spec : specs) {
    const std::string value(spec.value.begin(), spec.value.end());
    if (spec.key != kConstantsSpec) {
      return aot::invalid_argument("xnnpack: unknown compile spec '" + spec.key + "' (known: " +
                                   kConstantsSpec + ")");
    }
    if (value == "inline") {
      placement = ConstantPlacement::Inline;
    } else if (value == "named_data") {
      placement = ConstantPlacement::NamedData;
    } else {
      return aot::invalid_argument(std::string("xnnpack: compile spec ") + kConstantsSpec + " is '" +
                                   value + "', expected 'named_data' or 'inline'");
    }
  }
  return placement;
}

}  // namespace

aot::Result<aot::PreprocessResult> XnnpackPartitioner::preprocess(
    const aot::Graph& subgraph, const std::vector<aot::CompileSpec>& compile_specs) const {
  EMBER_ASSIGN_OR_RETURN(ConstantPlacement placement, placement_from(compile_specs));
  EMBER_ASSIGN_OR_RETURN(XnnpackBlob blob, serialize_to_xnnpack(subgraph, placement));
  aot::PreprocessResult result;
  result.processed = std::move(blob.bytes);
  for (auto& [key, bytes] : blob.named_data) {
    aot::NamedData item;
    item.key = key;
    item.data = std::move(bytes);
    result.named_data.push_back(std::move(item));
  }
  return result;
}

aot::Error register_xnnpack_recipe(aot::RecipeRegistry* registry) {
  return registry->register_recipe("xnnpack", [](const aot::RecipeOptions& options) -> aot::Result<aot::Recipe> {
    EMBER_TRY(placement_from(options.compile_specs).error());
    aot::Recipe r;
    r.name = "xnnpack";
    // int64 / f64 0-dim operands of f32 arithmetic (hardswish's 3 and 6) become f32 so that
    // those nodes are delegated (docs/decisions.md).
    r.transform_passes.push_back(std::make_shared<aot::CastScalarConstantsPass>());
    // x * clamp(x + 3, 0, 6) / 6 -> hardswish: one XNNHardswish node instead of three.
    r.transform_passes.push_back(std::make_shared<aot::FuseHardswishPass>());
    // conv(cat([a, b], 1)) -> conv(a, w_a) + conv(b, w_b): no concatenate (which this XNNPACK
    // lacks; the delegate would copy) between SqueezeNet's fire modules.
    r.transform_passes.push_back(std::make_shared<aot::DistributeConvOverCatPass>());
    // bmm(a, expand(W)) -> view + mm + view: nn.MultiheadAttention's input projection becomes
    // one fully-connected node instead of a weight copy per batch and the delegate's own
    // batch-matmul kernel.
    r.transform_passes.push_back(std::make_shared<aot::BroadcastBmmToMmPass>());
    r.partitioners.push_back(std::make_shared<XnnpackPartitioner>(options.compile_specs));
    return r;
  });
}

}  // namespace ember::backends::xnnpack
