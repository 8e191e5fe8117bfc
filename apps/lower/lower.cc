// lower: a torch.export .pt2 to an ExecuTorch .pte, through an ExportSession.
//
//   bazel run -c opt //apps/lower -- model.pt2 -o model.pte [--recipe portable]
//       [--memory_planner greedy] [--dump_dir DIR] [--verbose] [--pass NAME]...
//       [--compile_spec KEY=VALUE]...
//   bazel run //apps/lower -- --method encode=enc.pt2 --method decode=dec.pt2 -o prog.pte
//   bazel run //apps/lower -- --batch models.json [--jobs N] [--summary out.json]
//
// Recipes (all_recipes.h): portable, demo (delegates to DemoBackend), xnnpack, and the
// quantizing portable-int8 / xnnpack-int8, calibrated on --calibrate a.bin[,b.bin] (one
// sample per flag, repeatable) and/or --calibration_list FILE, then reporting the output SQNR
// against the float program (docs/quantization.md); the dynamically quantized xnnpack-dq-*
// and xnnpack-8da* recipes report it on the .pt2's example inputs, for a decoder as the logit
// SQNR and greedy-token agreement over 16 steps (lower_reports.h). --pass applies registered user passes
// in the transform stage (aot/passes/pass_registry.h); repeated --method NAME=FILE.pt2 writes
// one program with a method per file (aot/recipe/multi_method.h); --compile_spec KEY=VALUE
// goes to the recipe's partitioners (backends/xnnpack/aot/xnnpack_partitioner.h);
// --custom_ops FILE.yaml declares operators outside aten (docs/custom_ops.md); --max_dim
// u0=N / N bounds data-dependent sizes (docs/aot.md); --llm_last_logits makes a decoder's
// logits output the last position only (aot/passes/last_logits_pass.h). Every flag and usage rule:
// lower_options.h.
//
// Prints one progress line per stage with its time, the memory plan and the delegation
// summary (lower_reports.h). --dump_dir writes every stage's graph (NN_<stage>.txt) and, with
// --verbose, the graph after every pass. --debug_out FILE.ptdbg writes the provenance sidecar
// (aot/emit/debug_sidecar.h); --bundle_inputs/--bundle_outputs/--bundle_cases also write a
// .bpte (bundle_cases.h, docs/profiling.md). Every file goes through write_output_file
// (output_file.h). On error it prints "lower: ErrorName (0xNN): message" and exits 1; bad
// usage exits 2.
#include <cstdio>
#include <vector>

#include "apps/lower/all_recipes.h"
#include "apps/lower/batch.h"
#include "apps/lower/lower_flags.h"
#include "apps/lower/lower_options.h"
#include "apps/lower/lower_reports.h"
#include "apps/lower/output_file.h"

int main(int argc, char** argv) {
  using namespace ember::aot;
  if (is_batch_invocation(argc, argv)) return run_batch(argc, argv);  // apps/lower/batch.h
  RecipeRegistry recipes;
  if (Error st = register_all_recipes(&recipes); st != Error::Ok) return report(st);
  LowerOptions o;
  if (const LowerUsage usage = parse_lower_options(argc, argv, recipes, &o); !usage.ok()) {
    return report_usage(usage);
  }
  if (!o.methods.empty()) {
    auto pte = multi_method_pte(recipes, o.recipe, o.methods, o.recipe_options);
    if (!pte.ok()) return report(pte.error());
    std::string bundled;
    auto bpte = bundle_file(o, *pte, &bundled);
    if (!bpte.ok()) return report(bpte.error(), 2);
    std::vector<OutputFile> files = {{o.out, *pte}};
    if (!bpte->path.empty()) files.push_back(std::move(*bpte));
    if (Error w = write_output_files(files); w != Error::Ok) return report(w);
    std::printf("wrote %s (%zu methods, %zu bytes)\n%s", o.out.c_str(), o.methods.size(), pte->size(),
                bundled.c_str());
    return 0;
  }
  std::vector<PassTiming> timings;
  auto session = ExportSession::create(recipes, o.recipe, o.input, o.recipe_options,
                                       session_options(o, &timings));
  if (!session.ok()) return report(session.error());
  const Error st = session->run();
  if (!o.dump_dir.empty()) {
    if (Error d = session->dump(o.dump_dir); d != Error::Ok) return report(d);
  }
  if (st != Error::Ok) return report(st);
  // Every output is made before any is written, and all are written as one set
  // (write_output_files): a failure leaves each previous file as it was.
  std::vector<OutputFile> files = {{o.out, *session->pte()}};
  if (!o.debug_out.empty()) {
    auto sidecar = debug_sidecar_file(*session, o.debug_out);
    if (!sidecar.ok()) return report(sidecar.error());
    files.push_back(std::move(*sidecar));
  }
  std::string bundled;
  auto bpte = bundle_file(o, *session->pte(), &bundled);
  if (!bpte.ok()) return report(bpte.error(), 2);
  if (!bpte->path.empty()) files.push_back(std::move(*bpte));
  if (Error w = write_output_files(files); w != Error::Ok) return report(w);
  print_lowering_report(*session, o.out);
  if (!o.debug_out.empty()) std::printf("wrote %s (provenance sidecar)\n", o.debug_out.c_str());
  std::printf("%s", bundled.c_str());
  return report(report_quantization(recipes, o, *session));
}
