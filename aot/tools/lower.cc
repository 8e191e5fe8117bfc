// lower: lowers a torch.export .pt2 to an ExecuTorch .pte with an ExportSession.
//
//   bazel run -c opt //aot/tools:lower -- model.pt2 -o model.pte [--recipe portable]
//       [--memory-planner greedy] [--dump-dir DIR] [--verbose] [--pass NAME]...
//       [--compile_spec KEY=VALUE]...
//   bazel run //aot/tools:lower -- --method encode=enc.pt2 --method decode=dec.pt2 -o prog.pte
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
#include <gflags/gflags.h>
#include <sys/stat.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "aot/tools/lower_flags.h"
#include "aot/recipe/export_session.h"
#include "backends/demo/aot/demo_partitioner.h"
#include "backends/xnnpack/aot/xnnpack_partitioner.h"

DEFINE_string(o, "", "output .pte path (required)");
DEFINE_string(recipe, "portable", "pipeline recipe (portable; others when their backends are linked)");
DEFINE_string(memory_planner, "greedy", "memory planning algorithm (greedy, naive)");
DEFINE_string(dump_dir, "", "directory to write each stage's graph into");
DEFINE_bool(verbose, false, "also time and dump every pass");

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
  gflags::SetUsageMessage("lower MODEL.pt2 -o MODEL.pte [--recipe portable] [--dump-dir DIR] [--verbose]");
  const std::vector<std::string> method_flags = take_repeated_flag(&argc, argv, "method");
  const std::vector<std::string> pass_flags = take_repeated_flag(&argc, argv, "pass");
  const std::vector<std::string> spec_flags = take_repeated_flag(&argc, argv, "compile_spec");
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
  std::vector<std::string> methods;  // NAME=FILE with FILE resolved like MODEL.pt2
  std::vector<std::string> inputs;   // every input file, resolved
  if (method_flags.empty()) inputs.push_back(resolve(argv[1]));
  for (const std::string& m : method_flags) {
    const size_t eq = m.find('=');
    methods.push_back(eq == std::string::npos ? m : m.substr(0, eq + 1) + resolve(m.substr(eq + 1)));
    if (eq != std::string::npos) inputs.push_back(resolve(m.substr(eq + 1)));
  }
  if (Error u = check_usage(recipes, ro, inputs, resolve(FLAGS_o)); u != Error::Ok) return report(u, 2);
  if (!method_flags.empty()) {
    auto written = write_multi_method_program(recipes, FLAGS_recipe, methods, ro, resolve(FLAGS_o));
    if (!written.ok()) return report(written.error());
    std::printf("wrote %s (%zu methods, %zu bytes)\n", resolve(FLAGS_o).c_str(), method_flags.size(),
                *written);
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
  return 0;
}
