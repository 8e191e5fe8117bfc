// parse_lower_options and resolve_path (see lower_options.h): lower's flags and every usage
// rule, in one place.
#include "apps/lower/lower_options.h"

#include <gflags/gflags.h>
#include <sys/stat.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>

#include "aot/frontend/custom_ops_yaml.h"
#include "aot/quantize/example_inputs.h"
#include "aot/recipe/run_method.h"
#include "apps/common/path_collision.h"
#include "apps/common/unknown_flags.h"
#include "apps/lower/bundle_cases.h"
#include "apps/lower/lower_flags.h"

DEFINE_string(o, "", "output .pte path (required)");
DEFINE_string(recipe, "portable",
              "pipeline recipe (portable; others when their backends are linked)");
DEFINE_string(memory_planner, "greedy", "memory planning algorithm (greedy, naive)");
DEFINE_string(dump_dir, "", "directory to write each stage's graph into (also --dump-dir)");
DEFINE_bool(verbose, false, "also time and dump every pass");
DEFINE_bool(llm_last_logits, false,
            "a decoder's logits output keeps the last position only ([B, 1, vocab]; the head "
            "runs on one row), as llama.cpp and export_llama do");
DEFINE_string(debug_out, "",
              "write the provenance sidecar (.ptdbg: node, op and source line per instruction)");
DEFINE_string(bundle_cases, "",
              "bundled test cases as JSON (files, optional actual shapes): writes a .bpte too");
DEFINE_string(bundle_out, "", "with bundled cases: the .bpte to write (default: -o with .bpte)");
DEFINE_string(custom_ops, "",
              "YAML file declaring the custom operators the model calls "
              "(- func: ns::op.out(...) -> Tensor(a!); docs/custom_ops.md)");
DEFINE_string(calibration_list, "",
              "-int8 recipes: file with one calibration sample per line (dynamically "
              "quantized recipes: the accuracy report's samples) "
              "(comma-separated raw input files; also --calibration-list)");

