// Multi-method lowering: one .pt2 per method, each through its own ExportSession of the
// same recipe, merged into one program (the tutorial's encode/decode example):
//
//   lower --method encode=enc.pt2 --method decode=dec.pt2 -o prog.pte
//
//   std::vector<MethodSource> methods = {*parse_method_flag("encode=enc.pt2"), ...};
//   auto program = lower_methods(recipes, "demo", methods);   // EmitProgram, then write_pte
//
// Each session's emitted method (always "forward") is renamed to its MethodSource name and
// keeps its input guards as `__ember_guards__<name>` (guard_method.h), placed after the
// user's methods;
// merge_programs (aot/emit/program_merge.h) renumbers constants and sorts methods by name.
// Constant methods (constant_method()) can be appended before merging.
#pragma once

#include <string>
#include <vector>

#include "aot/emit/emit_program.h"
#include "aot/recipe/recipe.h"

namespace ember::aot {

struct MethodSource {
  std::string name;      // "encode"
  std::string pt2_path;  // "enc.pt2"
};

// "encode=enc.pt2" -> {encode, enc.pt2}; InvalidArgument for a missing '=' or empty part.
Result<MethodSource> parse_method_flag(const std::string& flag);

// Lowers every method with `recipe`; errors are annotated with the method name. `extra`
// (e.g. constant methods) are merged in too.
Result<EmitProgram> lower_methods(const RecipeRegistry& recipes, const std::string& recipe,
                                    const std::vector<MethodSource>& methods,
                                    const RecipeOptions& options = {},
                                    std::vector<EmitProgram> extra = {});

}  // namespace ember::aot
