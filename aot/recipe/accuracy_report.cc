// accuracy_report (see accuracy_report.h).
#include "aot/recipe/accuracy_report.h"

#include "aot/recipe/quantize_stage.h"
#include "aot/recipe/stages.h"

namespace ember::aot {
namespace {

constexpr const char* kMethod = "forward";

// The session's float edge graph: the transform stage's, before delegation.
Result<std::shared_ptr<const Graph>> edge_graph(const ExportSession& session) {
  const Stage* transform = session.find_stage("transform");
  if (transform == nullptr || !transform->done() || transform->artifact().graph == nullptr) {
    return fail(Error::InvalidState, "accuracy report: the session has no transform-stage graph");
  }
  return transform->artifact().graph;
}

// The float edge graph as a portable program.
Result<std::vector<uint8_t>> float_program(const ExportSession& session) {
  StageArtifact edge;
  EMBER_ASSIGN_OR_RETURN(edge.graph, edge_graph(session));
  ToExecutorchStage to_executorch;
  EmitStage emit;
  const StageContext context;
  EMBER_TRY_CONTEXT(to_executorch.run(edge, context), "accuracy report: the float program");
  EMBER_TRY_CONTEXT(emit.run(to_executorch.artifact(), context),
                    "accuracy report: the float program");
  return *emit.artifact().pte;
}

Result<std::vector<std::vector<HostTensor>>> run_all(
    const std::vector<uint8_t>& pte, const std::vector<std::vector<HostTensor>>& samples,
    const RunOptions& run, const char* what) {
  std::vector<std::vector<HostTensor>> outs;
  for (size_t k = 0; k < samples.size(); ++k) {
    auto got = run_pte_method(pte, kMethod, samples[k], run);
    if (!got.ok()) {
      return fail(got.error(), std::string("accuracy report: running the ") + what + " on sample " +
                                   std::to_string(k));
    }
    outs.push_back(std::move(got.get()));
  }
  return outs;
}

}  // namespace

Result<AccuracyReport> accuracy_report(const ExportSession& session,
                                       const std::vector<std::vector<HostTensor>>& samples,
                                       const RunOptions& run,
                                       const std::vector<std::vector<std::string>>& names) {
  if (session.pte() == nullptr) {
    return fail(Error::InvalidState, "accuracy report: the session has not emitted a program");
  }
  AccuracyReport report;
  std::vector<std::vector<HostTensor>> ref, got;
  const Stage* qs = session.find_stage("quantize");
  if (qs != nullptr && qs->done()) {
    const QuantizeResults& q = static_cast<const QuantizeStage*>(qs)->results();
    report.samples_kind = "calibration sample(s)";
    report.samples = q.samples.size();
    ref = q.float_outputs;
    EMBER_ASSIGN_OR_RETURN(got, run_all(*session.pte(), q.samples, run, "quantized program"));
  } else {
    report.samples_kind = "input sample(s)";
    report.samples = samples.size();
    if (samples.empty()) {
      report.skipped = "no input samples to compare on";
      return report;
    }
    std::vector<std::vector<HostTensor>> bound = samples;
    bool raw = false;
    for (const auto& sample : samples) {
      for (const HostTensor& t : sample) raw = raw || t.dtype == ScalarType::Undefined;
    }
    if (raw) {  // files: typed and sized by the graph's inputs
      EMBER_ASSIGN_OR_RETURN(std::shared_ptr<const Graph> g, edge_graph(session));
      EMBER_ASSIGN_OR_RETURN(bound, bind_calibration_samples(*g, samples, names));
    }
    EMBER_ASSIGN_OR_RETURN(got, run_all(*session.pte(), bound, run, "quantized program"));
    auto float_pte = float_program(session);
    auto float_outs = float_pte.ok() ? run_all(*float_pte, bound, {}, "float program")
                                     : Result<std::vector<std::vector<HostTensor>>>(float_pte.error());
    if (!float_outs.ok()) {
      report.skipped = format_error(float_outs.error());
      return report;
    }
    ref = std::move(float_outs.get());
  }
  auto errors = compare_outputs(ref, got);
  if (!errors.ok()) {
    report.skipped = format_error(errors.error());
    return report;
  }
  report.outputs = std::move(errors.get());
  return report;
}

std::string format_accuracy_report(const AccuracyReport& report, const std::string& indent) {
  return "quantized vs float on " + std::to_string(report.samples) + " " + report.samples_kind +
         ":\n" + format_errors(report.outputs, indent);
}

}  // namespace ember::aot