namespace ember::aot {
namespace {

constexpr char kUsage[] =
    "lower MODEL.pt2 -o MODEL.pte [--recipe portable] [--dump_dir DIR] [--verbose]"
    " [--calibrate A.bin[,B.bin]]... [--calibration_list FILE] [--llm_last_logits]";

LowerUsage bad_usage(Error error) { return {error, 2, false}; }

// Every comma-separated file of `text` as an input named by `flag`, resolved.
void add_files(const std::string& flag, const std::string& text, std::vector<apps::PathUse>* inputs) {
  size_t start = 0;
  while (start <= text.size()) {
    const size_t comma = std::min(text.find(',', start), text.size());
    if (comma > start) inputs->push_back({flag, resolve_path(text.substr(start, comma - start))});
    start = comma + 1;
  }
}

// --compile_spec that no partitioner of the recipe would read.
Error check_compile_specs(const RecipeRegistry& recipes, const LowerOptions& o) {
  const RecipeOptions& ro = o.recipe_options;
  if (ro.compile_specs.empty()) return Error::Ok;
  EMBER_ASSIGN_OR_RETURN(Recipe recipe, recipes.create(o.recipe, ro));
  if (recipe.partitioners.empty()) {
    return invalid_argument(
        "--compile_spec " + ro.compile_specs[0].key + ": recipe '" + o.recipe +
        "' has no partitioner to read it (use a delegating recipe such as --recipe xnnpack)");
  }
  return Error::Ok;
}

// --calibrate / --calibration_list, or the .pt2's example input; the runner for calibration.
Error read_samples(const std::vector<std::string>& calibrate_flags, LowerOptions* o) {
  QuantizeOptions& q = o->recipe_options.quantize;
  EMBER_TRY(read_calibration_samples(calibrate_flags, FLAGS_calibration_list, resolve_path, &q));
  if (q.samples.empty()) {
    auto example = read_example_inputs(o->input);
    if (!example.ok()) {
      return fail(example.error(),
                  "no --calibrate / --calibration-list given and the .pt2's "
                  "example inputs cannot be used");
    }
    std::fprintf(stderr,
                 "lower: warning: no calibration samples given; calibrating on the one example "
                 "input stored in the .pt2 (one sample is a weak calibration: pass real data with "
                 "--calibrate or --calibration-list)\n");
    q.samples.push_back(std::move(example.get()));
  }
  q.per_layer_report = o->verbose;
  q.runner = [](const std::vector<uint8_t>& pte, const std::string& method,
                const std::vector<HostTensor>& inputs) {
    return run_pte_method(pte, method, inputs);
  };
  return Error::Ok;
}

// The flags that fill RecipeOptions: memory planner, --pass, --compile_spec, --max_dim,
// --custom_ops. Unknown passes fail (status 1); malformed values are bad usage.
LowerUsage read_recipe_options(const std::vector<std::string>& pass_flags,
                               const std::vector<std::string>& spec_flags,
                               const std::vector<std::string>& max_dim_flags, RecipeOptions* ro) {
  ro->memory_planner = FLAGS_memory_planner;
  ro->last_logits = FLAGS_llm_last_logits;
  PassRegistry passes;
  Error st = register_example_passes(&passes);
  if (st == Error::Ok) st = add_user_passes(passes, pass_flags, ro);
  for (const std::string& spec : spec_flags) {
    const size_t eq = spec.find('=');
    if (eq == std::string::npos || eq == 0) {
      return bad_usage(invalid_argument("--compile_spec expects KEY=VALUE, got '" + spec + "'"));
    }
    ro->compile_specs.push_back(
        {spec.substr(0, eq), std::vector<uint8_t>(spec.begin() + eq + 1, spec.end())});
  }
  if (st != Error::Ok) return {st, 1, false};
  for (const std::string& m : max_dim_flags) {
    if (Error bad = parse_max_dim_flag(m, &ro->max_dims); bad != Error::Ok) return bad_usage(bad);
  }
  if (!FLAGS_custom_ops.empty()) {
    auto custom = read_custom_ops_file(resolve_path(FLAGS_custom_ops));
    if (!custom.ok()) return bad_usage(custom.error());
    ro->custom_ops = std::move(custom.get());
  }
  return {};
}

// Every output (-o, --debug_out, the .bpte) against every input (the .pt2 files,
// calibration and bundle files, lists, --custom_ops) and each other (apps/common/
// path_collision.h: same inode, or the same normalised path for files not yet written).
// Issue #33: `-o m.pte --debug_out ./m.pte`, `-o cal.bin --calibrate cal.bin`.
Error check_outputs(const RecipeRegistry& recipes, const LowerOptions& o,
                    const std::vector<std::string>& calibrate_flags) {
  std::vector<apps::PathUse> inputs;
  if (o.methods.empty()) inputs.push_back({"MODEL.pt2", o.input});
  for (const std::string& m : o.methods) {
    const size_t eq = m.find('=');
    if (eq != std::string::npos) inputs.push_back({"--method", m.substr(eq + 1)});
  }
  for (const std::string& c : calibrate_flags) add_files("--calibrate", c, &inputs);
  if (!FLAGS_calibration_list.empty()) {
    const std::string list = resolve_path(FLAGS_calibration_list);
    inputs.push_back({"--calibration_list", list});
    std::ifstream in(list);
    for (std::string line; std::getline(in, line);) {
      const size_t hash = line.find('#');
      if (hash != std::string::npos) line.resize(hash);
      line.erase(0, line.find_first_not_of(" \t\r"));
      line.erase(line.find_last_not_of(" \t\r") + 1);
      add_files("--calibration_list entry", line, &inputs);
    }
  }
  for (const std::string& b : o.bundle_inputs) add_files("--bundle_inputs", b, &inputs);
  for (const std::string& b : o.bundle_outputs) add_files("--bundle_outputs", b, &inputs);
  if (!o.bundle_cases.empty()) inputs.push_back({"--bundle_cases", resolve_path(o.bundle_cases)});
  if (!FLAGS_custom_ops.empty()) inputs.push_back({"--custom_ops", resolve_path(FLAGS_custom_ops)});
  std::vector<apps::PathUse> outputs = {{"-o", o.out}};
  if (!o.debug_out.empty() && !o.methods.empty()) {
    return invalid_argument(
        "--debug_out with --method is not supported yet: lower each method's "
        ".pt2 on its own to get its sidecar");
  }
  if (!o.debug_out.empty()) outputs.push_back({"--debug_out", o.debug_out});
  if (o.bundling) {
    outputs.push_back({FLAGS_bundle_out.empty() ? "the bundled program (-o with .bpte)" : "--bundle_out",
                       o.bpte_path});
  } else if (!FLAGS_bundle_out.empty()) {
    return invalid_argument(
        "--bundle_out needs --bundle_inputs/--bundle_outputs or --bundle_cases");
  }
  EMBER_TRY(apps::check_path_collisions(inputs, outputs));
  return check_compile_specs(recipes, o);
}

}  // namespace

std::string float_recipe_of(const std::string& recipe) {
  for (const char* prefix : {"xnnpack-8da", "xnnpack-dq-"}) {
    if (recipe.rfind(prefix, 0) == 0) return "xnnpack";
  }
  if (recipe.rfind("portable-8da", 0) == 0) return "portable";
  return "";
}

std::string resolve_path(const std::string& path) {
  const char* cwd = std::getenv("BUILD_WORKING_DIRECTORY");
  if (path.empty() || path[0] == '/' || cwd == nullptr) return path;
  return std::string(cwd) + "/" + path;
}

LowerUsage parse_lower_options(int argc, char** argv, const RecipeRegistry& recipes,
                               LowerOptions* o) {
  gflags::SetUsageMessage(kUsage);
  const std::vector<std::string> method_flags = take_repeated_flag(&argc, argv, "method");
  const std::vector<std::string> pass_flags = take_repeated_flag(&argc, argv, "pass");
  const std::vector<std::string> spec_flags = take_repeated_flag(&argc, argv, "compile_spec");
  const std::vector<std::string> calibrate_flags = take_repeated_flag(&argc, argv, "calibrate");
  o->bundle_inputs = take_repeated_flag(&argc, argv, "bundle_inputs");
  o->bundle_outputs = take_repeated_flag(&argc, argv, "bundle_outputs");
  const std::vector<std::string> max_dim_flags = take_repeated_flag(&argc, argv, "max_dim");
  if (Error e = apps::check_unknown_flags(argc, argv); e != Error::Ok) return bad_usage(e);
  gflags::ParseCommandLineFlags(&argc, &argv, true);
  if (argc != (method_flags.empty() ? 2 : 1) || FLAGS_o.empty()) return {Error::Ok, 2, true};
  o->input = method_flags.empty() ? resolve_path(argv[1]) : "";
  o->out = resolve_path(FLAGS_o);
  o->recipe = FLAGS_recipe;
  o->verbose = FLAGS_verbose;
  o->dump_dir = resolve_path(FLAGS_dump_dir);
  o->debug_out = resolve_path(FLAGS_debug_out);
  const LowerUsage read =
      read_recipe_options(pass_flags, spec_flags, max_dim_flags, &o->recipe_options);
  if (!read.ok()) return read;
  o->int8 = o->recipe.size() > 5 && o->recipe.compare(o->recipe.size() - 5, 5, "-int8") == 0;
  if (auto recipe = recipes.create(o->recipe, o->recipe_options); recipe.ok()) {
    o->dynamic_quant = recipe->dynamically_quantized && method_flags.empty();
  }
  o->float_recipe = method_flags.empty() ? float_recipe_of(o->recipe) : "";
  if (o->int8 && !method_flags.empty()) {
    return bad_usage(invalid_argument("--method with a quantizing recipe ('" + o->recipe +
                                      "'): calibration samples belong to one method; lower each "
                                      "method's .pt2 on its own"));
  }
  if (!o->int8 && !o->dynamic_quant &&
      (!calibrate_flags.empty() || !FLAGS_calibration_list.empty())) {
    return bad_usage(
        invalid_argument("--calibrate / --calibration-list need a quantizing recipe "
                         "(--recipe portable-int8 or xnnpack-int8, or a dynamically quantized "
                         "one such as xnnpack-dq-w8), not '" +
                         o->recipe + "'"));
  }
  if (o->int8) {
    if (Error e = read_samples(calibrate_flags, o); e != Error::Ok) return bad_usage(e);
  } else if (o->dynamic_quant) {  // the accuracy report's samples (none: the example inputs)
    if (Error e = read_calibration_samples(calibrate_flags, FLAGS_calibration_list, resolve_path,
                                           &o->recipe_options.quantize);
        e != Error::Ok) {
      return bad_usage(e);
    }
  }
  for (const std::string& m : method_flags) {  // NAME=FILE with FILE resolved like MODEL.pt2
    const size_t eq = m.find('=');
    o->methods.push_back(
        eq == std::string::npos ? m : m.substr(0, eq + 1) + resolve_path(m.substr(eq + 1)));
  }
  o->bundle_cases = FLAGS_bundle_cases;
  o->bundling = !o->bundle_inputs.empty() || !o->bundle_outputs.empty() || !o->bundle_cases.empty();
  if (o->bundling) o->bpte_path = bundled_output_path(o->out, resolve_path(FLAGS_bundle_out));
  if (Error e = check_outputs(recipes, *o, calibrate_flags); e != Error::Ok) return bad_usage(e);
  return {};
}

}  // namespace ember::aot
