// XnnpackPartitioner and the "xnnpack" recipe (see xnnpack_partitioner.h).
#include "backends/xnnpack/aot/xnnpack_partitioner.h"

#include <cstring>
#include <string>
#include <utility>

#include "aot/passes/broadcast_bmm_to_mm_pass.h"
#include "aot/passes/cast_scalar_constants_pass.h"
#include "aot/passes/distribute_conv_over_cat_pass.h"
#include "aot/passes/fuse_kv_cache_attention_pass.h"
#include "aot/passes/fuse_hardswish_pass.h"
#include "aot/passes/mean_as_linear_pass.h"
#include "aot/passes/remove_identity_copy_pass.h"
#include "aot/passes/rotate_half_as_linear_pass.h"
#include "aot/passes/silu_as_sigmoid_mul_pass.h"
#include "aot/passes/square_as_mul_pass.h"
#include "aot/passes/tied_linear_pass.h"
#include "aot/passes/quantize_embedding_pass.h"
#include "backends/xnnpack/aot/serialize_context.h"
#include "backends/xnnpack/aot/xnnpack_support.h"

namespace ember::backends::xnnpack {

aot::Support XnnpackPartitioner::supports(const aot::Node& node, const aot::Graph& graph) const {
  return xnnpack_support(node, graph);
}

aot::Result<XnnpackBlob> serialize_to_xnnpack(const aot::Graph& subgraph,
                                              ConstantPlacement placement,
                                              SerializeOptions options) {
  SerializeContext ctx(subgraph);
  ctx.set_dynamic_weights({options.dynamic_weights, options.scheme, options.block_size});
  EMBER_TRY(ctx.run());
  return ctx.builder().serialize(placement);
}

namespace {

struct Specs {
  ConstantPlacement placement = ConstantPlacement::NamedData;
  SerializeOptions options;
};

aot::Result<Specs> specs_from(const std::vector<aot::CompileSpec>& specs) {
  Specs out;
  ConstantPlacement& placement = out.placement;
  for (const aot::CompileSpec& spec : specs) {
    const std::string value(spec.value.begin(), spec.value.end());
    if (spec.key == kDynamicWeightsSpec) {
      if (!parse_weight_scheme(value, &out.options.scheme, &out.options.block_size)) {
        return aot::invalid_argument(std::string("xnnpack: compile spec ") + kDynamicWeightsSpec +
                                     " is '" + value +
                                     "', expected int8, int4, int4-b32, "
                                     "int4-b64 or int4-b128");
      }
      out.options.dynamic_weights = true;
      continue;
    }
    if (spec.key != kConstantsSpec) {
      return aot::invalid_argument("xnnpack: unknown compile spec '" + spec.key + "' (known: " +
                                   kConstantsSpec + ", " + kDynamicWeightsSpec + ")");
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
  return out;
}

}  // namespace

aot::Result<aot::PreprocessResult> XnnpackPartitioner::preprocess(
    const aot::Graph& subgraph, const std::vector<aot::CompileSpec>& compile_specs) const {
  EMBER_ASSIGN_OR_RETURN(Specs specs, specs_from(compile_specs));
  EMBER_ASSIGN_OR_RETURN(XnnpackBlob blob,
                         serialize_to_xnnpack(subgraph, specs.placement, specs.options));
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

namespace {

aot::Result<aot::Recipe> xnnpack_recipe(const std::string& name, const aot::RecipeOptions& options,
                                        const char* dq_weights) {
  std::vector<aot::CompileSpec> specs = options.compile_specs;
  if (dq_weights != nullptr) {
    aot::CompileSpec spec;
    spec.key = kDynamicWeightsSpec;
    spec.value.assign(dq_weights, dq_weights + std::strlen(dq_weights));
    specs.push_back(std::move(spec));
  }
  EMBER_TRY(specs_from(specs).error());
  aot::Recipe r;
  r.name = name;
  r.dynamically_quantized = dq_weights != nullptr;  // lower's accuracy report
  // Attention over a KV cache -> llama::custom_sdpa on the portable kernels: one call per
  // layer instead of the decomposed bmm / mask / softmax chain and its partition splits.
  r.pre_decomposition_passes.push_back(std::make_shared<aot::FuseKvCacheAttentionPass>());
  // int64 / f64 0-dim operands of f32 arithmetic (hardswish's 3 and 6) become f32 so that
  // those nodes are delegated (docs/decisions.md).
  r.transform_passes.push_back(std::make_shared<aot::CastScalarConstantsPass>());
  // x * clamp(x + 3, 0, 6) / 6 -> hardswish: one XNNHardswish node instead of three.
  r.transform_passes.push_back(std::make_shared<aot::FuseHardswishPass>());
  // conv(cat([a, b], 1)) -> conv(a, w_a) + conv(b, w_b): no concatenate copy between
  // SqueezeNet's fire modules.
  r.transform_passes.push_back(std::make_shared<aot::DistributeConvOverCatPass>());
  // bmm(a, expand(W)) -> view + mm + view: nn.MultiheadAttention's input projection becomes
  // one fully-connected node instead of a weight copy per batch and a batch matmul.
  r.transform_passes.push_back(std::make_shared<aot::BroadcastBmmToMmPass>());
  // The LLM recipes (xnnpack-8da*) also store the embedding table as int8 per row (the
  // portable quantized_decomposed::embedding_byte kernel reads it; XNNPACK has no gather).
  // Before TiedLinearPass: once the embedding reads its int8 table, a tied output projection
  // is W's only reader, so it is delegated and its weights quantized like any linear layer
  // (int8 table + 4-bit packed copy, instead of one float32 matrix on the portable kernels).
  if (name.rfind("xnnpack-8da", 0) == 0) {
    r.transform_passes.push_back(std::make_shared<aot::QuantizeEmbeddingPass>());
  }
  // mm(x, permute(W)) with W also read by an embedding -> linear(x, W): the tied matrix stays
  // one program constant, read by both portable kernels (check_linear keeps it undelegated).
  r.transform_passes.push_back(std::make_shared<aot::TiedLinearPass>());
  // RMSNorm's pow(x, 2) -> x * x and mean over the last dim -> linear with a 1/K row: both
  // delegated, so a decoder layer's norms no longer split the delegate (4 calls per layer).
  r.transform_passes.push_back(std::make_shared<aot::SquareAsMulPass>());
  r.transform_passes.push_back(std::make_shared<aot::MeanAsLinearPass>());
  // Rotary embedding's rotate_half (slices of a dynamic-length activation, neg, cat) -> one
  // product with a constant +-1 permutation, and silu -> x * sigmoid(x): both delegated, so a
  // decoder layer is split only by its cache writes and attention (llama::custom_sdpa).
  r.transform_passes.push_back(std::make_shared<aot::RotateHalfAsLinearPass>());
  r.transform_passes.push_back(std::make_shared<aot::SiluAsSigmoidMulPass>());
  // x.to(float32) of a float32 x (RMSNorm) is x: no copy splitting the delegate.
  r.transform_passes.push_back(std::make_shared<aot::RemoveIdentityCopyPass>());
  r.partitioners.push_back(std::make_shared<XnnpackPartitioner>(specs));
  return r;
}

}  // namespace

aot::Error register_xnnpack_recipe(aot::RecipeRegistry* registry) {
  static const std::pair<const char*, const char*> kRecipes[] = {
      {"xnnpack", nullptr},
      {"xnnpack-dq-w8", "int8"},
      {"xnnpack-dq-w4-b32", "int4-b32"},
      {"xnnpack-dq-w4-b64", "int4-b64"},
      {"xnnpack-dq-w4-b128", "int4-b128"},
      // The LLM names (ExecuTorch's "8da4w": 8-bit dynamic activations, 4-bit weights) for the
      // same schemes; plain 8da4w is block 32, the block of llama.cpp's q4_0.
      {"xnnpack-8da8w", "int8"},
      {"xnnpack-8da4w", "int4-b32"},
      {"xnnpack-8da4w-b64", "int4-b64"},
      {"xnnpack-8da4w-b128", "int4-b128"},
  };
  for (const auto& [name, dq] : kRecipes) {
    const std::string recipe_name = name;
    const char* weights = dq;
    EMBER_TRY(registry->register_recipe(recipe_name,
                                        [recipe_name, weights](const aot::RecipeOptions& options) {
                                          return xnnpack_recipe(recipe_name, options, weights);
                                        }));
  }
  return aot::Error::Ok;
}

}  // namespace ember::backends::xnnpack
