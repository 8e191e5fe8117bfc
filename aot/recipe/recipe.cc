// RecipeRegistry and the built-in "portable" recipe.
#include "aot/recipe/recipe.h"

#include "aot/passes/broadcast_bmm_to_mm_pass.h"
#include "aot/passes/fold_batch_norm_pass.h"
#include "aot/passes/fold_constant_permute_pass.h"
#include "aot/passes/fuse_kv_cache_attention_pass.h"
#include "aot/passes/quantize_embedding_pass.h"
#include "aot/passes/quantize_linear_pass.h"
#include "aot/passes/tied_linear_pass.h"

namespace ember::aot {

Error RecipeRegistry::register_recipe(const std::string& name, RecipeFactory factory) {
  if (name.empty() || !factory) return invalid_argument("recipe needs a name and a factory");
  for (const auto& e : entries_) {
    if (e.first == name) return invalid_argument("recipe '" + name + "' is already registered");
  }
  entries_.emplace_back(name, std::move(factory));
  return Error::Ok;
}

Result<Recipe> RecipeRegistry::create(const std::string& name, const RecipeOptions& options) const {
  for (const auto& e : entries_) {
    if (e.first == name) return e.second(options);
  }
  std::string known;
  for (const auto& e : entries_) known += (known.empty() ? "" : ", ") + e.first;
  return not_found("unknown recipe '" + name + "' (known: " + known + ")");
}

std::vector<std::string> RecipeRegistry::names() const {
  std::vector<std::string> out;
  for (const auto& e : entries_) out.push_back(e.first);
  return out;
}

Error register_builtin_recipes(RecipeRegistry* registry) {
  // "portable", and the weight-quantizing LLM recipes on the portable kernels (ExecuTorch's
  // "8da4w" names: 8-bit dynamic activations, 8- or 4-bit weights; plain 8da4w is block 32,
  // llama.cpp q4_0's block): the embedding as int8 per row, every linear layer with a constant
  // weight as ember_quantized::linear_8da8w / linear_8da4w (kernels/portable/util/qlinear.h).
  static const std::pair<const char*, int64_t> kRecipes[] = {
      {"portable", -1},          {"portable-8da8w", 0},       {"portable-8da4w", 32},
      {"portable-8da4w-b64", 64}, {"portable-8da4w-b128", 128},
  };
  for (const auto& [name, group] : kRecipes) {
    const std::string recipe_name = name;
    const int64_t g = group;
    EMBER_TRY(registry->register_recipe(recipe_name, [recipe_name, g](const RecipeOptions&) -> Result<Recipe> {
      Recipe r;
      r.name = recipe_name;
      r.dynamically_quantized = g >= 0;  // lower's accuracy report
      // Attention over a KV cache -> llama::custom_sdpa (reads only the filled cache).
      r.pre_decomposition_passes.push_back(std::make_shared<FuseKvCacheAttentionPass>());
      r.transform_passes.push_back(std::make_shared<FoldBatchNormPass>());
      r.transform_passes.push_back(std::make_shared<BroadcastBmmToMmPass>());  // before the fold
      if (g >= 0) {
        // The embedding first, so a tied matrix's float copy has the projection as its only
        // reader and is quantized in place (decision 218's order).
        r.transform_passes.push_back(std::make_shared<QuantizeEmbeddingPass>());
        r.transform_passes.push_back(std::make_shared<QuantizeLinearPass>(g));
      }
      r.transform_passes.push_back(std::make_shared<TiedLinearPass>());  // tied matrix: no copy
      r.transform_passes.push_back(std::make_shared<FoldConstantPermutePass>());
      return r;
    }));
  }
  return Error::Ok;
}

Error register_int8_recipes(RecipeRegistry* registry, const std::vector<std::string>& bases) {
  const std::vector<std::string> known = registry->names();
  for (const std::string& base : bases) {
    bool present = false;
    for (const std::string& k : known) present = present || k == base;
    if (!present) continue;
    const RecipeRegistry* reg = registry;
    EMBER_TRY(registry->register_recipe(
        base + "-int8", [reg, base](const RecipeOptions& options) -> Result<Recipe> {
          EMBER_ASSIGN_OR_RETURN(Recipe r, reg->create(base, options));
          r.name = base + "-int8";
          QuantizeOptions q = options.quantize;
          r.pre_edge_stages = [q]() {
            std::vector<std::unique_ptr<Stage>> s;
            s.push_back(std::make_unique<QuantizeStage>(q));
            return s;
          };
          return r;
        }));
  }
  return Error::Ok;
}

}  // namespace ember::aot
