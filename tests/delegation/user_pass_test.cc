// User passes (the tutorial's ReplaceReluWithSigmoid) by name from the PassRegistry in the
// transform stage of a full lowering, portable and on DemoBackend, run on Ember's runtime.
// sigmoid(0) = 1/2, sigmoid(ln 3) = 3/4, sigmoid(-ln 3) = 1/4. The pass, the registry and
// the pipeline instrumentation on their own: aot/passes/replace_relu_with_sigmoid_pass_test.
#include <gtest/gtest.h>

#include <cmath>

#include "aot/ir/testing/graph_builder.h"
#include "aot/passes/pass_registry.h"
#include "backends/demo/aot/demo_partitioner.h"
#include "tests/delegation/pipeline_util.h"

namespace ember::testing {
namespace {

using aot::testing::GraphBuilder;
using runtime::Error;

aot::Graph relu_model() {
  GraphBuilder g;
  auto x = g.input("x", {3});
  auto r = g.op("aten::relu.default", {{"self", x}}, "relu_0", {3});
  g.output(g.op("aten::mul.Tensor", {{"self", r}, {"other", x}}, "mul_1", {3}));
  return g.take();
}

const float kLn3 = std::log(3.f);
// relu(x) * x = [0, ln3 * ln3, 0]; sigmoid(x) * x = [0, 0.75 ln3, -0.25 ln3]
const std::vector<float> kWithRelu = {0, kLn3 * kLn3, 0};
const std::vector<float> kWithSigmoid = {0, 0.75f * kLn3, -0.25f * kLn3};

void check_lowering(bool demo, bool with_pass, const std::vector<float>& want) {
  aot::PassRegistry passes;
  ASSERT_EQ(aot::register_example_passes(&passes), Error::Ok);
  std::vector<std::shared_ptr<const aot::Pass>> user;
  if (with_pass) user.push_back(*passes.create("replace_relu_with_sigmoid"));
  std::vector<std::shared_ptr<const aot::Partitioner>> parts;
  if (demo) parts.push_back(std::make_shared<backends::demo::DemoPartitioner>());
  aot::ExportSession s = session_for(relu_model(), parts, user);
  aot::Error st = s.run();
  ASSERT_EQ(st, Error::Ok) << ::ember::aot::format_error(st);
  auto transformed = s.print("transform");
  ASSERT_TRUE(transformed.ok());
  EXPECT_EQ(transformed->find("aten::sigmoid") != std::string::npos, with_pass) << *transformed;
  EXPECT_EQ(s.last_artifact().program->methods[0].delegates.size(), demo ? 1u : 0u);
  auto out = run_with_demo(*s.pte(), "forward", {f32({3}, {0, kLn3, -kLn3})});
  ASSERT_TRUE(out.ok()) << ::ember::aot::format_error(out.error());
  const std::vector<float> got = floats((*out)[0]);
  for (size_t i = 0; i < 3; ++i) EXPECT_NEAR(got[i], want[i], 1e-6) << i << " demo=" << demo;
}

TEST(UserPass, EndToEndPortable) {
  check_lowering(false, false, kWithRelu);
  check_lowering(false, true, kWithSigmoid);
}

TEST(UserPass, EndToEndOnDemoBackend) {
  check_lowering(true, false, kWithRelu);
  check_lowering(true, true, kWithSigmoid);
}

}  // namespace
}  // namespace ember::testing
