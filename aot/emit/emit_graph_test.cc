// emit_graph on hand-made graphs, expected layouts from pte-format.md §4.2:
// add.out args = [self, other, alpha, out, out]; the method's inputs are the user inputs
// and its outputs the user outputs only; a mutated buffer is planned with its initial
// bytes as mutable data and written back by a final aten::copy.out.
#include "aot/emit/emit_graph.h"

#include <gtest/gtest.h>

#include <cstring>

#include "aot/backend/to_backend_pass.h"
#include "aot/emit/pte_writer.h"
#include "aot/ir/testing/graph_builder.h"
#include "aot/passes/functionalize_pass.h"
#include "aot/passes/out_variant_pass.h"
#include "aot/planning/memory_planning_pass.h"

namespace ember::aot {
namespace {

using testing::GraphBuilder;

Error to_executorch(Graph& g) {
  EMBER_TRY(OutVariantPass().run(g));
  return MemoryPlanningPass().run(g);
}

TEST(EmitGraphTest, AddOutArgumentLayout) {
  GraphBuilder b;
  ValueId x = b.input("x", {2, 2});
  ValueId y = b.input("y", {2, 2});
  b.output(b.op("aten::add.Tensor", {{"self", x}, {"other", y}}, "add", {2, 2}));
  Graph g = b.take();
  ASSERT_EQ(to_executorch(g), Error::Ok);
  auto p = emit_graph(g);
  ASSERT_TRUE(p.ok()) << format_error(p.error());
  const EmitMethod& m = p->methods[0];
  ASSERT_EQ(m.operators.size(), 1u);
  EXPECT_EQ(m.operators[0].name, "aten::add");
  EXPECT_EQ(m.operators[0].overload, "out");
  ASSERT_EQ(m.instructions.size(), 1u);
  const std::vector<int32_t>& args = m.instructions[0].args;
  ASSERT_EQ(args.size(), 5u);
  EXPECT_EQ(args[0], m.inputs[0]);
  EXPECT_EQ(args[1], m.inputs[1]);
  EXPECT_EQ(m.values[static_cast<size_t>(args[2])].kind, EmitValueKind::Int);
  EXPECT_EQ(m.values[static_cast<size_t>(args[2])].int_value, 1);  // alpha default
  EXPECT_EQ(args[3], args[4]);
  EXPECT_EQ(m.outputs, std::vector<int32_t>{args[3]});
  const EmitTensor& out = m.values[static_cast<size_t>(args[3])].tensor;
  EXPECT_EQ(out.memory_id, 1u);
  // x, y and the output are all live at the one instruction: 3 x 16 B.
  EXPECT_EQ(m.non_const_buffer_sizes, (std::vector<int64_t>{0, 48}));
  std::vector<uint8_t> bytes;
  ASSERT_EQ(write_pte(p.get(), &bytes), Error::Ok);
}

TEST(EmitGraphTest, MutatedBufferIsPlannedWithInitialDataAndWrittenBack) {
  GraphBuilder b;
  ValueId s = b.parameter("steps", {1}, {3.f}, InputKind::Buffer);
  ValueId x = b.input("x", {1});
  ValueId a = b.op("aten::add_.Tensor", {{"self", s}, {"other", x}}, "add_", {1});
  b.output(b.op("aten::mul.Tensor", {{"self", a}, {"other", x}}, "mul", {1}));
  Graph g = b.take();
  ASSERT_EQ(FunctionalizePass().run(g), Error::Ok);
  ASSERT_EQ(to_executorch(g), Error::Ok);
  auto p = emit_graph(g);
  ASSERT_TRUE(p.ok()) << format_error(p.error());
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
  ASSERT_EQ(write_pte(p.get(), &bytes), Error::Ok);
}

TEST(EmitGraphTest, FunctionalOpsAreRejected) {
  GraphBuilder b;
  ValueId x = b.input("x", {2});
  b.output(b.op("aten::relu.default", {{"self", x}}, "relu", {2}));
  Graph g = b.take();
  auto p = emit_graph(g);
  ASSERT_FALSE(p.ok());
  EXPECT_NE(std::string(last_error_message()).find("to_executorch"), std::string::npos) << std::string(last_error_message());
}

// A partitioner that takes one node per partition and adds named data: one key shared by
// every call and one per call.
class NamedDataPartitioner final : public Partitioner {
 public:
  using Partitioner::Partitioner;
  const char* name() const override { return "named"; }
  const char* backend_id() const override { return "NamedBackend"; }
  Support supports(const Node&, const Graph&) const override { return Support::yes(); }
  size_t max_nodes_per_partition() const override { return 1; }
  Result<PreprocessResult> preprocess(const Graph& sub,
                                        const std::vector<CompileSpec>& specs) const override {
    PreprocessResult r;
    r.processed = {static_cast<uint8_t>(specs.size())};
    NamedData shared;
    shared.key = "w";
    shared.data = {1, 2, 3, 4};
    NamedData own;
    own.key = sub.nodes()[0].name;
    own.data = {9};
    r.named_data = {shared, own};
    return r;
  }
};

TEST(EmitGraphTest, DelegateCompileSpecsAndNamedDataReachTheProgram) {
  GraphBuilder b;
  ValueId x = b.input("x", {2});
  ValueId a = b.op("aten::add.Tensor", {{"self", x}, {"other", x}}, "add", {2});
  b.output(b.op("aten::mul.Tensor", {{"self", a}, {"other", x}}, "mul", {2}));
  Graph g = b.take();
  NamedDataPartitioner part({{"mode", {'f', 'a', 's', 't'}}});
  ASSERT_EQ(ToBackendPass(&part).run(g), Error::Ok);
  ASSERT_EQ(g.nodes().size(), 2u);
  ASSERT_EQ(MemoryPlanningPass().run(g), Error::Ok);
  auto program = emit_graph(g);
  ASSERT_TRUE(program.ok()) << format_error(program.error());
  const EmitMethod& m = program.get().methods[0];
  ASSERT_EQ(m.delegates.size(), 2u);
  for (const EmitDelegate& d : m.delegates) {
    EXPECT_EQ(d.processed, std::vector<uint8_t>{1});  // preprocess saw the one spec
    ASSERT_EQ(d.compile_specs.size(), 1u);
    EXPECT_EQ(d.compile_specs[0].key, "mode");
    EXPECT_EQ(d.compile_specs[0].value, (std::vector<uint8_t>{'f', 'a', 's', 't'}));
  }
  // "w" once, then one key per call.
  const auto& named = program.get().named_data;
  ASSERT_EQ(named.size(), 3u);
  EXPECT_EQ(named[0].key, "w");
  EXPECT_EQ(named[1].key, "add");
  EXPECT_EQ(named[2].key, "mul");
}

}  // namespace
}  // namespace ember::aot
