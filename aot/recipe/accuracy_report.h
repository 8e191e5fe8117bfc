// The accuracy report of a quantizing lowering: the emitted program's outputs against the
// float program's, per output, as SQNR and max error (quant_report.h). Two kinds of recipe
// quantize, and each has its own float program and samples:
//
//   - "-int8" recipes (a QuantizeStage): the calibration samples and the float outputs the
//     stage kept while calibrating; `samples` is ignored.
//   - recipes that quantize without calibration (Recipe::dynamically_quantized: weights at
//     lowering, activations at run time, e.g. xnnpack-dq-w8, xnnpack-dq-w4-b32): the float
//     program is the session's transform-stage graph (the edge graph before delegation)
//     through to_executorch and emit, run on the portable kernels, on `samples` (the lower
//     tool passes its --calibrate files, else the .pt2's example inputs). A sample tensor of
//     dtype Undefined is raw bytes, typed by bind_calibration_samples (quantize_stage.h;
//     `names` name the files in its messages).
//
//   auto report = accuracy_report(session, {example_inputs}, run_options);
//   if (report.ok()) std::printf("%s", format_accuracy_report(*report).c_str());
//
// The emitted program runs with `run.backends` (the XNNPACK backend for delegated programs).
#pragma once

#include <string>
#include <vector>

#include "aot/recipe/export_session.h"
#include "aot/recipe/quant_report.h"
#include "aot/recipe/run_method.h"

namespace ember::aot {

struct AccuracyReport {
  std::string samples_kind;  // "calibration sample(s)" or "input sample(s)"
  size_t samples = 0;
  std::vector<TensorError> outputs;  // one per user output
  // Non-empty: why nothing was compared (no samples, the float program does not lower or
  // run, outputs that are not float32). The program is written; the report is a bonus, so
  // the lower tool prints this as a warning.
  std::string skipped;
};

// InvalidState when the session has not emitted; InvalidArgument for raw samples that do
// not fit the inputs; the runtime's error when the emitted program fails to run on a sample
// (a lowering bug, not a missing report).
Result<AccuracyReport> accuracy_report(const ExportSession& session,
                                       const std::vector<std::vector<HostTensor>>& samples,
                                       const RunOptions& run,
                                       const std::vector<std::vector<std::string>>& names = {});

// "quantized vs float on 2 calibration sample(s):\n  output 0: SQNR ..." (format_errors).
std::string format_accuracy_report(const AccuracyReport& report, const std::string& indent = "  ");

}  // namespace ember::aot
