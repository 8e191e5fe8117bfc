// register_all_recipes: every recipe `lower` offers, registered explicitly (nothing
// registers itself): the built-in portable one, the demo and XNNPACK delegating ones, and
// their quantizing "-int8" forms (portable-int8, xnnpack-int8).
#pragma once

#include "aot/recipe/recipe.h"

namespace ember::aot {

Error register_all_recipes(RecipeRegistry* recipes);

}  // namespace ember::aot
