// Lowering options a committed fixture needs beyond its recipe's defaults, in one place for
// every test that lowers the whole corpus (e2e_test, training_ir_test, ...).
#pragma once

#include <string>

#include "aot/recipe/recipe.h"

namespace ember::testing {

// item_full's size u0 = n.item() has no upper bound in the export (its cases go up to 16), so
// it is lowered as `lower --max_dim u0=16` would (docs/aot.md, data-dependent shapes). Every
// other fixture gets the defaults. `pt2` is the fixture's path or id.
aot::RecipeOptions fixture_recipe_options(const std::string& pt2);

// Why a committed fixture knowingly cannot be lowered yet ("" when it can): every test that
// lowers the whole corpus skips it with this reason, and expects lowering to fail, so the list
// is kept honest (a fixture that starts lowering must be taken off). `id` is the fixture id
// (<model>.<dialect>.<torch tag>) or its path.
std::string known_fixture_gap(const std::string& id);

}  // namespace ember::testing
