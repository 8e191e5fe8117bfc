// torch.cond, while_loop and map read from real .pt2 files (tests/fixtures/pt2, exported by torch 2.6 and 2.14):
// the flattened form of aot/ir/control_flow.h, and named errors for a bad predicate and for
// branches that do not match the cond's operands.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "aot/frontend/pt2_reader.h"
#include "aot/frontend/zip_test_util.h"
#include "aot/ir/control_flow.h"
#include "aot/ir/verifier.h"
#include "tests/support/shared_fixtures.h"

namespace ember::aot {
namespace {

using testing::as_bytes;
using testing::as_text;
using testing::unzip_all;
using testing::zip_all;
using testing::ZipEntries;

std::vector<uint8_t> load(const std::string& name) {
  std::vector<uint8_t> bytes;
  EXPECT_TRUE(ember::testing::read_file(ember::testing::committed_pt2_fixture(name), &bytes)) << name;
  return bytes;
}

// Replaces the first `from` by `to` in the program JSON of a torch 2.6 (legacy zip) file.
std::vector<uint8_t> edit_json(const std::vector<uint8_t>& file, const std::string& from,
                               const std::string& to) {
  ZipEntries entries = unzip_all(file);
  for (auto& [name, data] : entries) {
    if (name != "serialized_exported_program.json") continue;
    std::string text = as_text(data);
    size_t pos = text.find(from);
    EXPECT_NE(pos, std::string::npos) << from;
    if (pos != std::string::npos) text.replace(pos, from.size(), to);
    data = as_bytes(text);
  }
  return zip_all(entries);
}

std::vector<ControlOp> control_ops(const Graph& g) {
  std::vector<ControlOp> ops;
  for (const Node& n : g.nodes()) {
    if (control_op(n) != ControlOp::None) ops.push_back(control_op(n));
  }
  return ops;
}

TEST(CondJsonTest, FlattensBothTorchVersions) {
  using C = ControlOp;
  const std::vector<C> one = {C::CondOutputs, C::JumpFalse, C::Move, C::Jump,
                              C::Label,       C::Move,      C::Label};
  for (const char* f : {"cond_branch.core_aten.torch2_6.pt2", "cond_branch.core_aten.torch2_14.pt2",
                        "cond_branch.training_ir.torch2_6.pt2", "cond_branch.training_ir.torch2_14.pt2"}) {
    SCOPED_TRACE(f);
    std::vector<uint8_t> bytes = load(f);
    auto g = read_pt2_buffer(bytes.data(), bytes.size(), f);
    ASSERT_TRUE(g.ok()) << format_error(g.error());
    EXPECT_EQ(control_ops(*g), one);
    EXPECT_EQ(verify_graph(*g), Error::Ok) << format_error(verify_graph(*g));
    // The true body reads the Linear's parameters through the cond's operands.
    bool uses_weight = false;
    for (const Node& n : g->nodes()) {
      for (const NamedArgument& in : n.inputs) {
        if (in.arg.value() != kNoValue && g->value(in.arg.value()).name == "p_lin_weight") uses_weight = true;
      }
    }
    EXPECT_TRUE(uses_weight);
  }
}

TEST(CondJsonTest, NestedCondLabelsAreUnique) {
  std::vector<uint8_t> bytes = load("nested_cond.core_aten.torch2_14.pt2");
  auto g = read_pt2_buffer(bytes.data(), bytes.size(), "nested");
  ASSERT_TRUE(g.ok()) << format_error(g.error());
  std::vector<std::string> labels;
  for (const Node& n : g->nodes()) {
    if (control_op(n) == ControlOp::Label) labels.push_back(n.find_input("label")->arg.s);
  }
  ASSERT_EQ(labels.size(), 4u);  // else/end of the outer and of the inner cond
  EXPECT_EQ(labels[0], "cond_true_cond_else");
  EXPECT_EQ(labels[1], "cond_true_cond_end");
  EXPECT_EQ(labels[2], "cond_else");
  EXPECT_EQ(labels[3], "cond_end");
}

TEST(CondJsonTest, PredicateOfTheWrongTypeIsNamed) {
  // Claim that the predicate 'gt' is a float32 tensor (dtype code 7 instead of 12 = bool).
  std::vector<uint8_t> bytes = edit_json(load("cond_branch.core_aten.torch2_6.pt2"),
                                         "\"gt\": {\"dtype\": 12", "\"gt\": {\"dtype\": 7");
  auto g = read_pt2_buffer(bytes.data(), bytes.size(), "test.pt2");
  ASSERT_FALSE(g.ok());
  EXPECT_EQ(g.error(), Error::InvalidProgram);
  const std::string msg = last_error_message();
  EXPECT_NE(msg.find("predicate 'gt' is f32[]"), std::string::npos) << msg;
  EXPECT_NE(msg.find("expected a bool tensor with one element"), std::string::npos) << msg;
}

TEST(CondJsonTest, OperandsNotMatchingTheBranchInputsAreNamed) {
  std::vector<uint8_t> bytes =
      edit_json(load("cond_branch.core_aten.torch2_6.pt2"),
                "\"as_tensors\": [{\"name\": \"x\"}, {\"name\": \"p_lin_bias\"}, {\"name\": \"p_lin_weight\"}]",
                "\"as_tensors\": [{\"name\": \"x\"}, {\"name\": \"p_lin_bias\"}]");
  auto g = read_pt2_buffer(bytes.data(), bytes.size(), "test.pt2");
  ASSERT_FALSE(g.ok());
  EXPECT_EQ(g.error(), Error::InvalidProgram);
  const std::string msg = last_error_message();
  EXPECT_NE(msg.find("true branch: has 3 inputs for 2 cond operands"), std::string::npos) << msg;
}

TEST(CondJsonTest, WhileLoopFlattensWithABackwardJump) {
  using C = ControlOp;
  // cond_outputs, two initial copies, loop label, jump_false, two state copies, jump back, end.
  const std::vector<C> loop = {C::CondOutputs, C::Copy, C::Copy, C::Label, C::JumpFalse,
                               C::Copy,        C::Copy, C::Jump, C::Label};
  for (const char* f : {"while_loop.core_aten.torch2_6.pt2", "while_loop.core_aten.torch2_14.pt2"}) {
    SCOPED_TRACE(f);
    std::vector<uint8_t> bytes = load(f);
    auto g = read_pt2_buffer(bytes.data(), bytes.size(), f);
    ASSERT_TRUE(g.ok()) << format_error(g.error());
    EXPECT_EQ(control_ops(*g), loop);
    EXPECT_EQ(verify_graph(*g), Error::Ok) << format_error(verify_graph(*g));
  }
}

TEST(CondJsonTest, LoopTestOfTheWrongTypeIsNamed) {
  // The loop test 'lt' (x.abs().sum() < 50) claimed to be float32.
  std::vector<uint8_t> bytes = edit_json(load("while_loop.core_aten.torch2_6.pt2"),
                                         "\"lt\": {\"dtype\": 12", "\"lt\": {\"dtype\": 7");
  auto g = read_pt2_buffer(bytes.data(), bytes.size(), "test.pt2");
  ASSERT_FALSE(g.ok());
  EXPECT_EQ(g.error(), Error::InvalidProgram);
  const std::string msg = last_error_message();
  EXPECT_NE(msg.find("cond_fn returns"), std::string::npos) << msg;
  EXPECT_NE(msg.find("expected a bool tensor with one element"), std::string::npos) << msg;
}

TEST(CondJsonTest, MapFlattensIntoACountedLoop) {
  using C = ControlOp;
  // cond_outputs (results + counter), move(0, i), loop label, jump_false(i < n), the body,
  // copy_index per result, move(i + 1, i), jump back, end.
  const std::vector<C> loop = {C::CondOutputs, C::Move,      C::Label, C::JumpFalse,
                               C::CopyIndex,   C::CopyIndex, C::Move,  C::Jump, C::Label};
  for (const char* f : {"map_rows.core_aten.torch2_6.pt2", "map_rows.training_ir.torch2_14.pt2",
                        "map_dynamic.core_aten.torch2_14.pt2"}) {
    SCOPED_TRACE(f);
    std::vector<uint8_t> bytes = load(f);
    auto g = read_pt2_buffer(bytes.data(), bytes.size(), f);
    ASSERT_TRUE(g.ok()) << format_error(g.error());
    EXPECT_EQ(control_ops(*g), loop);
    EXPECT_EQ(verify_graph(*g), Error::Ok) << format_error(verify_graph(*g));
    // Each xs row is read with aten.select.int at the counter (a SymInt value, not a literal).
    int selects = 0;
    for (const Node& n : g->nodes()) {
      const NamedArgument* index = n.find_input("index");
      if (n.op.name != "select" || index == nullptr || index->arg.values.empty()) continue;
      ++selects;
      EXPECT_EQ(g->value(index->arg.values[0]).kind, ValueKind::SymInt);
    }
    EXPECT_EQ(selects, std::string(f).find("map_dynamic") == 0 ? 2 : 1);
  }
}

TEST(CondJsonTest, MapResultsWithAnotherLeadingDimAreNamed) {
  // The second stacked result claimed to have 4 rows while xs has 5.
  std::vector<uint8_t> bytes =
      edit_json(load("map_rows.core_aten.torch2_6.pt2"), "\"getitem_1\": {\"dtype\": 7, \"sizes\": [{\"as_int\": 5}",
                "\"getitem_1\": {\"dtype\": 7, \"sizes\": [{\"as_int\": 4}");
  auto g = read_pt2_buffer(bytes.data(), bytes.size(), "test.pt2");
  ASSERT_FALSE(g.ok());
  EXPECT_EQ(g.error(), Error::InvalidProgram);
  const std::string msg = last_error_message();
  // torch 2.6 writes no node name: the node is named by its first result.
  EXPECT_NE(msg.find("node 'getitem' (torch.ops.higher_order.map_impl): 'getitem_1' is f32[4, 1]"),
            std::string::npos)
      << msg;
  EXPECT_NE(msg.find("expected leading dim 5 (that of xs 'xs')"), std::string::npos) << msg;
}

TEST(CondJsonTest, MapBodyWithTheWrongInputsIsNamed) {
  // The body's argument list loses the Linear bias.
  std::vector<uint8_t> bytes = edit_json(
      load("map_rows.core_aten.torch2_6.pt2"),
      "\"as_tensors\": [{\"name\": \"y\"}, {\"name\": \"p_lin_weight\"}, {\"name\": \"p_lin_bias\"}]",
      "\"as_tensors\": [{\"name\": \"y\"}, {\"name\": \"p_lin_weight\"}]");
  auto g = read_pt2_buffer(bytes.data(), bytes.size(), "test.pt2");
  ASSERT_FALSE(g.ok());
  EXPECT_EQ(g.error(), Error::InvalidProgram);
  const std::string msg = last_error_message();
  EXPECT_NE(msg.find("map_impl) f: has 4 inputs for 3 cond operands"), std::string::npos) << msg;
}

}  // namespace
}  // namespace ember::aot
