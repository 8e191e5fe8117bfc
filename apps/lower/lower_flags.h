// Helpers for the lower tool's repeatable flags and its multi-method mode:
//
//   lower --recipe demo --pass replace_relu_with_sigmoid model.pt2 -o model.pte
//   lower --method encode=enc.pt2 --method decode=dec.pt2 -o prog.pte
//
// gflags keeps only the last value of a repeated flag, so take_repeated_flag() removes
// every "--NAME VALUE" / "--NAME=VALUE" from argv (before gflags parses the rest) and
// returns the values in order.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "aot/passes/pass_registry.h"
#include "aot/recipe/recipe.h"

namespace ember::aot {

std::vector<std::string> take_repeated_flag(int* argc, char** argv, const std::string& name);

// Appends registry.create(name) for every name to options->user_passes.
Error add_user_passes(const PassRegistry& registry, const std::vector<std::string>& names,
                       RecipeOptions* options);

// Lowers every "NAME=FILE.pt2" with `recipe` into one program and returns its .pte bytes
// (checked by Ember's loader, check_pte_loads).
Result<std::vector<uint8_t>> multi_method_pte(const RecipeRegistry& recipes, const std::string& recipe,
                                              const std::vector<std::string>& method_flags,
                                              const RecipeOptions& options);

// multi_method_pte() written to `out_path` (write_output_file). Returns the number of bytes.
Result<size_t> write_multi_method_program(const RecipeRegistry& recipes,
                                            const std::string& recipe,
                                            const std::vector<std::string>& method_flags,
                                            const RecipeOptions& options,
                                            const std::string& out_path);

// Calibration samples for the "-int8" recipes: every --calibrate value ("a.bin,b.bin": one
// file per method input, in order) is a sample, then every non-empty line of the
// --calibration-list file ('#' starts a comment) in the same form. Files are read as raw
// bytes (QuantizeStage checks their sizes). `resolve` maps a path as the user wrote it to
// one the process can open. A missing file is AccessFailed naming it.
Error read_calibration_samples(const std::vector<std::string>& calibrate_flags,
                               const std::string& list_file,
                               const std::function<std::string(const std::string&)>& resolve,
                               QuantizeOptions* options);

}  // namespace ember::aot
