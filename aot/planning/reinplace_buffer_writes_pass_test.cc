// ReinplaceBufferWritesPass on hand-made graphs: a buffer's copy-into write becomes a write
// into the buffer itself (later reads read the buffer, the BUFFER_MUTATION output is the buffer);
// a write whose old buffer value is read later, or that reads the buffer in another argument,
// stays functional.
#include "aot/planning/reinplace_buffer_writes_pass.h"

#include <gtest/gtest.h>

#include "aot/ir/graph_rewrite.h"
#include "aot/ir/testing/graph_builder.h"
#include "aot/passes/functionalize_pass.h"
#include "aot/passes/out_variant_pass.h"
#include "aot/planning/memory_planning_pass.h"

namespace ember::aot {
namespace {

using testing::GraphBuilder;

const Node* node_named(const Graph& g, const std::string& name) {
  for (const Node& n : g.nodes()) {
    if (n.name == name) return &n;
  }
  return nullptr;
}

TEST(ReinplaceBufferWritesPassTest, CopyIntoBufferWritesTheBufferItself) {
  GraphBuilder b;
  ValueId cache = b.parameter("cache", {4}, {0.f, 0.f, 0.f, 0.f}, InputKind::Buffer);
  ValueId x = b.input("x", {4});
  ValueId c = b.op("aten::copy_.default", {{"self", cache}, {"src", x}}, "copy_", {4});
  b.output(b.op("aten::mul.Tensor", {{"self", c}, {"other", x}}, "mul", {4}));
  Graph g = b.take();
  ASSERT_EQ(FunctionalizePass().run(g), Error::Ok);
  ASSERT_EQ(OutVariantPass().run(g), Error::Ok);
  ASSERT_EQ(ReinplaceBufferWritesPass().run(g), Error::Ok);
  const Node* copy = node_named(g, "copy_");
  const Node* mul = node_named(g, "mul");
  ASSERT_NE(copy, nullptr);
  ASSERT_NE(mul, nullptr);
  EXPECT_EQ(copy->op.qualified(), "aten::copy.out");
  EXPECT_EQ(tensor_of(copy->outputs[0]), cache);    // out = the buffer
  EXPECT_EQ(tensor_of(mul->inputs[0].arg), cache);  // the later read reads the buffer
  auto pairs = mutated_buffers(g);
  ASSERT_EQ(pairs.size(), 1u);
  EXPECT_EQ(pairs[0].first, cache);
  EXPECT_EQ(pairs[0].second, cache);  // nothing to write back
  EXPECT_EQ(MemoryPlanningPass().run(g), Error::Ok);
}

TEST(ReinplaceBufferWritesPassTest, OldValueReadAfterTheWriteStaysFunctional) {
  GraphBuilder b;
  ValueId cache = b.parameter("cache", {4}, {1.f, 2.f, 3.f, 4.f}, InputKind::Buffer);
  ValueId x = b.input("x", {4});
  ValueId c = b.op("aten::copy.default", {{"self", cache}, {"src", x}}, "copy", {4});
  b.output(c, OutputKind::BufferMutation, "cache");
  b.output(b.op("aten::mul.Tensor", {{"self", cache}, {"other", x}}, "mul", {4}));  // old value
  Graph g = b.take();
  ASSERT_EQ(OutVariantPass().run(g), Error::Ok);
  ASSERT_EQ(ReinplaceBufferWritesPass().run(g), Error::Ok);
  EXPECT_EQ(tensor_of(node_named(g, "copy")->outputs[0]), c);
  EXPECT_EQ(tensor_of(node_named(g, "mul")->inputs[0].arg), cache);
}

TEST(ReinplaceBufferWritesPassTest, WriteThatReadsTheBufferElsewhereStaysFunctional) {
  GraphBuilder b;
  ValueId cache = b.parameter("cache", {4}, {1.f, 2.f, 3.f, 4.f}, InputKind::Buffer);
  ValueId c = b.op("aten::add.Tensor", {{"self", cache}, {"other", cache}}, "add", {4});
  b.output(c, OutputKind::BufferMutation, "cache");
  b.output(b.op("aten::neg.default", {{"self", c}}, "neg", {4}));
  Graph g = b.take();
  ASSERT_EQ(OutVariantPass().run(g), Error::Ok);
  ASSERT_EQ(ReinplaceBufferWritesPass().run(g), Error::Ok);
  EXPECT_EQ(tensor_of(node_named(g, "add")->outputs[0]), c);
}

}  // namespace
}  // namespace ember::aot
