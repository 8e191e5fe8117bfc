// The export tutorial's user pass, ReplaceReluWithSigmoidPass: the pass by itself, created
// by name from the PassRegistry, and the pipeline instrumentation around it (graph printed
// after the pass, pass timed). Lowered end to end: tests/delegation/user_pass_test.
#include "aot/passes/replace_relu_with_sigmoid_pass.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "aot/ir/printer.h"
#include "aot/ir/testing/graph_builder.h"
#include "aot/passes/pass_registry.h"
#include "aot/passes/pipeline.h"
#include "runtime/core/diagnostics.h"

namespace ember::aot {
namespace {

using testing::GraphBuilder;

Graph relu_model() {
  GraphBuilder g;
  auto x = g.input("x", {3});
  auto r = g.op("aten::relu.default", {{"self", x}}, "relu", {3});
  g.output(g.op("aten::mul.Tensor", {{"self", r}, {"other", x}}, "mul", {3}));
  return g.take();
}

TEST(UserPass, ReplacesReluOnly) {
  Graph g = relu_model();
  ASSERT_EQ(ReplaceReluWithSigmoidPass().run(g), Error::Ok);
  EXPECT_EQ(g.nodes()[0].op.qualified(), "aten::sigmoid.default");
  EXPECT_EQ(g.nodes()[0].target, "torch.ops.aten.sigmoid.default");
  EXPECT_EQ(g.nodes()[1].op.qualified(), "aten::mul.Tensor");
  EXPECT_EQ(g.nodes()[0].outputs[0].values[0], relu_model().nodes()[0].outputs[0].values[0]);
}

TEST(UserPass, RegistryCreatesByNameAndNamesUnknown) {
  PassRegistry passes;
  ASSERT_EQ(register_example_passes(&passes), Error::Ok);
  EXPECT_NE(register_example_passes(&passes), Error::Ok);  // duplicate
  EXPECT_EQ(passes.names(), std::vector<std::string>{"replace_relu_with_sigmoid"});
  auto p = passes.create("replace_relu_with_sigmoid");
  ASSERT_TRUE(p.ok());
  EXPECT_STREQ((*p)->name(), "replace_relu_with_sigmoid");
  auto missing = passes.create("fold_everything");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error(), Error::NotFound);
  EXPECT_NE(std::string(::ember::runtime::last_error_message())
                .find("registered: replace_relu_with_sigmoid"),
            std::string::npos);
}

TEST(UserPass, InstrumentationPrintsAndTimes) {
  std::vector<std::pair<std::string, std::string>> printed;
  std::vector<PassTiming> timings;
  PassInstrumentation inst;
  inst.print_after_each = true;
  inst.print = [&](const std::string& title, const std::string& text) {
    printed.emplace_back(title, text);
  };
  inst.timings = &timings;
  PassPipeline p("transform");
  p.add(std::make_unique<ReplaceReluWithSigmoidPass>());
  Graph g = relu_model();
  const std::string before = print_graph(g);
  ASSERT_EQ(p.run(g, inst), Error::Ok);
  EXPECT_NE(before.find("aten::relu.default"), std::string::npos);
  ASSERT_EQ(printed.size(), 1u);
  EXPECT_NE(printed[0].first.find("replace_relu_with_sigmoid"), std::string::npos);
  EXPECT_NE(printed[0].second.find("aten::sigmoid.default"), std::string::npos);
  EXPECT_EQ(printed[0].second.find("aten::relu"), std::string::npos);
  ASSERT_EQ(timings.size(), 1u);
  EXPECT_EQ(timings[0].pass, "replace_relu_with_sigmoid");
  EXPECT_GE(timings[0].millis, 0.0);
}

}  // namespace
}  // namespace ember::aot
