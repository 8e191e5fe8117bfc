// RecipeRegistry and the built-in "portable" recipe.
#include "aot/recipe/recipe.h"

#include "aot/passes/fold_batch_norm_pass.h"
#include "aot/passes/fold_constant_permute_pass.h"

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
    r.transform_passes.push_back(std::make_shared<FoldBatchNormPass>());
    r.transform_passes.push_back(std::make_shared<FoldConstantPermutePass>());
    return r;
  });
}

}  // namespace ember::aot
