// Tests for Graph, the printer (golden text written by hand) and the verifier.
#include "aot/ir/graph.h"

#include <gtest/gtest.h>

#include "aot/ir/graph_util.h"
#include "aot/ir/printer.h"
#include "aot/ir/verifier.h"

namespace ember::aot {
namespace {

constexpr const char* kTrace =
    "File \"model.py\", line 12, in forward\n    return self.fc(x)\n"
    "  File \"/usr/lib/python3/dist-packages/torch/nn/modules/linear.py\", line 125, in "
    "forward\n    return F.linear(input, self.weight, self.bias)";

SymInt sym_s0() {
  SymInt s;
  s.is_static = false;
  s.expr = "Symbol('s0', positive=True, integer=True)";
  s.text = "s0";
  s.range = SymRange{1, 64};
  return s;
}

ValueId add_tensor(Graph& g, const std::string& name, std::vector<SymInt> sizes) {
  Value v;
  v.name = name;
  v.tensor.dtype = ScalarType::Float;
  v.tensor.sizes = std::move(sizes);
  auto id = g.add_value(std::move(v));
  EXPECT_TRUE(id.ok());
  return id.ok() ? id.get() : kNoValue;
}

Node make_node(const char* name, const char* op, const char* overload,
               std::vector<NamedArgument> inputs, ValueId out, const char* trace) {
  Node n;
  n.op = OpName{"aten", op, overload};
  n.name = name;
  n.inputs = std::move(inputs);
  n.outputs = {Argument::tensor(out)};
  n.stack_trace = trace;
  return n;
}

// x[s0,3] -> permute(w) -> addmm(b, x, w^T) -> relu
Graph small_graph() {
  Graph g;
  g.info().schema_major = 8;
  g.info().schema_minor = 2;
  g.info().torch_version = "2.6.0";
  g.info().layout = "legacy_zip";
  g.range_constraints()["s0"] = SymRange{1, 64};
  ValueId w = add_tensor(g, "p_fc_weight", {SymInt::of(4), SymInt::of(3)});
  auto data = std::make_shared<ConstantData>();
  data->bytes.resize(48);
  g.value(w).tensor.constant = data;
  ValueId b = add_tensor(g, "p_fc_bias", {SymInt::of(4)});
  ValueId x = add_tensor(g, "x", {sym_s0(), SymInt::of(3)});
  ValueId p = add_tensor(g, "permute", {SymInt::of(3), SymInt::of(4)});
  ValueId mm = add_tensor(g, "addmm", {sym_s0(), SymInt::of(4)});
  ValueId r = add_tensor(g, "relu", {sym_s0(), SymInt::of(4)});
  g.inputs() = {Argument::tensor(w), Argument::tensor(b), Argument::tensor(x)};
  g.signature().inputs = {{InputKind::Parameter, "p_fc_weight", "fc.weight", true, {}},
                          {InputKind::Parameter, "p_fc_bias", "fc.bias", true, {}},
                          {InputKind::UserInput, "x", "", true, {}}};
  g.nodes().push_back(
      make_node("permute", "permute", "default",
                {{"self", Argument::tensor(w), false}, {"dims", Argument::int_list({1, 0}), false}},
                p, kTrace));
  g.nodes().push_back(make_node("addmm", "addmm", "default",
                                {{"self", Argument::tensor(b), false},
                                 {"mat1", Argument::tensor(x), false},
                                 {"mat2", Argument::tensor(p), false}},
                                mm, kTrace));
  g.nodes().push_back(
      make_node("relu", "relu", "default", {{"self", Argument::tensor(mm), false}}, r, ""));
  g.outputs() = {Argument::tensor(r)};
  g.signature().outputs = {{OutputKind::UserOutput, "relu", ""}};
  return g;
}

TEST(GraphTest, ValuesAreUniqueByName) {
  Graph g;
  Value v;
  v.name = "x";
  ASSERT_TRUE(g.add_value(v).ok());
  EXPECT_FALSE(g.add_value(v).ok());
  EXPECT_EQ(g.find_value("x"), 0);
  EXPECT_EQ(g.find_value("y"), kNoValue);
}

TEST(GraphTest, SourceLocationSkipsTorchFrames) {
  Graph g = small_graph();
  EXPECT_EQ(g.nodes()[1].source_location(), "model.py:12");
  EXPECT_EQ(g.nodes()[1].describe(), "node 'addmm' (aten::addmm.default, model.py:12)");
  EXPECT_EQ(g.nodes()[2].source_location(), "");
}

TEST(GraphUtilTest, ProducersAndUses) {
  Graph g = small_graph();
  std::vector<int> producers = value_producers(g);
  EXPECT_EQ(producers[g.find_value("x")], -1);
  EXPECT_EQ(producers[g.find_value("permute")], 0);
  EXPECT_EQ(producers[g.find_value("relu")], 2);
  ValueUses uses = compute_uses(g);
  EXPECT_EQ(uses.node_users[g.find_value("x")], std::vector<int>{1});
  EXPECT_EQ(uses.node_users[g.find_value("p_fc_weight")], std::vector<int>{0});
  EXPECT_TRUE(uses.node_users[g.find_value("relu")].empty());
  EXPECT_TRUE(uses.is_graph_output[g.find_value("relu")]);
  EXPECT_FALSE(uses.is_graph_output[g.find_value("addmm")]);
}

TEST(PrinterTest, GoldenText) {
  const char* expected =
      "graph (schema 8.2, torch 2.6.0, legacy_zip)\n"
      "  symbol s0 in [1, 64]\n"
      "  %p_fc_weight : f32[4, 3] = input PARAMETER 'fc.weight' const 48 B\n"
      "  %p_fc_bias : f32[4] = input PARAMETER 'fc.bias'\n"
      "  %x : f32[s0, 3] = input USER_INPUT\n"
      "  %permute : f32[3, 4] = aten::permute.default(self=%p_fc_weight, dims=[1, 0])"
      "  # model.py:12\n"
      "  %addmm : f32[s0, 4] = aten::addmm.default(self=%p_fc_bias, mat1=%x, mat2=%permute)"
      "  # model.py:12\n"
      "  %relu : f32[s0, 4] = aten::relu.default(self=%addmm)\n"
      "  output %relu USER_OUTPUT\n";
  EXPECT_EQ(print_graph(small_graph()), expected);
}

TEST(VerifierTest, AcceptsWellFormedGraph) {
  Error s = verify_graph(small_graph(), VerifyOptions{nullptr, true});
  EXPECT_EQ(s, Error::Ok) << format_error(s);
}

TEST(VerifierTest, RejectsUseBeforeDefinition) {
  Graph g = small_graph();
  std::swap(g.nodes()[0], g.nodes()[1]);
  Error s = verify_graph(g);
  ASSERT_NE(s, Error::Ok);
  EXPECT_NE(std::string(last_error_message()).find("'permute' is used before it is defined"), std::string::npos)
      << std::string(last_error_message());
  EXPECT_NE(std::string(last_error_message()).find("model.py:12"), std::string::npos) << std::string(last_error_message());
}

TEST(VerifierTest, RejectsDoubleDefinitionAndUndefinedOutput) {
  Graph g = small_graph();
  g.nodes()[2].outputs = {Argument::tensor(g.find_value("addmm"))};
  EXPECT_NE(verify_graph(g), Error::Ok);
  Graph g2 = small_graph();
  g2.nodes().pop_back();
  Error s = verify_graph(g2);
  ASSERT_NE(s, Error::Ok);
  EXPECT_NE(std::string(last_error_message()).find("graph output 0"), std::string::npos) << std::string(last_error_message());
}

TEST(VerifierTest, RejectsArityAndSchemaMismatch) {
  Graph g = small_graph();
  g.nodes()[2].outputs.push_back(Argument::none());
  EXPECT_NE(verify_graph(g), Error::Ok);
  Graph g2 = small_graph();
  g2.nodes()[1].inputs.pop_back();  // addmm without mat2
  Error s = verify_graph(g2);
  ASSERT_NE(s, Error::Ok);
  EXPECT_NE(std::string(last_error_message()).find("'mat2'"), std::string::npos) << std::string(last_error_message());
  Graph g3 = small_graph();
  g3.nodes()[2].op.name = "frobnicate";
  EXPECT_EQ(verify_graph(g3), Error::Ok);
  EXPECT_EQ(verify_graph(g3, VerifyOptions{nullptr, true}), Error::OperatorMissing);
}

TEST(VerifierTest, RejectsBadIdsAndSignatureMismatch) {
  Graph g = small_graph();
  g.nodes()[2].inputs[0].arg = Argument::tensor(99);
  EXPECT_NE(verify_graph(g), Error::Ok);
  Graph g2 = small_graph();
  g2.signature().inputs.pop_back();
  EXPECT_NE(verify_graph(g2), Error::Ok);
}

// The tensor checks (issue #16): each breaks one thing the runtime's loader would refuse in
// the emitted .pte; the error names the value, the node that defines it and what is wrong.
void expect_tensor_error(const Graph& g, const std::string& where, const std::string& what) {
  Error s = verify_graph(g);
  ASSERT_EQ(s, Error::InvalidProgram) << where;
  const std::string m = last_error_message();
  EXPECT_NE(m.find(where), std::string::npos) << m;
  EXPECT_NE(m.find(what), std::string::npos) << m;
}

TEST(VerifierTest, RejectsTensorsTheRuntimeCannotLoad) {
  const std::string addmm = "node 1: node 'addmm' (aten::addmm.default, model.py:12), output: value 'addmm'";
  {
    Graph g = small_graph();
    g.value(g.find_value("addmm")).tensor.dtype = static_cast<ScalarType>(77);
    expect_tensor_error(g, addmm, "unknown dtype (code 77)");
  }
  {
    Graph g = small_graph();
    g.value(g.find_value("addmm")).tensor.sizes[1] = SymInt::of(-4);
    expect_tensor_error(g, addmm, "negative size -4 in dim 1");
  }
  {
    Graph g = small_graph();  // s0 <= 64: 64 x 40,000,000 elements
    g.value(g.find_value("addmm")).tensor.sizes[1] = SymInt::of(40000000);
    expect_tensor_error(g, addmm, "more than 2147483647 elements");
  }
  {
    Graph g = small_graph();
    g.value(g.find_value("addmm")).tensor.sizes.assign(17, SymInt::of(1));
    expect_tensor_error(g, addmm, "rank 17, the runtime's limit is 16");
  }
  {
    Graph g = small_graph();
    g.value(g.find_value("permute")).tensor.dim_order = {1, 1};
    expect_tensor_error(g, "node 0: node 'permute' (aten::permute.default, model.py:12), output: value 'permute'",
                        "dim_order is not a permutation");
  }
  {
    Graph g = small_graph();  // p_fc_weight is f32[4, 3] with 48 bytes of data
    g.value(g.find_value("p_fc_weight")).tensor.sizes[0] = SymInt::of(5);
    expect_tensor_error(g, "graph input 0: value 'p_fc_weight' f32[5, 3]", "constant data has 48 bytes, the tensor needs 60");
  }
}

}  // namespace
}  // namespace ember::aot
