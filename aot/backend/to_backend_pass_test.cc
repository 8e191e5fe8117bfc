// ToBackendPass with a toy partitioner that supports add and mul: consecutive supported
// nodes become one delegate-call node whose inputs are the runtime tensors the run reads
// and whose outputs are the values used later; the report records every node. The
// delegate metadata it writes (named data, compile specs) round-trips and rejects
// truncated text.
#include "aot/backend/to_backend_pass.h"

#include <gtest/gtest.h>

#include "aot/backend/delegate_metadata.h"
#include "aot/ir/testing/graph_builder.h"

namespace ember::aot {
namespace {

using testing::GraphBuilder;

class AddMulPartitioner final : public Partitioner {
 public:
  const char* name() const override { return "addmul"; }
  const char* backend_id() const override { return "AddMulBackend"; }
  Support supports(const Node& n, const Graph&) const override {
    if (n.op.name == "add" || n.op.name == "mul") return Support::yes();
    return Support::no("only add and mul");
  }
  Result<PreprocessResult> preprocess(const Graph& sub,
                                        const std::vector<CompileSpec>&) const override {
    // Blob: node count, input count, output count.
    PreprocessResult r;
    r.processed = {static_cast<uint8_t>(sub.nodes().size()), static_cast<uint8_t>(sub.inputs().size()),
                   static_cast<uint8_t>(sub.outputs().size())};
    return r;
  }
};

TEST(ToBackendPassTest, GroupsConsecutiveSupportedNodes) {
  GraphBuilder b;
  ValueId w = b.parameter("w", {2}, {1.f, 2.f});
  ValueId x = b.input("x", {2});
  ValueId a = b.op("aten::add.Tensor", {{"self", x}, {"other", w}}, "add", {2});
  ValueId m = b.op("aten::mul.Tensor", {{"self", a}, {"other", x}}, "mul", {2});
  ValueId r = b.op("aten::relu.default", {{"self", m}}, "relu", {2});
  ValueId m2 = b.op("aten::mul.Tensor", {{"self", r}, {"other", r}}, "mul_1", {2});
  b.output(m2);
  Graph g = b.take();
  AddMulPartitioner part;
  DelegationReport report;
  ASSERT_EQ(ToBackendPass(&part, &report).run(g), Error::Ok);
  ASSERT_EQ(g.nodes().size(), 3u);
  const Node& call = g.nodes()[0];
  EXPECT_EQ(call.op.qualified(), "ember::delegate_call.AddMulBackend");
  ASSERT_EQ(call.inputs.size(), 1u);  // x only: the constant w goes into the subgraph
  EXPECT_EQ(call.inputs[0].arg.value(), x);
  ASSERT_EQ(call.outputs.size(), 1u);
  EXPECT_EQ(call.outputs[0].value(), m);
  EXPECT_EQ(call.metadata.at(kDelegateBackendKey), "AddMulBackend");
  EXPECT_EQ(call.metadata.at(kDelegateBlobKey), std::string("\x02\x02\x01", 3));  // 2 nodes, w + x, mul
  EXPECT_EQ(g.nodes()[1].op.name, "relu");
  EXPECT_EQ(g.nodes()[2].op.qualified(), "ember::delegate_call.AddMulBackend");
  ASSERT_EQ(report.entries.size(), 4u);
  EXPECT_EQ(report.num_partitions, 2);
  EXPECT_TRUE(report.entries[0].delegated);
  EXPECT_FALSE(report.entries[2].delegated);
  EXPECT_EQ(report.entries[2].reason, "only add and mul");
  EXPECT_EQ(report.entries[3].partition, 1);
  std::string summary = report.summary();
  EXPECT_NE(summary.find("addmul: 3 of 4 nodes in 2 partition(s)"), std::string::npos) << summary;
  EXPECT_NE(summary.find("not delegated: aten::relu.default x1 (only add and mul)"), std::string::npos)
      << summary;
}


// An unsupported node that depends only on inputs (a Hugging Face attention mask built from
// the attention_mask input) sits between two supported runs in export order: it is moved
// ahead of them, so one partition remains; an unsupported node that depends on a supported
// one still splits (relu here), and a barrier (an in-place write) keeps its place.
TEST(ToBackendPassTest, UnsupportedNodesThatDependOnInputsMoveAheadOfTheRun) {
  GraphBuilder b;
  ValueId x = b.input("x", {2});
  ValueId mask = b.input("mask", {2});
  ValueId a = b.op("aten::add.Tensor", {{"self", x}, {"other", x}}, "add", {2});
  ValueId bias = b.op("aten::neg.default", {{"self", mask}}, "bias", {2});
  ValueId m = b.op("aten::mul.Tensor", {{"self", a}, {"other", bias}}, "mul", {2});
  b.output(m);
  Graph g = b.take();
  AddMulPartitioner part;
  DelegationReport report;
  ASSERT_EQ(ToBackendPass(&part, &report).run(g), Error::Ok);
  ASSERT_EQ(g.nodes().size(), 2u);
  EXPECT_EQ(g.nodes()[0].name, "bias");
  EXPECT_EQ(g.nodes()[1].op.qualified(), "ember::delegate_call.AddMulBackend");
  EXPECT_EQ(report.num_partitions, 1);

  GraphBuilder b2;
  ValueId y = b2.input("y", {2});
  ValueId s = b2.input("s", {2});
  ValueId a2 = b2.op("aten::add.Tensor", {{"self", y}, {"other", y}}, "add", {2});
  ValueId r = b2.op("aten::relu.default", {{"self", a2}}, "relu", {2});
  ValueId w = b2.op("aten::copy_.default", {{"self", s}, {"src", y}}, "write", {2});
  ValueId n = b2.op("aten::neg.default", {{"self", w}}, "neg", {2});
  ValueId m2 = b2.op("aten::mul.Tensor", {{"self", r}, {"other", n}}, "mul", {2});
  b2.output(m2);
  Graph g2 = b2.take();
  DelegationReport report2;
  ASSERT_EQ(ToBackendPass(&part, &report2).run(g2), Error::Ok);
  std::vector<std::string> names;
  for (const Node& node : g2.nodes()) names.push_back(node.name);
  EXPECT_EQ(names, (std::vector<std::string>{"delegate_call_0", "relu", "write", "neg",
                                             "delegate_call_1"}));
  EXPECT_EQ(report2.num_partitions, 2);
}

// One node per partition; every blob refers to the same named data "w" and to a
// per-partition key; the compile specs given at construction go into every delegate.
TEST(ToBackendPassTest, SameNamedKeyWithDifferentBytesIsAnError) {
  std::vector<NamedData> into(1);
  into[0].key = "k";
  into[0].data = {1};
  std::vector<NamedData> more(1);
  more[0].key = "k";
  more[0].data = {2};
  Error s = add_named_data(more, &into);
  EXPECT_EQ(s, Error::InvalidProgram);
  EXPECT_NE(std::string(last_error_message()).find("named data key 'k' holds different bytes"), std::string::npos) << std::string(last_error_message());
  more[0].data = {1};
  EXPECT_EQ(add_named_data(more, &into), Error::Ok);
  EXPECT_EQ(into.size(), 1u);
}

TEST(ToBackendPassTest, TruncatedNamedDataMetadataIsRejected) {
  std::vector<NamedData> items(1);
  items[0].key = "weights";
  items[0].data = {1, 2, 3};
  const std::string text = encode_named_data(items);
  auto back = decode_named_data(text);
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back.get()[0].data, items[0].data);
  for (size_t n = 0; n < text.size(); ++n) EXPECT_FALSE(decode_named_data(text.substr(0, n)).ok()) << n;
  EXPECT_FALSE(decode_named_data(text + "x").ok());
}

TEST(CompileSpecs, EncodeDecodeRoundTripAndRejectTruncation) {
  std::vector<CompileSpec> specs = {{"a", {1, 2, 3}}, {"max_numel", {}}};
  const std::string text = encode_compile_specs(specs);
  auto back = decode_compile_specs(text);
  ASSERT_TRUE(back.ok());
  ASSERT_EQ(back->size(), 2u);
  EXPECT_EQ((*back)[0].value, (std::vector<uint8_t>{1, 2, 3}));
  EXPECT_EQ((*back)[1].key, "max_numel");
  for (size_t n = 0; n < text.size(); ++n) {
    EXPECT_FALSE(decode_compile_specs(text.substr(0, n)).ok()) << n;
  }
}

}  // namespace
}  // namespace ember::aot
