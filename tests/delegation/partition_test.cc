// to_backend, third way (the tutorial's partitioner example): f(a, x, b) with mm and add
// twice and a sub between them, partitioned by an add/mm-only DemoPartitioner, gives two
// delegate calls and a portable sub; with every demo op allowed it is one call. Lowered
// through the real stages to a .pte, run on Ember's runtime with DemoBackend and compared
// with values computed by hand.
#include <gtest/gtest.h>

#include "aot/ir/testing/graph_builder.h"
#include "aot/recipe/run_method.h"
#include "backends/demo/aot/demo_partitioner.h"
#include "runtime/core/diagnostics.h"
#include "runtime/module/module.h"
#include "tests/delegation/pipeline_util.h"

namespace ember::testing {
namespace {

using aot::testing::GraphBuilder;
using runtime::Error;

// def f(a, x, b):
//   y = torch.mm(a, x); z = y + b; a = z - a; y = torch.mm(a, x); z = y + b; return z
aot::Graph tutorial_f() {
  GraphBuilder g;
  auto a = g.input("a", {2, 2});
  auto x = g.input("x", {2, 2});
  auto b = g.input("b", {2, 2});
  auto y = g.op("aten::mm.default", {{"self", a}, {"mat2", x}}, "mm_0", {2, 2});
  auto z = g.op("aten::add.Tensor", {{"self", y}, {"other", b}}, "add_1", {2, 2});
  auto a2 = g.op("aten::sub.Tensor", {{"self", z}, {"other", a}}, "sub_2", {2, 2});
  auto y2 = g.op("aten::mm.default", {{"self", a2}, {"mat2", x}}, "mm_3", {2, 2});
  auto z2 = g.op("aten::add.Tensor", {{"self", y2}, {"other", b}}, "add_4", {2, 2});
  g.output(z2);
  return g.take();
}

// a = [1 2; 3 4], x = [1 0; 1 1], b = ones:
// mm(a, x) = [3 2; 7 4]; z = [4 3; 8 5]; z - a = [3 1; 5 1]; mm(., x) = [4 1; 6 1]; + b.
const std::vector<float> kExpected = {5, 2, 7, 2};

std::vector<aot::HostTensor> inputs() {
  return {f32({2, 2}, {1, 2, 3, 4}), f32({2, 2}, {1, 0, 1, 1}), f32({2, 2}, {1, 1, 1, 1})};
}

size_t count_delegate_calls(const aot::EmitProgram& p) {
  size_t n = 0;
  for (const auto& in : p.methods[0].instructions) {
    n += in.kind == aot::EmitInstructionKind::DelegateCall ? 1 : 0;
  }
  return n;
}

TEST(TutorialPartition, AddMmPartitionerGivesTwoDelegateCalls) {
  auto partitioner = std::make_shared<backends::demo::DemoPartitioner>(
      std::vector<std::string>{"add", "mm"});
  aot::ExportSession s = session_for(tutorial_f(), {partitioner});
  ASSERT_EQ(s.run(), Error::Ok) << ::ember::aot::format_error(s.run());
  const aot::StageArtifact& art = s.last_artifact();
  EXPECT_EQ(art.delegation.num_partitions, 2);
  ASSERT_EQ(art.delegation.entries.size(), 5u);
  EXPECT_FALSE(art.delegation.entries[2].delegated);  // the sub
  EXPECT_EQ(art.delegation.entries[2].op, "aten::sub.Tensor");
  EXPECT_EQ(art.delegation.entries[0].partition, 0);
  EXPECT_EQ(art.delegation.entries[4].partition, 1);
  ASSERT_NE(art.program, nullptr);
  EXPECT_EQ(count_delegate_calls(*art.program), 2u);
  ASSERT_EQ(art.program->methods[0].delegates.size(), 2u);
  EXPECT_EQ(art.program->methods[0].delegates[0].id, "DemoBackend");
  EXPECT_EQ(art.program->methods[0].instructions.size(), 3u);  // delegate, sub, delegate
  EXPECT_NE(s.delegation_summary().find("demo: 4 of 5 nodes in 2 partition"), std::string::npos)
      << s.delegation_summary();

  auto out = run_with_demo(*s.pte(), "forward", inputs());
  ASSERT_TRUE(out.ok()) << ::ember::aot::format_error(out.error());
  ASSERT_EQ(out->size(), 1u);
  EXPECT_EQ(floats((*out)[0]), kExpected);
}

TEST(TutorialPartition, FullDemoPartitionerGivesOneDelegateCall) {
  aot::ExportSession s =
      session_for(tutorial_f(), {std::make_shared<backends::demo::DemoPartitioner>()});
  ASSERT_EQ(s.run(), Error::Ok);
  EXPECT_EQ(s.last_artifact().delegation.num_partitions, 1);
  EXPECT_EQ(count_delegate_calls(*s.last_artifact().program), 1u);
  EXPECT_EQ(s.last_artifact().program->methods[0].instructions.size(), 1u);
  auto out = run_with_demo(*s.pte(), "forward", inputs());
  ASSERT_TRUE(out.ok()) << ::ember::aot::format_error(out.error());
  EXPECT_EQ(floats((*out)[0]), kExpected);
}

TEST(TutorialPartition, PortableOnlyGivesSameValues) {
  aot::ExportSession s = session_for(tutorial_f(), {});
  ASSERT_EQ(s.run(), Error::Ok);
  EXPECT_EQ(count_delegate_calls(*s.last_artifact().program), 0u);
  auto out = run_with_demo(*s.pte(), "forward", inputs());
  ASSERT_TRUE(out.ok()) << ::ember::aot::format_error(out.error());
  EXPECT_EQ(floats((*out)[0]), kExpected);
}

TEST(TutorialPartition, MissingBackendFailsAtLoadNamingIt) {
  auto partitioner = std::make_shared<backends::demo::DemoPartitioner>();
  aot::ExportSession s = session_for(tutorial_f(), {partitioner});
  ASSERT_EQ(s.run(), Error::Ok);
  runtime::BackendRegistry empty;
  runtime::Module module(s.pte()->data(), s.pte()->size());
  runtime::Module::Options options;
  options.method.backends = &empty;
  module.set_options(options);
  ASSERT_EQ(module.load(), runtime::Error::Ok);  // the program itself is fine
  auto method = module.load_method("forward");
  ASSERT_FALSE(method.ok());
  EXPECT_EQ(method.error(), runtime::Error::NotFound);
  const std::string message = runtime::last_error_message();
  EXPECT_NE(message.find("backend 'DemoBackend'"), std::string::npos) << message;
  EXPECT_NE(message.find("not registered"), std::string::npos) << message;
}

}  // namespace
}  // namespace ember::testing
