#include "tests/e2e/fixture_options.h"

namespace ember::testing {

aot::RecipeOptions fixture_recipe_options(const std::string& pt2) {
  aot::RecipeOptions options;
  const size_t slash = pt2.find_last_of('/');
  const std::string name = slash == std::string::npos ? pt2 : pt2.substr(slash + 1);
  if (name.rfind("item_full.", 0) == 0) options.max_dims.per_symbol["u0"] = 16;
  return options;
}

}  // namespace ember::testing
