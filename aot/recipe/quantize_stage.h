// QuantizeStage: post-training quantization between load and to_edge (recipes
// "portable-int8" and "xnnpack-int8"), as PT2E's prepare_pt2e -> calibrate -> convert_pt2e
// with XNNPACKQuantizer's symmetric per-channel config (docs/quantization.md):
//   1. fold batch norms into convolutions (aot/quantize/fold_conv_bn.h)
//   2. annotate and group observers (aot/quantize/annotate.h)
//   3. calibrate: the float graph, with every observed activation added as an output, is
//      lowered with the portable pipeline (to_edge .. emit, no delegate) and run on Ember's
//      runtime through QuantizeOptions::runner (run_pte_method), one run per sample; the
//      histogram observers see the values in PyTorch's order (aot/quantize/observer.h)
//   4. convert to the QDQ graph (aot/quantize/convert.h)
// Artifacts: the QDQ graph; extra_dumps() adds the annotated graph (annotations.txt) and the
// calibration statistics (calibration.json); float_outputs() keeps the float program's
// outputs per sample for the end-of-lowering comparison (quant_report.h).
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "aot/recipe/quant_report.h"
#include "aot/recipe/stage.h"

namespace ember::aot {

struct QuantizeOptions {
  // One entry per sample: the method's user inputs in order. A tensor whose dtype is
  // Undefined is raw bytes (a calibration .bin file): it takes the input's dtype and sizes
  // once its byte size matches. Empty: the stage fails with InvalidArgument (the lower tool
  // falls back to the .pt2's example inputs).
  std::vector<std::vector<HostTensor>> samples;
  std::vector<std::vector<std::string>> sample_names;  // optional: file names for messages
  MethodRunner runner;           // required (run_pte_method)
  std::string method = "forward";
  bool per_layer_report = false;
};

struct QuantizeResults {
  std::string annotated;        // annotated graph text
  std::string statistics_json;  // every observer: what it saw, min/max, scale/zero point
  std::vector<std::vector<HostTensor>> samples;        // as bound to the method's inputs
  std::vector<std::vector<HostTensor>> float_outputs;  // per sample, user outputs
  // Per observed activation: the QDQ program (portable kernels) against the float one, on
  // the calibration samples (filled when QuantizeOptions::per_layer_report).
  std::vector<TensorError> layers;
  int folded_batch_norms = 0;
  int observer_groups = 0;
};

class QuantizeStage final : public Stage {
 public:
  explicit QuantizeStage(QuantizeOptions options)
      : options_(std::move(options)), results_(std::make_shared<QuantizeResults>()) {}
  const char* name() const override { return "quantize"; }
  std::vector<std::pair<std::string, std::string>> extra_dumps() const override;
  const QuantizeResults& results() const { return *results_; }

 protected:
  Result<StageArtifact> transform(const StageArtifact& previous,
                                  const StageContext& context) const override;

 private:
  Result<std::vector<TensorError>> per_layer_errors(
      const Graph& q, const std::vector<std::vector<HostTensor>>& samples,
      const std::map<ValueId, std::vector<HostTensor>>& float_values) const;

  QuantizeOptions options_;
  std::shared_ptr<QuantizeResults> results_;  // filled by transform()
};

// Checks samples against the graph's user inputs (count, and per input dtype and byte size)
// and gives raw ones the input's dtype and sizes. InvalidArgument, e.g. "calibration sample 0
// input 0 ('x', file a.bin): 60 bytes, expected 64 (f32[4, 4])"; zero samples is
// InvalidArgument too.
Result<std::vector<std::vector<HostTensor>>> bind_calibration_samples(
    const Graph& graph, const std::vector<std::vector<HostTensor>>& samples,
    const std::vector<std::vector<std::string>>& names = {});

}  // namespace ember::aot
