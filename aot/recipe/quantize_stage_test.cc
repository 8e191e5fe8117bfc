// QuantizeStage refuses a core-ATen graph (decision 34, issue #33): SqueezeNet 1.1 exported
// to core ATen has aten.convolution nodes the XNNPACK quantizer does not annotate, and a cat
// it does, so the int8 recipe used to quantize the cat alone and write an fp32-sized program
// with an int8 report and no warning. Now it is NotSupported naming a convolution node and
// saying how to export, before any calibration run. The training-IR control (conv_bn_relu,
// aten.conv2d / aten.linear) passes the check and reaches the calibration runner.
#include "aot/recipe/quantize_stage.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "aot/frontend/pt2_reader.h"
#include "tests/support/shared_fixtures.h"

namespace ember::aot {
namespace {

// One zero-filled sample for the graph's user inputs (static float inputs in these fixtures).
std::vector<HostTensor> zero_sample(const Graph& g) {
  std::vector<HostTensor> sample;
  for (size_t i = 0; i < g.signature().inputs.size(); ++i) {
    if (g.signature().inputs[i].kind != InputKind::UserInput) continue;
    const TensorSpec& t = g.value(g.inputs()[i].value()).tensor;
    HostTensor h;
    h.dtype = t.dtype;
    for (const SymInt& s : t.sizes) h.sizes.push_back(s.value);
    h.bytes.assign(static_cast<size_t>(t.static_nbytes()), 0);
    sample.push_back(std::move(h));
  }
  return sample;
}

// Runs the quantize stage on fixture `name` with a runner that counts its calls and fails.
Error quantize(const std::string& name, int* runner_calls) {
  Result<Graph> g = read_pt2_file(ember::testing::committed_pt2_fixture(name));
  EXPECT_TRUE(g.ok()) << name << ": " << last_error_message();
  if (!g.ok()) return g.error();
  QuantizeOptions options;
  options.samples = {zero_sample(*g)};
  options.runner = [runner_calls](
                       const std::vector<uint8_t>&, const std::string&,
                       const std::vector<HostTensor>&) -> Result<std::vector<HostTensor>> {
    ++*runner_calls;
    return fail(Error::Internal, "stub runner");
  };
  QuantizeStage stage(options);
  StageArtifact previous;
  previous.graph = std::make_shared<const Graph>(std::move(*g));
  return stage.run(previous, StageContext{});
}

TEST(QuantizeStageTest, CoreAtenGraphIsRefusedEvenWhenSomethingCouldBeAnnotated) {
  int calls = 0;
  EXPECT_EQ(quantize("squeezenet1_1.core_aten.torch2_6.pt2", &calls), Error::NotSupported);
  const std::string m = last_error_message();
  EXPECT_NE(m.find("nothing to quantize in this form: the graph is core ATen (it has node '"),
            std::string::npos)
      << m;
  EXPECT_NE(m.find("(aten::convolution.default"), std::string::npos) << m;
  EXPECT_NE(m.find("the int8 program would stay float"), std::string::npos) << m;
  EXPECT_NE(m.find("torch.export.export_for_training"), std::string::npos) << m;
  EXPECT_EQ(calls, 0);  // refused before any calibration run
}

TEST(QuantizeStageTest, TrainingIrGraphReachesCalibration) {
  int calls = 0;
  EXPECT_EQ(quantize("conv_bn_relu.training_ir.torch2_6.pt2", &calls), Error::Internal);
  EXPECT_NE(
      std::string(last_error_message()).find("calibration sample 0 failed on the float program"),
      std::string::npos)
      << last_error_message();
  EXPECT_EQ(calls, 1);
}

}  // namespace
}  // namespace ember::aot
