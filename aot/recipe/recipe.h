// Recipes: a named configuration of the lowering pipeline, and a registry of them.
//
// A recipe says which partitioners the to_backend stage asks (none for "portable"), and
// may add stages before to_edge (quantization). ExportSession::create() turns a recipe
// into its Stage list:
//   load -> [recipe's pre-edge stages] -> to_edge -> transform(user passes)
//        -> to_backend(recipe's partitioners) -> to_executorch(planner) -> emit
// Registration is explicit: a program calls register_builtin_recipes() and, for example,
// the XNNPACK or demo backend's register function, which adds "xnnpack" / "demo".
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "aot/backend/partitioner.h"
#include "aot/ir/op_schema.h"
#include "aot/passes/bound_symbols_pass.h"
#include "aot/passes/pass.h"
#include "aot/recipe/quantize_stage.h"
#include "aot/recipe/stage.h"

namespace ember::aot {

struct RecipeOptions {
  std::string memory_planner = "greedy";                 // --memory_planner
  std::vector<std::shared_ptr<const Pass>> user_passes;  // the transform stage
  std::vector<CompileSpec> compile_specs;             // --compile_spec, for the partitioners
  QuantizeOptions quantize;  // the "-int8" recipes' calibration samples and runner
  // Custom operator schemas (--custom_ops FILE.yaml, read_custom_ops_file), null if none.
  std::shared_ptr<const OpSchemaRegistry> custom_ops;
  // Upper bounds for symbolic sizes (--max_dim u0=N / --max_dim N, bound_symbols_pass.h).
  SymbolBounds max_dims;
  // --llm_last_logits: the transform stage starts with LastLogitsPass (last_logits_pass.h), so a
  // decoder's logits output is [B, 1, vocab] (the last position), before the recipe's passes.
  bool last_logits = false;
};

struct Recipe {
  std::string name;
  std::vector<std::shared_ptr<const Partitioner>> partitioners;
  // Graph optimisations the transform stage runs before the user's passes.
  std::vector<std::shared_ptr<const Pass>> transform_passes;
  // Rewrites the to_edge stage runs after functionalize and before the decompositions, for
  // patterns only visible whole in the training IR (scaled_dot_product_attention over a KV
  // cache: FuseKvCacheAttentionPass).
  std::vector<std::shared_ptr<const Pass>> pre_decomposition_passes;
  // Stages run between load and to_edge (e.g. quantize); built fresh per session.
  std::function<std::vector<std::unique_ptr<Stage>>()> pre_edge_stages;
  // Quantizes without calibration (weights while lowering, activations at run time, e.g.
  // XNNPACK's qd8 recipes): the lower tool reports the outputs against the float program's
  // on the .pt2's example inputs (accuracy_report.h).
  bool dynamically_quantized = false;
};

using RecipeFactory = std::function<Result<Recipe>(const RecipeOptions&)>;

class RecipeRegistry {
 public:
  // InvalidArgument for an empty or duplicate name.
  Error register_recipe(const std::string& name, RecipeFactory factory);
  // NotFound listing the known names.
  Result<Recipe> create(const std::string& name, const RecipeOptions& options) const;
  std::vector<std::string> names() const;

 private:
  std::vector<std::pair<std::string, RecipeFactory>> entries_;
};

// Registers "portable" (no partitioners: every op runs on the portable kernels; the
// transform stage folds inference batch norms into convolutions and permutes of constant
// weights into the constants, see aot/passes/fold_*_pass.h).
Error register_builtin_recipes(RecipeRegistry* registry);

// Registers "<base>-int8" for every base in `bases` already registered (portable, xnnpack):
// the base recipe with a QuantizeStage (quantize_stage.h) before to_edge, fed by
// RecipeOptions::quantize. `registry` must outlive the recipes it creates.
Error register_int8_recipes(RecipeRegistry* registry, const std::vector<std::string>& bases);

}  // namespace ember::aot
