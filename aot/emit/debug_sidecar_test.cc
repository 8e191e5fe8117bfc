// The .ptdbg sidecar: node provenance from export metadata, the delegated-node encoding and
// the JSON document (expected values written out by hand from the inputs).
#include "aot/emit/debug_sidecar.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "aot/backend/delegate_metadata.h"

namespace ember::aot {
namespace {

Node linear_node() {
  Node n;
  n.op = {"aten", "linear", "default"};
  n.name = "linear_1";
  n.stack_trace =
      "  File \"/home/me/proj/pt2_models.py\", line 45, in forward\n    return self.fc1(x)\n";
  n.metadata["nn_module_stack"] = "L__self__,,pt2_models.Mlp;L__self___fc1,fc1,torch.nn.modules.linear.Linear";
  return n;
}

TEST(NodeProvenance, NameOpSourceAndModuleFromExportMetadata) {
  const NodeProvenance p = provenance_of(linear_node());
  EXPECT_EQ(p.node, "linear_1");
  EXPECT_EQ(p.op, "aten::linear");
  EXPECT_EQ(p.source, "pt2_models.py:45");
  EXPECT_EQ(p.module, "fc1");
}

TEST(NodeProvenance, NoMetadataGivesEmptyStrings) {
  Node n;
  n.op = {"aten", "relu", "default"};
  n.name = "relu";
  const NodeProvenance p = provenance_of(n);
  EXPECT_EQ(p.source, "");
  EXPECT_EQ(p.module, "");
}

TEST(NodeProvenance, DelegatedNodesRoundTripAndRejectGarbage) {
  std::vector<NodeProvenance> in = {{"conv2d", "aten::convolution", "m.py:3", "features.0"},
                                    {"relu", "aten::relu", "", ""}};
  auto out = decode_delegated_nodes(encode_delegated_nodes(in));
  ASSERT_TRUE(out.ok());
  ASSERT_EQ(out->size(), 2u);
  EXPECT_EQ((*out)[0].node, "conv2d");
  EXPECT_EQ((*out)[0].module, "features.0");
  EXPECT_EQ((*out)[1].op, "aten::relu");
  EXPECT_EQ((*out)[1].source, "");
  EXPECT_FALSE(decode_delegated_nodes("\x01\x00\x00").ok());
  // One well-formed record "x" -> "y", but the value lacks the two '\n' separators.
  const char kNoSeparators[] = "\x01\x00\x00\x00\x01\x00\x00\x00x\x01\x00\x00\x00y";
  EXPECT_FALSE(decode_delegated_nodes(std::string(kNoSeparators, sizeof(kNoSeparators) - 1)).ok());
}

TEST(DebugSidecar, OneEntryPerInstructionWithDelegatedNodesAndPteDigest) {
  EmitProgram p;
  EmitMethod m;
  m.name = "forward";
  m.instructions.push_back(EmitInstruction::kernel(0, {}));
  m.instructions.push_back(EmitInstruction::delegate(0, {}));
  m.instructions.push_back(EmitInstruction::free(3));  // no provenance recorded
  m.debug.push_back({{"addmm", "aten::addmm", "net.py:7", "fc"}, "", {}});
  m.debug.push_back({{"delegate_call_0", "ember::delegate_call", "net.py:8", ""},
                     "XnnpackBackend",
                     {{"relu", "aten::relu", "net.py:8", ""}}});
  p.methods.push_back(m);
  const std::vector<uint8_t> pte = {'a', 'b', 'c'};
  auto j = nlohmann::json::parse(debug_sidecar_json(p, pte));
  EXPECT_EQ(j["format"], "ember.ptdbg");
  EXPECT_EQ(j["version"], 1);
  EXPECT_EQ(j["pte"]["size"], 3);
  // SHA-256("abc"), FIPS 180-2 appendix B.1.
  EXPECT_EQ(j["pte"]["sha256"], "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  const auto& ins = j["methods"][0]["instructions"];
  EXPECT_EQ(j["methods"][0]["name"], "forward");
  ASSERT_EQ(ins.size(), 3u);
  EXPECT_EQ(ins[0]["index"], 0);
  EXPECT_EQ(ins[0]["kind"], "kernel");
  EXPECT_EQ(ins[0]["node"], "addmm");
  EXPECT_EQ(ins[0]["op"], "aten::addmm");
  EXPECT_EQ(ins[0]["source"], "net.py:7");
  EXPECT_EQ(ins[0]["module"], "fc");
  EXPECT_FALSE(ins[0].contains("delegated"));
  EXPECT_EQ(ins[1]["kind"], "delegate");
  EXPECT_EQ(ins[1]["backend"], "XnnpackBackend");
  ASSERT_EQ(ins[1]["delegated"].size(), 1u);
  EXPECT_EQ(ins[1]["delegated"][0]["node"], "relu");
  EXPECT_EQ(ins[2]["kind"], "free");
  EXPECT_EQ(ins[2]["node"], "");
}

// "outputs": a kernel call's return slot (expanded when it is a tensor list), a delegate
// call's trailing num_outputs arguments, nothing for other instructions.
TEST(DebugSidecar, ListsEachInstructionsOutputValues) {
  EmitProgram p;
  EmitMethod m;
  m.name = "forward";
  for (int i = 0; i < 6; ++i) m.values.push_back(EmitValue::of_int(0));
  m.values.push_back(EmitValue::of_list(EmitValueKind::TensorList, {4, 5}));  // value 6
  m.instructions.push_back(EmitInstruction::kernel(0, {0, 1, 1}));            // add.out: out=1
  m.instructions.push_back(EmitInstruction::kernel(1, {1, 4, 5, 6}));         // two outs, list 6
  m.instructions.push_back(EmitInstruction::delegate(0, {0, 2, 3}));          // one in, two outs
  m.instructions.push_back(EmitInstruction::move(2, 3));
  m.debug.push_back({});
  m.debug.push_back({});
  m.debug.push_back({{"delegate_call_0", "ember::delegate_call", "", ""}, "XnnpackBackend", {}, 2});
  p.methods.push_back(m);
  auto j = nlohmann::json::parse(debug_sidecar_json(p, {}));
  const auto& ins = j["methods"][0]["instructions"];
  EXPECT_EQ(ins[0]["outputs"], nlohmann::json::parse("[1]"));
  EXPECT_EQ(ins[1]["outputs"], nlohmann::json::parse("[4,5]"));
  EXPECT_EQ(ins[2]["outputs"], nlohmann::json::parse("[2,3]"));
  EXPECT_EQ(ins[3]["outputs"], nlohmann::json::parse("[]"));
}

}  // namespace
}  // namespace ember::aot
