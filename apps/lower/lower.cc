// lower: lowers a torch.export .pt2 to an ExecuTorch .pte with an ExportSession.
//
//   bazel run -c opt //apps/lower -- model.pt2 -o model.pte [--recipe portable]
//       [--memory-planner greedy] [--dump-dir DIR] [--verbose] [--pass NAME]...
//       [--compile_spec KEY=VALUE]...
//   bazel run //apps/lower -- --method encode=enc.pt2 --method decode=dec.pt2 -o prog.pte
//
// --recipe demo delegates to DemoBackend; --pass applies registered user passes in the
// transform stage (aot/delegation/pass_registry.h); repeated --method NAME=FILE.pt2 writes
// one program with a method per file (aot/delegation/multi_method.h); repeated
// --compile_spec KEY=VALUE goes to the recipe's partitioners and into every delegate
// (e.g. xnnpack.constants=inline keeps XNNPACK weights inside the blob, see
// backends/xnnpack/aot/xnnpack_partitioner.h). Values are passed as their text bytes.
// Prints one progress line per stage with its time, then the memory plan (arena against
// the lower bound) and the delegation summary. --dump-dir writes every stage's graph
// (NN_<stage>.txt) and, with --verbose, the graph after every pass. Relative paths are
// resolved against $BUILD_WORKING_DIRECTORY (where `bazel run` was started). On error it
// prints "lower: ErrorName (0xNN): message" and exits 1; bad usage (including -o naming an
// input and --compile_spec with a recipe that has no partitioner) exits 2.
//
// Post-training quantization (docs/quantization.md): --recipe portable-int8 / xnnpack-int8
// add a quantize stage before to_edge, calibrated on --calibrate a.bin[,b.bin...] (one
// sample per flag, one raw file per method input in order; repeatable) and/or
// --calibration-list FILE (one sample per line). Without samples it calibrates on the example
// inputs stored in the .pt2 and warns. At the end it prints the output SQNR and max error of
// the quantized program against the float one on the calibration samples (--verbose: per
// layer too); --dump-dir adds the annotated graph and calibration statistics.
//
// Custom operators (docs/custom_ops.md): --custom_ops FILE.yaml declares the out variants of
// the operators outside aten that the model calls (upstream's functions.yaml shape); their
// calls become KernelCalls to those out variants, which the app registers kernels for.
//
// Data-dependent sizes (docs/aot.md): --max_dim u0=N bounds one symbolic size, --max_dim N
// every data-dependent (unbacked) size the export left unbounded (repeatable; the tighter of
// the flag and the export's own bound wins).
//
// Many models: lower --batch models.json [--jobs N] [--summary out.json] (apps/lower/batch.h).
// --debug_out FILE.ptdbg writes the provenance sidecar (aot/emit/debug_sidecar.h,
// docs/profiling.md): per instruction the node name, ATen op and source line, per delegate
// call the nodes inside. The .pte bytes are the same with or without it.
//
// Bundled programs (docs/profiling.md): each --bundle_inputs A.bin[,B.bin] --bundle_outputs
// Y.bin pair (repeatable) is one test case, and --bundle_cases FILE.json lists more (with
// actual shapes for dynamic inputs); lower then also writes a .bpte (the .pte plus the
// cases) to --bundle_out, or beside -o with the extension .bpte (apps/lower/bundle_cases.h).
#include <gflags/gflags.h>
#include <sys/stat.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "aot/frontend/custom_ops_yaml.h"
#include "apps/lower/batch.h"
#include "apps/lower/bundle_cases.h"
#include "aot/emit/debug_sidecar.h"
#include "aot/frontend/pt2_reader.h"
#include "apps/lower/lower_flags.h"
#include "aot/recipe/export_session.h"
#include "aot/recipe/quant_report.h"
#include "aot/recipe/quantize_stage.h"
#include "aot/recipe/run_method.h"
#include "aot/quantize/example_inputs.h"
#include "backends/xnnpack/runtime/xnnpack_backend.h"
#include "runtime/backend/backend_registry.h"
#include "backends/demo/aot/demo_partitioner.h"
#include "backends/xnnpack/aot/xnnpack_partitioner.h"

