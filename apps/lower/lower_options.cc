// parse_lower_options and resolve_path (see lower_options.h): lower's flags and every usage
// rule, in one place.
#include "apps/lower/lower_options.h"

#include <gflags/gflags.h>
#include <sys/stat.h>

#include <cstdio>
#include <cstdlib>

#include "aot/frontend/custom_ops_yaml.h"
#include "aot/quantize/example_inputs.h"
#include "aot/recipe/run_method.h"
#include "apps/lower/bundle_cases.h"
#include "apps/lower/lower_flags.h"

DEFINE_string(o, "", "output .pte path (required)");
DEFINE_string(recipe, "portable",
              "pipeline recipe (portable; others when their backends are linked)");
DEFINE_string(memory_planner, "greedy", "memory planning algorithm (greedy, naive)");
DEFINE_string(dump_dir, "", "directory to write each stage's graph into (also --dump-dir)");
DEFINE_bool(verbose, false, "also time and dump every pass");
DEFINE_string(debug_out, "",
              "write the provenance sidecar (.ptdbg: node, op and source line per instruction)");
DEFINE_string(bundle_cases, "",
              "bundled test cases as JSON (files, optional actual shapes): writes a .bpte too");
DEFINE_string(bundle_out, "", "with bundled cases: the .bpte to write (default: -o with .bpte)");
DEFINE_string(custom_ops, "",
              "YAML file declaring the custom operators the model calls "
              "(- func: ns::op.out(...) -> Tensor(a!); docs/custom_ops.md)");
DEFINE_string(calibration_list, "",
              "-int8 recipes: file with one calibration sample per line "
              "(comma-separated raw input files; also --calibration-list)");

namespace ember::aot {
namespace {

constexpr char kUsage[] =
    "lower MODEL.pt2 -o MODEL.pte [--recipe portable] [--dump_dir DIR] [--verbose]"
    " [--calibrate A.bin[,B.bin]]... [--calibration_list FILE]";

LowerUsage bad_usage(Error error) { return {error, 2, false}; }

// True if `a` and `b` name one existing file (same device and inode).
bool same_file(const std::string& a, const std::string& b) {
  struct stat sa, sb;
  return stat(a.c_str(), &sa) == 0 && stat(b.c_str(), &sb) == 0 && sa.st_dev == sb.st_dev &&
         sa.st_ino == sb.st_ino;
}

// -o (or another output) naming an input, --compile_spec that no partitioner of the recipe
// would read.
Error check_output(const RecipeRegistry& recipes, const LowerOptions& o,
                   const std::vector<std::string>& inputs, const std::string& out) {
  for (const std::string& in : inputs) {
    if (same_file(in, out)) {
      return invalid_argument("-o '" + out + "' names the input '" + in +
                              "'; refusing to overwrite it");
    }
  }
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

// Every output (-o, --debug_out, the .bpte) against the inputs and each other.
Error check_outputs(const RecipeRegistry& recipes, const LowerOptions& o) {
  std::vector<std::string> inputs;  // every input file, resolved
  if (o.methods.empty()) inputs.push_back(o.input);
  for (const std::string& m : o.methods) {
    const size_t eq = m.find('=');
    if (eq != std::string::npos) inputs.push_back(m.substr(eq + 1));
  }
  EMBER_TRY(check_output(recipes, o, inputs, o.out));
  if (!o.debug_out.empty() && !o.methods.empty()) {
    return invalid_argument(
        "--debug_out with --method is not supported yet: lower each method's "
        ".pt2 on its own to get its sidecar");
  }
  if (!o.debug_out.empty()) {
    EMBER_TRY(check_output(recipes, o, inputs, o.debug_out));
    if (o.debug_out == o.out) {
      return invalid_argument("--debug_out and -o name the same file '" + FLAGS_o + "'");
    }
  }
  if (o.bundling) {
    if (o.bpte_path == o.out) {
      return invalid_argument("-o '" + FLAGS_o +
                              "' would be overwritten by the bundled program: -o names "
                              "the .pte, the .bpte goes to --bundle_out or beside it");
    }
    EMBER_TRY(check_output(recipes, o, inputs, o.bpte_path));
  } else if (!FLAGS_bundle_out.empty()) {
    return invalid_argument(
        "--bundle_out needs --bundle_inputs/--bundle_outputs or --bundle_cases");
  }
  return Error::Ok;
}

}  // namespace

std::string float_recipe_of(const std::string& recipe) {
  for (const char* prefix : {"xnnpack-8da", "xnnpack-dq-"}) {
    if (recipe.rfind(prefix, 0) == 0) return "xnnpack";
  }
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
  o->float_recipe = method_flags.empty() ? float_recipe_of(o->recipe) : "";
  if (o->int8 && !method_flags.empty()) {
    return bad_usage(invalid_argument("--method with a quantizing recipe ('" + o->recipe +
                                      "'): calibration samples belong to one method; lower each "
                                      "method's .pt2 on its own"));
  }
  if (!o->int8 && (!calibrate_flags.empty() || !FLAGS_calibration_list.empty())) {
    return bad_usage(
        invalid_argument("--calibrate / --calibration-list need a quantizing recipe "
                         "(--recipe portable-int8 or xnnpack-int8), not '" +
                         o->recipe + "'"));
  }
  if (o->int8) {
    if (Error e = read_samples(calibrate_flags, o); e != Error::Ok) return bad_usage(e);
  }
  for (const std::string& m : method_flags) {  // NAME=FILE with FILE resolved like MODEL.pt2
    const size_t eq = m.find('=');
    o->methods.push_back(
        eq == std::string::npos ? m : m.substr(0, eq + 1) + resolve_path(m.substr(eq + 1)));
  }
  o->bundle_cases = FLAGS_bundle_cases;
  o->bundling = !o->bundle_inputs.empty() || !o->bundle_outputs.empty() || !o->bundle_cases.empty();
  if (o->bundling) o->bpte_path = bundled_output_path(o->out, resolve_path(FLAGS_bundle_out));
  if (Error e = check_outputs(recipes, *o); e != Error::Ok) return bad_usage(e);
  return {};
}

}  // namespace ember::aot
