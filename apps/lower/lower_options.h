// lower's command line, parsed and checked in one place: parse_lower_options() turns argv
// into a LowerOptions (paths resolved, recipe options filled, calibration samples read) or
// says why not, before any lowering work starts.
//
//   RecipeRegistry recipes;
//   register_all_recipes(&recipes);                        // all_recipes.h
//   LowerOptions options;
//   const LowerUsage usage = parse_lower_options(argc, argv, recipes, &options);
//   if (!usage.ok()) return report_usage(usage);           // exit 2 (bad usage) or 1
//
// Flag names are spelled with underscores (--dump_dir, --debug_out, --calibration_list);
// gflags also accepts them with dashes (--dump-dir, --calibration-list), so older command
// lines keep working. Repeatable flags (--method, --pass, --compile_spec, --calibrate,
// --bundle_inputs, --bundle_outputs, --max_dim) are taken out of argv before gflags sees it
// (take_repeated_flag, lower_flags.h). Relative paths are resolved against
// $BUILD_WORKING_DIRECTORY (where `bazel run` was started).
#pragma once

#include <string>
#include <vector>

#include "aot/recipe/recipe.h"

namespace ember::aot {

struct LowerOptions {
  std::string input;                 // MODEL.pt2, resolved (empty with --method)
  std::string out;                   // -o, resolved
  std::string recipe;                // --recipe
  bool verbose = false;              // --verbose
  std::string dump_dir;              // --dump_dir, resolved ("" = none)
  std::string debug_out;             // --debug_out, resolved ("" = none)
  bool int8 = false;                 // a quantizing ("-int8") recipe: the accuracy report runs
  // Recipe::dynamically_quantized (and no --method): the accuracy report runs on
  // recipe_options.quantize.samples (--calibrate files) or else the .pt2's example inputs.
  bool dynamic_quant = false;
  // A weight-quantizing recipe (xnnpack-8da4w, xnnpack-dq-w8, portable-8da4w, ...: no
  // calibration) names the float recipe its accuracy report compares with ("xnnpack" or
  // "portable"); empty for any other recipe.
  std::string float_recipe;
  std::vector<std::string> methods;  // --method NAME=FILE, FILE resolved
  RecipeOptions recipe_options;      // memory planner, user passes, specs, custom ops, samples
  // Bundled test cases (bundle_cases.h): the flags as given, and the .bpte to write.
  bool bundling = false;
  std::vector<std::string> bundle_inputs, bundle_outputs;
  std::string bundle_cases;  // --bundle_cases, as given (resolved when read)
  std::string bpte_path;     // resolved; empty unless bundling
};

// Why the command line was refused: `error` to print as "lower: ErrorName (0xNN): message"
// (Error::Ok with print_usage: the usage line instead), and the exit status (2: bad usage,
// 1: an error while preparing, such as an unknown --pass).
struct LowerUsage {
  Error error = Error::Ok;
  int status = 0;
  bool print_usage = false;
  bool ok() const { return status == 0; }
};

// Parses argv (gflags and the repeatable flags) and checks every usage rule: a model or
// --method, -o naming no input, --compile_spec only for a recipe with a partitioner,
// --calibrate only for "-int8" recipes (not with --method) and dynamically quantized ones, --debug_out not with --method
// and not -o, the .bpte not -o. For "-int8" recipes it reads the calibration samples (or the
// .pt2's example input, with a warning on stderr) and sets the runner; for dynamically
// quantized ones it reads the --calibrate samples, if any, for the accuracy report.
LowerUsage parse_lower_options(int argc, char** argv, const RecipeRegistry& recipes,
                               LowerOptions* options);

// The float recipe a weight-quantizing recipe's report compares with: "xnnpack" for
// "xnnpack-8da*" and "xnnpack-dq-*"; empty for a recipe that does not quantize weights.
std::string float_recipe_of(const std::string& recipe);

// `path` resolved against $BUILD_WORKING_DIRECTORY when relative (unchanged when absolute,
// empty or outside `bazel run`).
std::string resolve_path(const std::string& path);

}  // namespace ember::aot