DEFINE_string(o, "", "output .pte path (required)");
DEFINE_string(recipe, "portable", "pipeline recipe (portable; others when their backends are linked)");
DEFINE_string(memory_planner, "greedy", "memory planning algorithm (greedy, naive)");
DEFINE_string(dump_dir, "", "directory to write each stage's graph into");
DEFINE_bool(verbose, false, "also time and dump every pass");
DEFINE_string(debug_out, "", "write the provenance sidecar (.ptdbg: node, op and source line per instruction)");
DEFINE_string(bundle_cases, "", "bundled test cases as JSON (files, optional actual shapes): writes a .bpte too");
DEFINE_string(bundle_out, "", "with bundled cases: the .bpte to write (default: -o with .bpte)");
DEFINE_string(custom_ops, "", "YAML file declaring the custom operators the model calls "
              "(- func: ns::op.out(...) -> Tensor(a!); docs/custom_ops.md)");
DEFINE_string(calibration_list, "", "-int8 recipes: file with one calibration sample per line "
              "(comma-separated raw input files)");

namespace {

std::string resolve(const std::string& path) {
  const char* cwd = std::getenv("BUILD_WORKING_DIRECTORY");
  if (path.empty() || path[0] == '/' || cwd == nullptr) return path;
  return std::string(cwd) + "/" + path;
}

// Prints "lower: ErrorName (0xNN): message" and returns `status` (1: failed, 2: bad usage).
int report(ember::aot::Error st, int status = 1) {
  std::fprintf(stderr, "lower: %s\n", ember::aot::format_error(st).c_str());
  return status;
}

// True if `a` and `b` name one existing file (same device and inode).
bool same_file(const std::string& a, const std::string& b) {
  struct stat sa, sb;
  return stat(a.c_str(), &sa) == 0 && stat(b.c_str(), &sb) == 0 && sa.st_dev == sb.st_dev &&
         sa.st_ino == sb.st_ino;
}

// Usage errors found before any work: -o naming an input, --compile_spec that no
// partitioner of the recipe would read.
ember::aot::Error check_usage(const ember::aot::RecipeRegistry& recipes, const ember::aot::RecipeOptions& ro,
                              const std::vector<std::string>& inputs, const std::string& out) {
  using namespace ember::aot;
  for (const std::string& in : inputs) {
    if (same_file(in, out)) {
      return invalid_argument("-o '" + out + "' names the input '" + in + "'; refusing to overwrite it");
    }
  }
  if (ro.compile_specs.empty()) return Error::Ok;
  EMBER_ASSIGN_OR_RETURN(Recipe recipe, recipes.create(FLAGS_recipe, ro));
  if (recipe.partitioners.empty()) {
    return invalid_argument("--compile_spec " + ro.compile_specs[0].key + ": recipe '" + FLAGS_recipe +
                            "' has no partitioner to read it (use a delegating recipe such as --recipe xnnpack)");
  }
  return Error::Ok;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace ember::aot;
  if (is_batch_invocation(argc, argv)) return run_batch(argc, argv);  // apps/lower/batch.h
  gflags::SetUsageMessage("lower MODEL.pt2 -o MODEL.pte [--recipe portable] [--dump-dir DIR] [--verbose]"
                          " [--calibrate A.bin[,B.bin]]... [--calibration-list FILE]");
  const std::vector<std::string> method_flags = take_repeated_flag(&argc, argv, "method");
  const std::vector<std::string> pass_flags = take_repeated_flag(&argc, argv, "pass");
  const std::vector<std::string> spec_flags = take_repeated_flag(&argc, argv, "compile_spec");
  const std::vector<std::string> calibrate_flags = take_repeated_flag(&argc, argv, "calibrate");
  const std::vector<std::string> bundle_in_flags = take_repeated_flag(&argc, argv, "bundle_inputs");
  const std::vector<std::string> bundle_out_flags = take_repeated_flag(&argc, argv, "bundle_outputs");
  const std::vector<std::string> max_dim_flags = take_repeated_flag(&argc, argv, "max_dim");
  gflags::ParseCommandLineFlags(&argc, &argv, true);
  if (argc != (method_flags.empty() ? 2 : 1) || FLAGS_o.empty()) {
    std::fprintf(stderr, "usage: %s MODEL.pt2 -o MODEL.pte [--recipe portable] [--dump-dir DIR] [--verbose]\n",
                 argv[0]);
    return 2;
  }
  RecipeRegistry recipes;
  Error st = register_builtin_recipes(&recipes);
  if (st == Error::Ok) st = ember::backends::demo::register_demo_recipe(&recipes);
  if (st == Error::Ok) st = ember::backends::xnnpack::register_xnnpack_recipe(&recipes);
  if (st == Error::Ok) st = register_int8_recipes(&recipes, {"portable", "xnnpack"});
  PassRegistry passes;
  if (st == Error::Ok) st = register_example_passes(&passes);
  RecipeOptions ro;
  ro.memory_planner = FLAGS_memory_planner;
  if (st == Error::Ok) st = add_user_passes(passes, pass_flags, &ro);
  for (const std::string& spec : spec_flags) {
    const size_t eq = spec.find('=');
    if (eq == std::string::npos || eq == 0) {
      return report(invalid_argument("--compile_spec expects KEY=VALUE, got '" + spec + "'"), 2);
    }
    ro.compile_specs.push_back({spec.substr(0, eq), std::vector<uint8_t>(spec.begin() + eq + 1, spec.end())});
  }
  if (st != Error::Ok) return report(st);
  for (const std::string& m : max_dim_flags) {
    const Error bad = parse_max_dim_flag(m, &ro.max_dims);
    if (bad != Error::Ok) return report(bad, 2);
  }
  if (!FLAGS_custom_ops.empty()) {
    auto custom = read_custom_ops_file(resolve(FLAGS_custom_ops));
    if (!custom.ok()) return report(custom.error(), 2);
    ro.custom_ops = std::move(custom.get());
  }
  const bool int8 = FLAGS_recipe.size() > 5 && FLAGS_recipe.compare(FLAGS_recipe.size() - 5, 5, "-int8") == 0;
  if (int8 && !method_flags.empty()) {
    return report(invalid_argument("--method with a quantizing recipe ('" + FLAGS_recipe +
                                   "'): calibration samples belong to one method; lower each "
                                   "method's .pt2 on its own"), 2);
  }
  if (!int8 && (!calibrate_flags.empty() || !FLAGS_calibration_list.empty())) {
    return report(invalid_argument("--calibrate / --calibration-list need a quantizing recipe "
                                   "(--recipe portable-int8 or xnnpack-int8), not '" + FLAGS_recipe + "'"), 2);
  }
  // XNNPACK delegate calls in the final program are run for the accuracy report.
  static ember::runtime::BackendRegistry backends;
  if (int8) {
    if (ember::backends::xnnpack::register_backend(backends) != ember::runtime::Error::Ok) {
      return report(fail(Error::Internal, "cannot register the XNNPACK runtime backend"));
    }
    st = read_calibration_samples(calibrate_flags, FLAGS_calibration_list, resolve, &ro.quantize);
    if (st != Error::Ok) return report(st, 2);
    if (ro.quantize.samples.empty()) {
      auto example = read_example_inputs(resolve(argv[1]));
      if (!example.ok()) {
        return report(fail(example.error(), "no --calibrate / --calibration-list given and the .pt2's "
                                            "example inputs cannot be used"), 2);
      }
      std::fprintf(stderr, "lower: warning: no calibration samples given; calibrating on the one example "
                           "input stored in the .pt2 (one sample is a weak calibration: pass real data with "
                           "--calibrate or --calibration-list)\n");
      ro.quantize.samples.push_back(std::move(example.get()));
    }
    ro.quantize.per_layer_report = FLAGS_verbose;
    ro.quantize.runner = [](const std::vector<uint8_t>& pte, const std::string& method,
                            const std::vector<HostTensor>& inputs) {
      return run_pte_method(pte, method, inputs);
    };
  }
  std::vector<std::string> methods;  // NAME=FILE with FILE resolved like MODEL.pt2
  std::vector<std::string> inputs;   // every input file, resolved
  if (method_flags.empty()) inputs.push_back(resolve(argv[1]));
  for (const std::string& m : method_flags) {
    const size_t eq = m.find('=');
    methods.push_back(eq == std::string::npos ? m : m.substr(0, eq + 1) + resolve(m.substr(eq + 1)));
    if (eq != std::string::npos) inputs.push_back(resolve(m.substr(eq + 1)));
  }
  if (Error u = check_usage(recipes, ro, inputs, resolve(FLAGS_o)); u != Error::Ok) return report(u, 2);
  if (!FLAGS_debug_out.empty() && !method_flags.empty()) {
    return report(invalid_argument("--debug_out with --method is not supported yet: lower each method's "
                                   ".pt2 on its own to get its sidecar"), 2);
  }
  if (!FLAGS_debug_out.empty()) {
    if (Error u = check_usage(recipes, ro, inputs, resolve(FLAGS_debug_out)); u != Error::Ok) return report(u, 2);
    if (resolve(FLAGS_debug_out) == resolve(FLAGS_o)) {
      return report(invalid_argument("--debug_out and -o name the same file '" + FLAGS_o + "'"), 2);
    }
  }
  const bool bundling = !bundle_in_flags.empty() || !bundle_out_flags.empty() || !FLAGS_bundle_cases.empty();
  const std::string bpte_path = bundling ? bundled_output_path(resolve(FLAGS_o), resolve(FLAGS_bundle_out)) : "";
  if (bundling) {
    if (bpte_path == resolve(FLAGS_o)) {
      return report(invalid_argument("-o '" + FLAGS_o + "' would be overwritten by the bundled program: -o names "
                                     "the .pte, the .bpte goes to --bundle_out or beside it"), 2);
    }
    if (Error u = check_usage(recipes, ro, inputs, bpte_path); u != Error::Ok) return report(u, 2);
  } else if (!FLAGS_bundle_out.empty()) {
    return report(invalid_argument("--bundle_out needs --bundle_inputs/--bundle_outputs or --bundle_cases"), 2);
  }
  // Writes the .bpte for the written .pte `pte` (a no-op without bundled cases).
  auto write_bundle = [&](const std::vector<uint8_t>& pte) -> Error {
    if (!bundling) return Error::Ok;
    EMBER_ASSIGN_OR_RETURN(auto suites, bundle_cases(pte, bundle_in_flags, bundle_out_flags, FLAGS_bundle_cases,
                                                     resolve));
    EMBER_ASSIGN_OR_RETURN(std::vector<uint8_t> bpte, write_bundled_program(pte, suites));
    FILE* b = std::fopen(bpte_path.c_str(), "wb");
    if (b == nullptr || std::fwrite(bpte.data(), 1, bpte.size(), b) != bpte.size() || std::fclose(b) != 0) {
      return fail(Error::AccessFailed, "cannot write '" + bpte_path + "'");
    }
    size_t cases = 0;
    for (const BundledTestSuite& s : suites) cases += s.cases.size();
    std::printf("wrote %s (bundled program: %zu case(s) for %zu method(s), %zu bytes)\n", bpte_path.c_str(),
                cases, suites.size(), bpte.size());
    return Error::Ok;
  };
  if (!method_flags.empty()) {
    auto written = write_multi_method_program(recipes, FLAGS_recipe, methods, ro, resolve(FLAGS_o));
    if (!written.ok()) return report(written.error());
    std::printf("wrote %s (%zu methods, %zu bytes)\n", resolve(FLAGS_o).c_str(), method_flags.size(),
                *written);
    if (!bundling) return 0;
    auto pte = read_file_bytes(resolve(FLAGS_o));
    if (!pte.ok()) return report(pte.error());
    if (Error b = write_bundle(*pte); b != Error::Ok) return report(b, 2);
    return 0;
  }

  std::vector<PassTiming> timings;
  SessionOptions so;
  so.context.instrumentation.timings = &timings;
  std::string dump_dir = FLAGS_dump_dir.empty() ? "" : resolve(FLAGS_dump_dir);
  if (!dump_dir.empty()) mkdir(dump_dir.c_str(), 0755);  // an existing directory is fine
  if (FLAGS_verbose) so.context.instrumentation.dump_dir = dump_dir;
  so.on_stage_done = [&](const Stage& s) {
    std::printf("[%-13s] %8.2f ms\n", s.name(), s.millis());
    if (FLAGS_verbose) {
      for (const PassTiming& t : timings) {
        std::printf("    %-24s %8.2f ms\n", t.pass.c_str(), t.millis);
      }
    }
    timings.clear();
    std::fflush(stdout);
  };
  auto session = ExportSession::create(recipes, FLAGS_recipe, resolve(argv[1]), ro, std::move(so));
  if (!session.ok()) return report(session.error());
  st = session->run();
  if (!dump_dir.empty()) {
    Error d = session->dump(dump_dir);
    if (d != Error::Ok) return report(d);
  }
  if (st != Error::Ok) return report(st);

  const std::vector<uint8_t>* pte = session->pte();
  std::string out = resolve(FLAGS_o);
  FILE* f = std::fopen(out.c_str(), "wb");
  if (f == nullptr || std::fwrite(pte->data(), 1, pte->size(), f) != pte->size() || std::fclose(f) != 0) {
    return report(fail(Error::AccessFailed, "cannot write '" + out + "'"));
  }
  const MemoryPlanReport& mem = session->memory_report();
  std::printf("memory plan (%s): arena %llu B, lower bound %llu B, ratio %.3f, %zu tensors\n",
              mem.planner.c_str(), static_cast<unsigned long long>(mem.arena_size),
              static_cast<unsigned long long>(mem.lower_bound), mem.ratio(), mem.planned_tensors);
  std::printf("%s", session->delegation_summary().c_str());
  std::printf("wrote %s (%zu bytes)\n", out.c_str(), pte->size());
  if (!FLAGS_debug_out.empty()) {
    const std::string dbg_path = resolve(FLAGS_debug_out);
    const std::shared_ptr<const EmitProgram>& program = session->last_artifact().program;
    if (program == nullptr) return report(fail(Error::Internal, "no emitted program for --debug_out"));
    const std::string dbg = debug_sidecar_json(*program, *pte);
    FILE* d = std::fopen(dbg_path.c_str(), "wb");
    if (d == nullptr || std::fwrite(dbg.data(), 1, dbg.size(), d) != dbg.size() || std::fclose(d) != 0) {
      return report(fail(Error::AccessFailed, "cannot write '" + dbg_path + "'"));
    }
    std::printf("wrote %s (provenance sidecar)\n", dbg_path.c_str());
  }
  if (Error b = write_bundle(*pte); b != Error::Ok) return report(b, 2);
  if (int8) {
    const Stage* qs = session->find_stage("quantize");
    if (qs == nullptr || !qs->done()) return 0;
    const QuantizeResults& q = static_cast<const QuantizeStage*>(qs)->results();
    std::vector<std::vector<HostTensor>> got;
    RunOptions run_options;
    run_options.backends = &backends;
    for (const auto& sample : q.samples) {
      auto outs = run_pte_method(*pte, "forward", sample, run_options);
      if (!outs.ok()) return report(fail(outs.error(), "running the quantized program for the accuracy report"));
      got.push_back(std::move(outs.get()));
    }
    auto errors = compare_outputs(q.float_outputs, got);
    if (!errors.ok()) {  // the program is written; the report is a bonus
      std::fprintf(stderr, "lower: warning: no accuracy report: %s\n",
                   format_error(errors.error()).c_str());
      return 0;
    }
    std::printf("quantized vs float on %zu calibration sample(s):\n%s", q.samples.size(),
                format_errors(*errors, "  ").c_str());
    if (FLAGS_verbose && !q.layers.empty()) {
      std::printf("per layer (QDQ program on the portable kernels vs float):\n%s",
                  format_errors(q.layers, "  ").c_str());
    }
  }
  return 0;
}
