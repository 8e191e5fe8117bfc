// DemoPartitioner: the demo backend's answer to the to_backend stage (aot/backend/
// partitioner.h). supports() accepts what the bytecode can encode (demo_ops.h), optionally
// narrowed to a list of op short names -- DemoPartitioner({"add", "mm"}) behaves like the
// tutorial's add/mm-only partitioner, so a sub between two mm+add pairs splits them into
// two delegate calls. preprocess() is compile_subgraph(). Stateless.
//
//   RecipeRegistry recipes;
//   register_builtin_recipes(&recipes);
//   ember::backends::demo::register_demo_recipe(&recipes);   // adds "demo"
#pragma once

#include <string>
#include <vector>

#include "aot/backend/partitioner.h"
#include "aot/recipe/recipe.h"

namespace ember::backends::demo {

class DemoPartitioner final : public aot::Partitioner {
 public:
  // `ops`: short names ("add", "mm", "relu", ...) to accept; empty = every demo op.
  // `compile_specs` go into every delegate (DemoBackend knows max_numel).
  explicit DemoPartitioner(std::vector<std::string> ops = {},
                           std::vector<aot::CompileSpec> compile_specs = {})
      : aot::Partitioner(std::move(compile_specs)), ops_(std::move(ops)) {}

  const char* name() const override { return "demo"; }
  const char* backend_id() const override { return "DemoBackend"; }
  aot::Support supports(const aot::Node& node, const aot::Graph& graph) const override;
  aot::Result<aot::PreprocessResult> preprocess(
      const aot::Graph& subgraph, const std::vector<aot::CompileSpec>& compile_specs) const override;

 private:
  std::vector<std::string> ops_;
};

// Registers the "demo" recipe: the portable pipeline with DemoPartitioner() at to_backend.
aot::Error register_demo_recipe(aot::RecipeRegistry* registry);

}  // namespace ember::backends::demo
