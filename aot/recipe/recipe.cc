// RecipeRegistry and the built-in "portable" recipe.
#include "aot/recipe/recipe.h"

#include "aot/passes/broadcast_bmm_to_mm_pass.h"
#include "aot/passes/fold_batch_norm_pass.h"
#include "aot/passes/fold_constant_permute_pass.h"
#include "aot/passes/fuse_kv_cache_attention_pass.h"
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
  return registry->register_recipe("portable", [](const RecipeOptions&) -> Result<Recipe> {
    Recipe r;
    r.name = "portable";
    // Attention over a KV cache -> llama::custom_sdpa (reads only the filled cache).
    r.pre_decomposition_passes.push_back(std::make_shared<FuseKvCacheAttentionPass>());
    r.transform_passes.push_back(std::make_shared<FoldBatchNormPass>());
    r.transform_passes.push_back(std::make_shared<BroadcastBmmToMmPass>());  // before the fold
    r.transform_passes.push_back(std::make_shared<TiedLinearPass>());  // tied matrix: no copy
    r.transform_passes.push_back(std::make_shared<FoldConstantPermutePass>());
    return r;
  });
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
