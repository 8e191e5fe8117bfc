// register_all_recipes (see all_recipes.h).
#include "apps/lower/all_recipes.h"

#include "backends/demo/aot/demo_partitioner.h"
#include "backends/xnnpack/aot/xnnpack_partitioner.h"

namespace ember::aot {

Error register_all_recipes(RecipeRegistry* recipes) {
  EMBER_TRY(register_builtin_recipes(recipes));
  EMBER_TRY(::ember::backends::demo::register_demo_recipe(recipes));
  EMBER_TRY(::ember::backends::xnnpack::register_xnnpack_recipe(recipes));
  return register_int8_recipes(recipes, {"portable", "xnnpack"});
}

}  // namespace ember::aot
