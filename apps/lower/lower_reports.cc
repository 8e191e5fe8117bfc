// lower's reports and side outputs (see lower_reports.h).
#include "apps/lower/lower_reports.h"

#include "apps/common/printable.h"

#include <sys/stat.h>

#include <cstdio>

#include "aot/emit/bundled_program_writer.h"
#include "aot/emit/debug_sidecar.h"
#include "aot/quantize/example_inputs.h"
#include "aot/recipe/accuracy_report.h"
#include "aot/recipe/decode_report.h"
#include "aot/recipe/quant_report.h"
#include "aot/recipe/quantize_stage.h"
#include "aot/recipe/run_method.h"
#include "apps/lower/bundle_cases.h"
#include "apps/lower/output_file.h"
#include "backends/xnnpack/runtime/xnnpack_backend.h"
#include "runtime/backend/backend_registry.h"

namespace ember::aot {

SessionOptions session_options(const LowerOptions& options, std::vector<PassTiming>* timings) {
  SessionOptions so;
  so.context.instrumentation.timings = timings;
  if (!options.dump_dir.empty()) mkdir(options.dump_dir.c_str(), 0755);  // an existing one is fine
  if (options.verbose) so.context.instrumentation.dump_dir = options.dump_dir;
  const bool verbose = options.verbose;
  so.on_stage_done = [timings, verbose](const Stage& s) {
    std::printf("[%-13s] %8.2f ms\n", s.name(), s.millis());
    if (verbose) {
      for (const PassTiming& t : *timings)
        std::printf("    %-24s %8.2f ms\n", t.pass.c_str(), t.millis);
    }
    timings->clear();
    std::fflush(stdout);
  };
  return so;
}

void print_lowering_report(const ExportSession& session, const std::string& out) {
  const MemoryPlanReport& mem = session.memory_report();
  std::printf("memory plan (%s): arena %llu B, lower bound %llu B, ratio %.3f, %zu tensors\n",
              mem.planner.c_str(), static_cast<unsigned long long>(mem.arena_size),
              static_cast<unsigned long long>(mem.lower_bound), mem.ratio(), mem.planned_tensors);
  std::printf("%s", session.delegation_summary().c_str());
  std::printf("wrote %s (%zu bytes)\n", out.c_str(), session.pte()->size());
}

Result<OutputFile> debug_sidecar_file(const ExportSession& session, const std::string& path) {
  const std::shared_ptr<const EmitProgram>& program = session.last_artifact().program;
  if (program == nullptr) return fail(Error::Internal, "no emitted program for --debug_out");
  const std::string json = debug_sidecar_json(*program, *session.pte());
  return OutputFile{path, std::vector<uint8_t>(json.begin(), json.end())};
}

Result<OutputFile> bundle_file(const LowerOptions& options, const std::vector<uint8_t>& pte,
                               std::string* summary) {
  if (!options.bundling) return OutputFile{};
  EMBER_ASSIGN_OR_RETURN(auto suites,
                         bundle_cases(pte, options.bundle_inputs, options.bundle_outputs,
                                      options.bundle_cases, resolve_path));
  EMBER_ASSIGN_OR_RETURN(std::vector<uint8_t> bpte, write_bundled_program(pte, suites));
  size_t cases = 0;
  for (const BundledTestSuite& s : suites) cases += s.cases.size();
  char line[512];
  std::snprintf(line, sizeof(line), "wrote %s (bundled program: %zu case(s) for %zu method(s), %zu bytes)\n",
                options.bpte_path.c_str(), cases, suites.size(), bpte.size());
  *summary = line;
  return OutputFile{options.bpte_path, std::move(bpte)};
}

namespace {

// The XNNPACK runtime backend, so that the reports run delegate calls too.
const runtime::BackendRegistry* report_backends() {
  static runtime::BackendRegistry backends;
  static const runtime::Error registered = ::ember::backends::xnnpack::register_backend(backends);
  return registered == runtime::Error::Ok ? &backends : nullptr;
}

}  // namespace

Error report_weight_accuracy(const RecipeRegistry& recipes, const LowerOptions& options,
                             const ExportSession& session) {
  if (options.float_recipe.empty()) return Error::Ok;
  auto prompt = read_example_inputs(options.input);
  if (!prompt.ok()) {
    std::printf("no accuracy report: %s\n", format_error(prompt.error()).c_str());
    return Error::Ok;
  }
  auto reference = ExportSession::create(recipes, options.float_recipe, options.input,
                                         options.recipe_options, {});
  if (!reference.ok()) return reference.error();
  if (Error st = reference->run(); st != Error::Ok) {
    return fail(st, "lowering the float program ('" + options.float_recipe +
                        "') for the accuracy report");
  }
  RunOptions run_options;
  run_options.backends = report_backends();
  if (run_options.backends == nullptr) {
    return fail(Error::Internal, "cannot register the XNNPACK runtime backend");
  }
  constexpr int kDecodeSteps = 16;
  auto cmp = compare_greedy_decode(*reference->pte(), *session.pte(), *prompt, kDecodeSteps,
                                   run_options);
  if (!cmp.ok()) {
    std::fprintf(stderr, "lower: warning: no accuracy report: %s\n",
                 format_error(cmp.error()).c_str());
    return Error::Ok;
  }
  std::printf("%s vs %s on the example inputs:\n%s", options.recipe.c_str(),
              options.float_recipe.c_str(), format_decode_comparison(*cmp).c_str());
  return Error::Ok;
}

Error report_accuracy(const ExportSession& session, const LowerOptions& options) {
  // XNNPACK delegate calls in the final program are run too.
  RunOptions run_options;
  run_options.backends = report_backends();
  if (run_options.backends == nullptr) {
    return fail(Error::Internal, "cannot register the XNNPACK runtime backend");
  }
  // Dynamically quantized: the --calibrate samples, else the .pt2's example inputs.
  const QuantizeOptions& given = options.recipe_options.quantize;
  std::vector<std::vector<HostTensor>> samples = given.samples;
  std::string missing;
  if (options.dynamic_quant && samples.empty()) {
    auto example = read_example_inputs(options.input);
    if (example.ok()) {
      samples.push_back(std::move(example.get()));
    } else {
      missing = "the .pt2's example inputs cannot be used: " + format_error(example.error());
    }
  }
  AccuracyReport r;
  if (missing.empty()) {
    EMBER_ASSIGN_OR_RETURN(r, accuracy_report(session, samples, run_options, given.sample_names));
    missing = r.skipped;
  }
  if (!missing.empty()) {  // the program is written; the report is a bonus
    std::fprintf(stderr, "lower: warning: no accuracy report: %s\n", missing.c_str());
    return Error::Ok;
  }
  std::printf("%s", format_accuracy_report(r).c_str());
  const Stage* qs = session.find_stage("quantize");
  if (options.verbose && qs != nullptr && qs->done()) {
    const QuantizeResults& q = static_cast<const QuantizeStage*>(qs)->results();
    if (!q.layers.empty()) {
      std::printf("per layer (QDQ program on the portable kernels vs float):\n%s",
                  format_errors(q.layers, "  ").c_str());
    }
  }
  return Error::Ok;
}

Error report_quantization(const RecipeRegistry& recipes, const LowerOptions& options,
                          const ExportSession& session) {
  if (options.int8) return report_accuracy(session, options);
  if (!options.dynamic_quant && options.float_recipe.empty()) return Error::Ok;
  // A decoder step without --calibrate samples: compared as an LLM is used (prompt + greedy
  // steps with the KV cache carried over); any other program on its samples' outputs.
  if (!options.float_recipe.empty() && options.recipe_options.quantize.samples.empty()) {
    auto example = read_example_inputs(options.input);
    if (example.ok() && is_decoder_step(*example)) {
      return report_weight_accuracy(recipes, options, session);
    }
  }
  return report_accuracy(session, options);
}

int report(Error error, int status) {
  if (error == Error::Ok) return 0;
  std::fprintf(stderr, "lower: %s\n", apps::printable_message(format_error(error)).c_str());
  return status;
}

int report_usage(const LowerUsage& usage) {
  if (usage.print_usage) {
    std::fprintf(
        stderr,
        "usage: lower MODEL.pt2 -o MODEL.pte [--recipe portable] [--dump_dir DIR] [--verbose]\n");
    return usage.status;
  }
  report(usage.error, usage.status);
  return usage.status;
}

}  // namespace ember::aot
