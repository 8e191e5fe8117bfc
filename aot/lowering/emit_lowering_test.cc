// lower_to_emit_program on hand-made graphs, expected layouts from pte-format.md §4.2:
// add.out args = [self, other, alpha, out, out]; the method's inputs are the user inputs
// and its outputs the user outputs only; a mutated buffer is planned with its initial
// bytes as mutable data and written back by a final aten::copy.out.
#include "aot/lowering/emit_lowering.h"

#include <gtest/gtest.h>

#include "aot/emit/pte_writer.h"
#include "aot/passes/functionalize_pass.h"
#include "aot/passes/memory_planning_pass.h"
#include "aot/passes/out_variant_pass.h"
#include "aot/passes/testing/graph_builder.h"
#include "aot/pte_check/pte_check.h"

namespace ember::aot {
namespace {

using testing::GraphBuilder;

Status to_executorch(Graph& g) {
  EMBER_AOT_RETURN_IF_ERROR(OutVariantPass().run(g));
  return MemoryPlanningPass().run(g);
}

TEST(EmitLoweringTest, AddOutArgumentLayout) {
  GraphBuilder b;
  ValueId x = b.input("x", {2, 2});
  ValueId y = b.input("y", {2, 2});
  b.output(b.op("aten::add.Tensor", {{"self", x}, {"other", y}}, "add", {2, 2}));
  Graph g = b.take();
  ASSERT_TRUE(to_executorch(g).is_ok());
  auto p = lower_to_emit_program(g);
  ASSERT_TRUE(p.is_ok()) << p.status().to_string();
  const EmitMethod& m = p->methods[0];
  ASSERT_EQ(m.operators.size(), 1u);
  EXPECT_EQ(m.operators[0].name, "aten::add");
  EXPECT_EQ(m.operators[0].overload, "out");
  ASSERT_EQ(m.instructions.size(), 1u);
  const std::vector<int32_t>& args = m.instructions[0].args;
  ASSERT_EQ(args.size(), 5u);
  EXPECT_EQ(args[0], m.inputs[0]);
  EXPECT_EQ(args[1], m.inputs[1]);
  EXPECT_EQ(m.values[static_cast<size_t>(args[2])].kind, EmitValueKind::kInt);
  EXPECT_EQ(m.values[static_cast<size_t>(args[2])].int_value, 1);  // alpha default
  EXPECT_EQ(args[3], args[4]);
  EXPECT_EQ(m.outputs, std::vector<int32_t>{args[3]});
  const EmitTensor& out = m.values[static_cast<size_t>(args[3])].tensor;
  EXPECT_EQ(out.memory_id, 1u);
  // x, y and the output are all live at the one instruction: 3 x 16 B.
  EXPECT_EQ(m.non_const_buffer_sizes, (std::vector<int64_t>{0, 48}));
  std::vector<uint8_t> bytes;
  ASSERT_TRUE(write_pte(p.value(), &bytes).is_ok());
  PteCheckOptions options;
  options.kernel_arg_counts["aten::add.out"] = 5;
  EXPECT_EQ(count_errors(check_pte(bytes, options)), 0u);
}

TEST(EmitLoweringTest, MutatedBufferIsPlannedWithInitialDataAndWrittenBack) {
  GraphBuilder b;
  ValueId s = b.parameter("steps", {1}, {3.f}, InputKind::kBuffer);
  ValueId x = b.input("x", {1});
  ValueId a = b.op("aten::add_.Tensor", {{"self", s}, {"other", x}}, "add_", {1});
  b.output(b.op("aten::mul.Tensor", {{"self", a}, {"other", x}}, "mul", {1}));
  Graph g = b.take();
  ASSERT_TRUE(FunctionalizePass().run(g).is_ok());
  ASSERT_TRUE(to_executorch(g).is_ok());
  auto p = lower_to_emit_program(g);
  ASSERT_TRUE(p.is_ok()) << p.status().to_string();
  const EmitMethod& m = p->methods[0];
  EXPECT_EQ(m.inputs.size(), 1u);   // only x
  EXPECT_EQ(m.outputs.size(), 1u);  // only mul: the mutation stays inside
  ASSERT_EQ(p->mutable_data.size(), 1u);
  float initial;
  std::memcpy(&initial, p->mutable_data[0].data(), 4);
  EXPECT_EQ(initial, 3.f);
  const EmitInstruction& last = m.instructions.back();
  EXPECT_EQ(m.operators[static_cast<size_t>(last.index)].name, "aten::copy");
  ASSERT_EQ(last.args.size(), 5u);
  const EmitTensor& buffer = m.values[static_cast<size_t>(last.args[0])].tensor;
  EXPECT_EQ(buffer.mutable_data_index, 0);
  EXPECT_GE(buffer.memory_id, 1u);
  EXPECT_EQ(last.args[3], last.args[0]);  // out = the buffer itself
  std::vector<uint8_t> bytes;
  ASSERT_TRUE(write_pte(p.value(), &bytes).is_ok());
  EXPECT_EQ(count_errors(check_pte(bytes)), 0u);
}

TEST(EmitLoweringTest, FunctionalOpsAreRejected) {
  GraphBuilder b;
  ValueId x = b.input("x", {2});
  b.output(b.op("aten::relu.default", {{"self", x}}, "relu", {2}));
  Graph g = b.take();
  auto p = lower_to_emit_program(g);
  ASSERT_FALSE(p.is_ok());
  EXPECT_NE(p.status().message().find("to_executorch"), std::string::npos) << p.status().message();
}

}  // namespace
}  // namespace ember::aot
