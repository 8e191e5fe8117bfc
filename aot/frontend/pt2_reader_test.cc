// Reads every .pt2 in the shared fixture corpus and checks the result against the facts
// that real PyTorch recorded in fixtures/pt2/generated/manifest.json (op histograms, user
// inputs/outputs with dtypes and symbolic shapes, spec kinds, parameter and buffer counts,
// range constraints), plus the torch 2.2 GitHub file against facts read from its JSON by
// hand. Skips cleanly when the corpus is absent.
#include "aot/frontend/pt2_reader.h"

#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>

#include "aot/frontend/zip_test_util.h"
#include "aot/ir/verifier.h"
#include "tests/support/shared_fixtures.h"

namespace ember::aot {
namespace {

using nlohmann::json;

std::string fixture_dir() {
  std::string dir = ember::testing::shared_dir();
  return dir.empty() ? dir : dir + "/fixtures/pt2";
}

std::map<std::string, int> op_histogram(const Graph& g, NodeKind kind) {
  std::map<std::string, int> h;
  for (const Node& n : g.nodes()) {
    if (n.kind != kind) continue;
    ++h[kind == NodeKind::Op ? n.op.ns + "." + n.op.name + "." + n.op.overload : n.op.name];
  }
  return h;
}

// "s0" / 784 as the manifest writes shapes.
json shape_of(const TensorSpec& t) {
  json out = json::array();
  for (const SymInt& s : t.sizes) {
    if (s.is_static) {
      out.push_back(s.value);
    } else {
      out.push_back(s.text);
    }
  }
  return out;
}

void check_io(const Graph& g, const ValueId id, const json& expected) {
  ASSERT_NE(id, kNoValue);
  const Value& v = g.value(id);
  EXPECT_EQ(v.name, expected["name"].get<std::string>());
  EXPECT_EQ(scalar_type_name(v.tensor.dtype), expected["dtype"].get<std::string>()) << v.name;
  EXPECT_EQ(shape_of(v.tensor), expected["shape"]) << v.name;
}

void check_against_manifest(const Graph& g, const json& m) {
  std::string version =
      std::to_string(g.info().schema_major) + "." + std::to_string(g.info().schema_minor);
  EXPECT_EQ(version, m["schema_version"].get<std::string>());
  EXPECT_EQ(g.info().layout, m["layout"].get<std::string>());
  EXPECT_EQ(g.info().torch_version, m["torch_version"].get<std::string>());

  std::map<std::string, int> aten = m["aten_ops"].get<std::map<std::string, int>>();
  EXPECT_EQ(op_histogram(g, NodeKind::Op), aten);
  int getitems = 0;
  std::map<std::string, int> other;
  for (auto& [name, count] : m["other_call_functions"].items()) {
    if (name == "_operator.getitem") {
      getitems = count.get<int>();  // FX-only nodes: never serialized
    } else {
      other[name] = count.get<int>();
    }
  }
  EXPECT_EQ(op_histogram(g, NodeKind::Symbolic), other);
  // FX graph = placeholders + call_functions (incl. getitem) + one output node.
  EXPECT_EQ(static_cast<int>(g.inputs().size() + g.nodes().size()) + getitems + 1,
            m["num_graph_nodes"].get<int>());

  std::map<std::string, int> in_kinds, out_kinds;
  for (const InputSpec& s : g.signature().inputs) ++in_kinds[to_string(s.kind)];
  for (const OutputSpec& s : g.signature().outputs) ++out_kinds[to_string(s.kind)];
  EXPECT_EQ(in_kinds, m["input_spec_kinds"].get<decltype(in_kinds)>());
  EXPECT_EQ(out_kinds, m["output_spec_kinds"].get<decltype(out_kinds)>());

  std::vector<ValueId> users = g.inputs_of_kind(InputKind::UserInput);
  ASSERT_EQ(users.size(), m["graph_user_inputs"].size());
  for (size_t i = 0; i < users.size(); ++i) check_io(g, users[i], m["graph_user_inputs"][i]);
  std::vector<ValueId> outs;
  for (size_t i = 0; i < g.signature().outputs.size(); ++i) {
    if (g.signature().outputs[i].kind == OutputKind::UserOutput)
      outs.push_back(g.outputs()[i].value());
  }
  ASSERT_EQ(outs.size(), m["graph_user_outputs"].size());
  for (size_t i = 0; i < outs.size(); ++i) check_io(g, outs[i], m["graph_user_outputs"][i]);

  json ranges = json::object();
  for (const auto& [sym, r] : g.range_constraints())
    ranges[sym] = {r.min.value_or(-1), r.max.value_or(-1)};
  EXPECT_EQ(ranges, m["range_constraints"]);

  int64_t param_numel = 0, buffer_numel = 0, const_numel = 0;
  std::map<std::string, int> state_dtypes;
  for (size_t i = 0; i < g.signature().inputs.size(); ++i) {
    const InputSpec& s = g.signature().inputs[i];
    if (s.kind == InputKind::UserInput) continue;
    const TensorSpec& t = g.value(g.inputs()[i].value()).tensor;
    ASSERT_NE(t.constant, nullptr) << s.target;
    EXPECT_EQ(static_cast<int64_t>(t.constant->bytes.size()), t.static_nbytes()) << s.target;
    int64_t n = t.static_numel();
    if (s.kind == InputKind::Parameter) param_numel += n;
    if (s.kind == InputKind::Buffer) buffer_numel += n;
    if (s.kind == InputKind::TensorConstant) const_numel += n;
    if (s.kind != InputKind::TensorConstant) ++state_dtypes[scalar_type_name(t.dtype)];
  }
  EXPECT_EQ(param_numel, m["parameter_count"].get<int64_t>());
  EXPECT_EQ(static_cast<int>(g.inputs_of_kind(InputKind::Parameter).size()),
            m["parameter_tensors"].get<int>());
  EXPECT_EQ(buffer_numel, m["buffer_numel"].get<int64_t>());
  EXPECT_EQ(static_cast<int>(g.inputs_of_kind(InputKind::Buffer).size()),
            m["buffer_tensors"].get<int>());
  EXPECT_EQ(const_numel, m["lifted_tensor_constant_numel"].get<int64_t>());
  EXPECT_EQ(state_dtypes, m["state_dtypes"].get<decltype(state_dtypes)>());
  EXPECT_EQ(out_kinds["BUFFER_MUTATION"], static_cast<int>(m["mutations"].size()));
}

TEST(Pt2ReaderTest, EveryGeneratedFixtureMatchesTheManifest) {
  std::string dir = fixture_dir();
  if (dir.empty()) GTEST_SKIP() << ember::testing::skip_message();
  std::vector<uint8_t> bytes;
  ASSERT_TRUE(ember::testing::read_file(dir + "/generated/manifest.json", &bytes));
  json manifest = json::parse(bytes.begin(), bytes.end());
  int checked = 0;
  for (auto& [key, m] : manifest["models"].items()) {
    SCOPED_TRACE(key);
    auto g = read_pt2_file(dir + "/generated/" + m["file"].get<std::string>());
    ASSERT_TRUE(g.ok()) << format_error(g.error());
    check_against_manifest(g.get(), m);
    // Every exported node binds to our hand-written schemas (names, kinds, return counts).
    Error strict = verify_graph(g.get(), VerifyOptions{nullptr, true});
    EXPECT_EQ(strict, Error::Ok) << format_error(strict);
    ++checked;
  }
  EXPECT_EQ(checked, 12);
}

TEST(Pt2ReaderTest, Torch22GithubFile) {
  std::string dir = fixture_dir();
  if (dir.empty()) GTEST_SKIP() << ember::testing::skip_message();
  auto g = read_pt2_file(dir + "/github/KladovValentin__hades-pid__exported_program.pt2");
  ASSERT_TRUE(g.ok()) << format_error(g.error());
  // Facts read by hand from the file's serialized_exported_program.json.
  EXPECT_EQ(g->info().schema_major, 2);
  EXPECT_EQ(g->info().dialect, "ATEN");
  EXPECT_EQ(g->info().layout, "legacy_zip");
  EXPECT_EQ(g->nodes().size(), 34u);
  EXPECT_EQ(g->inputs().size(), 31u);
  std::map<std::string, int> expected = {{"aten.t.default", 10},
                                         {"aten.addmm.default", 10},
                                         {"aten.leaky_relu.default", 7},
                                         {"aten.add.Tensor", 2},
                                         {"aten._native_batch_norm_legit_functional.default", 2},
                                         {"aten.view.default", 1},
                                         {"aten._log_softmax.default", 1},
                                         {"aten.squeeze.default", 1}};
  EXPECT_EQ(op_histogram(g.get(), NodeKind::Op), expected);
  EXPECT_EQ(g->inputs_of_kind(InputKind::Parameter).size(), 24u);
  EXPECT_EQ(g->inputs_of_kind(InputKind::Buffer).size(), 6u);
  const GraphSignature& sig = g->signature();
  ASSERT_EQ(sig.outputs.size(), 8u);
  EXPECT_EQ(sig.outputs[0].kind, OutputKind::BufferMutation);
  EXPECT_EQ(sig.outputs[0].target, "class_classifier.1.running_mean");
  EXPECT_EQ(sig.outputs[0].name, "getitem_3");
  EXPECT_EQ(sig.outputs[7].kind, OutputKind::UserOutput);
  EXPECT_EQ(sig.outputs[7].name, "squeeze");
  ValueId x = g->find_value("l_input_data_");
  ASSERT_NE(x, kNoValue);
  EXPECT_EQ(g->value(x).tensor.to_string(), "f32[2, 10]");
  // feature.0.weight is Linear(10, 256): 256 x 10 float32 = 10240 bytes (data/0 in the pickle).
  const TensorSpec& w = g->value(g->find_value("arg0_1")).tensor;
  ASSERT_NE(w.constant, nullptr);
  EXPECT_EQ(w.to_string(), "f32[256, 10]");
  EXPECT_EQ(w.constant->bytes.size(), 10240u);
  // add.Tensor(num_batches_tracked, 1): a wrapped number in a Tensor slot.
  const Node* add = nullptr;
  for (const Node& n : g->nodes()) {
    if (n.op.name == "add") add = &n;
  }
  ASSERT_NE(add, nullptr);
  ASSERT_NE(add->find_input("other"), nullptr);
  EXPECT_EQ(add->find_input("other")->arg.kind, ArgKind::Int);
  EXPECT_EQ(add->source_location(), "model.py:99");
  Error strict = verify_graph(g.get(), VerifyOptions{nullptr, true});
  EXPECT_EQ(strict, Error::Ok) << format_error(strict);
}

// torch 2.8 archives hold a pickled data/weights/model.pt instead of raw records. Build one
// from the torch 2.14 archive and the torch 2.6 state dict of the same model (generated
// with the same seed: the raw records and pickle storages are byte-identical), and check
// that every parameter and buffer gets the same bytes as from the raw layout.
TEST(Pt2ReaderTest, Torch28PickledWeightsInArchive) {
  std::string dir = fixture_dir();
  if (dir.empty()) GTEST_SKIP() << ember::testing::skip_message();
  std::vector<uint8_t> archive, legacy;
  ASSERT_TRUE(
      ember::testing::read_file(dir + "/generated/conv_bn_relu.core_aten.torch2_14.pt2", &archive));
  ASSERT_TRUE(
      ember::testing::read_file(dir + "/generated/conv_bn_relu.core_aten.torch2_6.pt2", &legacy));
  testing::ZipEntries legacy_entries = testing::unzip_all(legacy);
  std::vector<uint8_t>* state = testing::find_entry(legacy_entries, "serialized_state_dict.pt");
  ASSERT_NE(state, nullptr);
  testing::ZipEntries entries;
  for (auto& e : testing::unzip_all(archive)) {
    if (e.first.find("/data/weights/") == std::string::npos) entries.push_back(e);
  }
  entries.emplace_back("conv_bn_relu.core_aten.torch2_14/data/weights/model.pt", *state);
  std::vector<uint8_t> v28 = testing::zip_all(entries);
  auto raw = read_pt2_buffer(archive.data(), archive.size(), "raw.pt2");
  auto pickled = read_pt2_buffer(v28.data(), v28.size(), "v28.pt2");
  ASSERT_TRUE(raw.ok()) << format_error(raw.error());
  ASSERT_TRUE(pickled.ok()) << format_error(pickled.error());
  int compared = 0;
  for (InputKind kind : {InputKind::Parameter, InputKind::Buffer}) {
    for (ValueId id : raw->inputs_of_kind(kind)) {
      const Value& a = raw->value(id);
      const Value& b = pickled->value(pickled->find_value(a.name));
      ASSERT_NE(a.tensor.constant, nullptr);
      ASSERT_NE(b.tensor.constant, nullptr);
      EXPECT_EQ(a.tensor.constant->bytes, b.tensor.constant->bytes) << a.name;
      ++compared;
    }
  }
  EXPECT_EQ(compared, 7);
}

// Lifted tensor constants and non-persistent buffers live in serialized_constants.pt.
// Rewrite the torch 2.6 conv_bn_relu file so that conv.bias is a lifted constant and
// bn.running_mean a non-persistent buffer, with the state dict payload moved into the
// constants payload: everything must still be found, with the same bytes.
TEST(Pt2ReaderTest, LegacyConstantsPayload) {
  std::string dir = fixture_dir();
  if (dir.empty()) GTEST_SKIP() << ember::testing::skip_message();
  std::vector<uint8_t> file;
  ASSERT_TRUE(
      ember::testing::read_file(dir + "/generated/conv_bn_relu.core_aten.torch2_6.pt2", &file));
  auto original = read_pt2_buffer(file.data(), file.size(), "orig.pt2");
  ASSERT_TRUE(original.ok()) << format_error(original.error());
  testing::ZipEntries entries = testing::unzip_all(file);
  std::string json =
      testing::as_text(*testing::find_entry(entries, "serialized_exported_program.json"));
  auto replace = [&](const std::string& from, const std::string& to) {
    size_t pos = json.find(from);
    ASSERT_NE(pos, std::string::npos) << from;
    json.replace(pos, from.size(), to);
  };
  replace(
      R"({"parameter": {"arg": {"name": "p_conv_bias"}, "parameter_name": "conv.bias"}})",
      R"({"tensor_constant": {"arg": {"name": "p_conv_bias"}, "tensor_constant_name": "conv.bias"}})");
  replace(R"("buffer_name": "bn.running_mean", "persistent": true)",
          R"("buffer_name": "bn.running_mean", "persistent": false)");
  *testing::find_entry(entries, "serialized_exported_program.json") = testing::as_bytes(json);
  std::vector<uint8_t> state = *testing::find_entry(entries, "serialized_state_dict.pt");
  *testing::find_entry(entries, "serialized_constants.pt") = state;
  testing::find_entry(entries, "serialized_state_dict.pt")->clear();
  std::vector<uint8_t> packed = testing::zip_all(entries);
  auto g = read_pt2_buffer(packed.data(), packed.size(), "consts.pt2");
  ASSERT_TRUE(g.ok()) << format_error(g.error());
  EXPECT_EQ(g->signature().inputs[1].kind, InputKind::TensorConstant);
  EXPECT_EQ(g->signature().inputs[1].target, "conv.bias");
  EXPECT_FALSE(g->signature().inputs[4].persistent);
  for (const char* name :
       {"p_conv_weight", "p_conv_bias", "b_bn_running_mean", "b_bn_num_batches_tracked"}) {
    const TensorSpec& a = original->value(original->find_value(name)).tensor;
    const TensorSpec& b = g->value(g->find_value(name)).tensor;
    ASSERT_NE(b.constant, nullptr) << name;
    EXPECT_EQ(a.constant->bytes, b.constant->bytes) << name;
  }
}

}  // namespace
}  // namespace ember::aot
