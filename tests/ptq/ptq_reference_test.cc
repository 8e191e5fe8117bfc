// Post-training quantization in C++ against PyTorch's own PT2E flow (torch 2.6,
// XNNPACKQuantizer + get_symmetric_quantization_config(is_per_channel=True)), on the float
// models and calibration batches of tests/fixtures/ptq (refgen/fixtures/generate_ptq_refs.py):
//   - every activation scale / zero point and every per-channel weight scale Ember picks
//     equals the one in convert_pt2e's output (relative difference <= 1e-6, zero points equal)
//   - the lowered programs (portable-int8 on the q/dq kernels, xnnpack-int8 through the
//     XNNPACK delegate) match PyTorch's converted model within two output quantization steps
//   - bad calibration input gets named errors.
#include <gtest/gtest.h>

#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

#include "aot/recipe/export_session.h"
#include "aot/recipe/quantize_stage.h"
#include "aot/recipe/recipe.h"
#include "aot/recipe/run_method.h"
#include "apps/pte_check/pte_check.h"
#include "backends/xnnpack/aot/xnnpack_partitioner.h"
#include "backends/xnnpack/runtime/xnnpack_backend.h"
#include "runtime/backend/backend_registry.h"
#include "tests/xnnpack_aot/xnnpack_test_util.h"

namespace ember::aot {
namespace {

using nlohmann::json;

bool exists(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0;
}

std::string runfiles() {
  const char* srcdir = std::getenv("TEST_SRCDIR");
  const char* ws = std::getenv("TEST_WORKSPACE");
  return std::string(srcdir ? srcdir : ".") + "/" + (ws ? ws : "ember");
}

// The large (not committed) models: $EMBER_LARGE_FIXTURES_DIR/ptq, else large_fixtures/ptq
// beside the checkout; "" when absent.
std::string large_dir() {
  if (const char* env = std::getenv("EMBER_LARGE_FIXTURES_DIR"); env != nullptr && *env != 0) {
    return std::string(env) + "/ptq";
  }
  char real[PATH_MAX];
  if (realpath((runfiles() + "/WORKSPACE").c_str(), real) == nullptr) return "";
  std::string repo(real);
  repo = repo.substr(0, repo.find_last_of('/'));
  const std::string dir = repo.substr(0, repo.find_last_of('/')) + "/large_fixtures/ptq";
  return exists(dir) ? dir : "";
}

bool is_large(const std::string& model) {
  return model == "ptq_mobilenet_v2" || model == "ptq_resnet18";
}

std::string current_model;  // fixture() resolves files of this model

std::string fixture(const std::string& name) {
  if (is_large(current_model)) return large_dir() + "/" + name;
  return runfiles() + "/tests/fixtures/ptq/" + name;
}

// Skips a large model whose files are absent.
#define SKIP_IF_ABSENT(model)                                                          \
  current_model = (model);                                                             \
  if (!exists(fixture(std::string(model) + ".ref.json"))) {                            \
    GTEST_SKIP() << (model) << ": not in large_fixtures/ptq beside the checkout (write " \
                 << "it with refgen/fixtures/generate_ptq_refs.py --large-out)";        \
  }

std::vector<uint8_t> read_bytes(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return std::vector<uint8_t>((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
}

json read_ref(const std::string& model) {
  std::ifstream f(fixture(model + ".ref.json"));
  return json::parse(f);
}

const runtime::BackendRegistry& backends() {
  static runtime::BackendRegistry* r = [] {
    auto* reg = new runtime::BackendRegistry();
    EXPECT_EQ(backends::xnnpack::register_backend(*reg), runtime::Error::Ok);
    return reg;
  }();
  return *r;
}

MethodRunner runner() {
  return [](const std::vector<uint8_t>& pte, const std::string& method,
            const std::vector<HostTensor>& inputs) {
    RunOptions o;
    o.backends = &backends();
    return run_pte_method(pte, method, inputs, o);
  };
}

QuantizeOptions calibration(const json& ref) {
  QuantizeOptions q;
  for (const json& s : ref["samples"]) {
    std::vector<HostTensor> sample;
    for (const json& f : s["inputs"]) {
      HostTensor t;
      t.dtype = ScalarType::Undefined;
      t.bytes = read_bytes(fixture(f.get<std::string>()));
      sample.push_back(std::move(t));
    }
    q.samples.push_back(std::move(sample));
  }
  q.runner = runner();
  return q;
}

RecipeRegistry& registry() {
  static RecipeRegistry* r = [] {
    auto* reg = new RecipeRegistry();
    EXPECT_EQ(register_builtin_recipes(reg), Error::Ok);
    EXPECT_EQ(backends::xnnpack::register_xnnpack_recipe(reg), Error::Ok);
    EXPECT_EQ(register_int8_recipes(reg, {"portable", "xnnpack"}), Error::Ok);
    return reg;
  }();
  return *r;
}

Result<ExportSession> lower(const std::string& model, const std::string& recipe,
                            QuantizeOptions q) {
  RecipeOptions ro;
  ro.quantize = std::move(q);
  SessionOptions so;
  so.runner = runner();
  auto s = ExportSession::create(registry(), recipe, fixture(model + ".pt2"), ro, std::move(so));
  if (!s.ok()) return s.error();
  EMBER_TRY(s->run());
  return s;
}

double rel_diff(double a, double b) { return std::fabs(a - b) / std::max(std::fabs(b), 1e-30); }

const double* constant_floats(const Graph& g, ValueId v, std::vector<double>* out) {
  const TensorSpec& s = g.value(v).tensor;
  out->clear();
  if (s.constant == nullptr || s.dtype != ScalarType::Float) return nullptr;
  const size_t n = s.constant->bytes.size() / 4;
  std::vector<float> f(n);
  std::memcpy(f.data(), s.constant->bytes.data(), n * 4);
  out->assign(f.begin(), f.end());
  return out->data();
}

class PtqReferenceTest : public ::testing::TestWithParam<std::string> {};

TEST_P(PtqReferenceTest, QuantParamsEqualPyTorch) {
  const std::string model = GetParam();
  SKIP_IF_ABSENT(model);
  const json ref = read_ref(model);
  auto session = lower(model, "portable-int8", calibration(ref));
  ASSERT_TRUE(session.ok()) << last_error_message();
  const Stage* qs = session->find_stage("quantize");
  ASSERT_NE(qs, nullptr);
  const Graph& g = *qs->artifact().graph;

  // Activations: quantize_per_tensor nodes keyed by the value they quantize.
  std::multimap<std::string, std::pair<double, int64_t>> got;
  std::map<std::string, std::vector<double>> weight_scales;  // by consuming node
  std::map<ValueId, const Node*> consumer;
  for (const Node& n : g.nodes()) {
    for (const NamedArgument& in : n.inputs) {
      for (ValueId v : in.arg.values) {
        if (v != kNoValue && !consumer.count(v)) consumer[v] = &n;
      }
    }
  }
  for (const Node& n : g.nodes()) {
    if (n.op.ns != "quantized_decomposed") continue;
    if (n.op.name == "quantize_per_tensor") {
      std::string src = g.value(n.inputs[0].arg.values[0]).name;
      got.emplace(src, std::make_pair(n.inputs[1].arg.f, n.inputs[2].arg.i));
    } else if (n.op.name == "dequantize_per_channel") {
      const Node* user = consumer.at(n.outputs[0].values[0]);
      std::vector<double> scales;
      ASSERT_NE(constant_floats(g, n.inputs[1].arg.values[0], &scales), nullptr);
      weight_scales[user->name] = scales;
    }
  }
  // A dequantize feeding a quantize (an edge with its own observer) quantizes the same
  // tensor: name it after the value the dequantize restores.
  for (const Node& n : g.nodes()) {
    if (n.op.name != "quantize_per_tensor") continue;
    ValueId in = n.inputs[0].arg.values[0];
    for (const Node& p : g.nodes()) {
      if (p.op.name == "dequantize_per_tensor" && p.outputs[0].values[0] == in) {
        for (const Node& q : g.nodes()) {
          if (q.op.name == "quantize_per_tensor" && q.outputs[0].values[0] == p.inputs[0].arg.values[0]) {
            got.emplace(g.value(q.inputs[0].arg.values[0]).name,
                        std::make_pair(n.inputs[1].arg.f, n.inputs[2].arg.i));
          }
        }
      }
    }
  }
  // Constant activations (a buffer added to an activation): the quantize of a constant,
  // keyed by the node reading its dequantize.
  std::multimap<std::string, std::pair<double, int64_t>> constants;
  std::map<std::string, bool> scalar_operand;  // add/mul with a literal self/other
  for (const Node& n : g.nodes()) {
    for (const NamedArgument& in : n.inputs) {
      if ((in.name == "self" || in.name == "other") &&
          (in.arg.kind == ArgKind::Float || in.arg.kind == ArgKind::Int)) {
        scalar_operand[n.name] = true;
      }
    }
    if (n.op.name != "quantize_per_tensor") continue;
    const ValueId src = n.inputs[0].arg.values[0];
    if (g.value(src).tensor.constant == nullptr) continue;
    for (const Node& d : g.nodes()) {
      if (d.op.name != "dequantize_per_tensor" || d.inputs[0].arg.values[0] != n.outputs[0].values[0]) continue;
      constants.emplace(consumer.at(d.outputs[0].values[0])->name,
                        std::make_pair(n.inputs[1].arg.f, n.inputs[2].arg.i));
    }
  }
  size_t checked = 0;
  for (const json& a : ref["activations"]) {
    if (a.contains("constant_user")) {
      const std::string user = a["constant_user"];
      if (scalar_operand[user]) {
        // A scalar operand PyTorch made a constant tensor; Ember keeps it a float scalar
        // (docs/quantization.md: it round-trips to itself).
        continue;
      }
      auto range = constants.equal_range(user);
      bool match = false;
      for (auto it = range.first; it != range.second; ++it) {
        match = match || (rel_diff(it->second.first, a["scale"].get<double>()) <= 1e-6 &&
                          it->second.second == a["zero_point"].get<int64_t>());
      }
      EXPECT_TRUE(match) << model << ": constant read by '" << user << "': PyTorch ("
                         << a["scale"] << ", " << a["zero_point"] << ")";
      ++checked;
      continue;
    }
    const std::string value = a["value"];
    const double scale = a["scale"];
    const int64_t zp = a["zero_point"];
    auto range = got.equal_range(value);
    bool match = false;
    std::string seen;
    for (auto it = range.first; it != range.second; ++it) {
      match = match || (rel_diff(it->second.first, scale) <= 1e-6 && it->second.second == zp);
      seen += " (" + std::to_string(it->second.first) + ", " + std::to_string(it->second.second) + ")";
    }
    EXPECT_TRUE(match) << model << ": '" << value << "' PyTorch (" << scale << ", " << zp
                       << "), Ember" << (seen.empty() ? " nothing" : seen);
    ++checked;
  }
  EXPECT_GT(checked, 0u);
  for (const json& w : ref["weights"]) {
    const std::string user = w["user"];
    ASSERT_TRUE(weight_scales.count(user)) << model << ": no per-channel weight for " << user;
    const std::vector<double>& mine = weight_scales[user];
    ASSERT_EQ(mine.size(), w["scales"].size()) << user;
    for (size_t c = 0; c < mine.size(); ++c) {
      EXPECT_LE(rel_diff(mine[c], w["scales"][c].get<double>()), 1e-6)
          << model << ": " << user << " channel " << c;
      EXPECT_EQ(w["zero_points"][c].get<int64_t>(), 0);
    }
  }
  EXPECT_EQ(weight_scales.size(), ref["weights"].size());
}

void expect_outputs_match(const std::string& model, const std::string& recipe) {
  current_model = model;
  const json ref = read_ref(model);
  auto session = lower(model, recipe, calibration(ref));
  ASSERT_TRUE(session.ok()) << last_error_message();
  for (const auto& v : check_pte(*session->pte())) ADD_FAILURE() << model << ": " << v.to_string();
  const QuantizeResults& q =
      static_cast<const QuantizeStage*>(session->find_stage("quantize"))->results();
  double worst = 0;
  for (size_t k = 0; k < q.samples.size(); ++k) {
    auto outs = session->run_method("forward", q.samples[k]);
    ASSERT_TRUE(outs.ok()) << last_error_message();
    const json& s = ref["samples"][k];
    ASSERT_EQ(outs->size(), s["quant_outputs"].size());
    for (size_t i = 0; i < outs->size(); ++i) {
      const double step = ref["output_qparams"][i][0];
      std::vector<uint8_t> want = read_bytes(fixture(s["quant_outputs"][i].get<std::string>()));
      ASSERT_EQ(want.size(), (*outs)[i].bytes.size());
      const size_t n = want.size() / 4;
      std::vector<float> a(n), b(n);
      std::memcpy(a.data(), want.data(), n * 4);
      std::memcpy(b.data(), (*outs)[i].bytes.data(), n * 4);
      for (size_t e = 0; e < n; ++e) worst = std::max(worst, std::fabs(double(a[e]) - b[e]) / step);
    }
  }
  EXPECT_LE(worst, 2.0 + 1e-6) << model << " " << recipe << ": " << worst << " steps from PyTorch";
  std::printf("%s %s: max %.3g output quantization steps from PyTorch's convert_pt2e model\n",
              model.c_str(), recipe.c_str(), worst);
}

TEST_P(PtqReferenceTest, PortableInt8OutputsMatchPyTorch) {
  SKIP_IF_ABSENT(GetParam());
  // The portable QDQ path of the 224x224 models takes seconds per run: XNNPACK only there.
  if (is_large(GetParam())) GTEST_SKIP() << "large model: checked through xnnpack-int8";
  expect_outputs_match(GetParam(), "portable-int8");
}
TEST_P(PtqReferenceTest, XnnpackInt8OutputsMatchPyTorch) {
  SKIP_IF_ABSENT(GetParam());
  expect_outputs_match(GetParam(), "xnnpack-int8");
}

INSTANTIATE_TEST_SUITE_P(Models, PtqReferenceTest,
                         ::testing::Values("ptq_mlp", "ptq_conv_net", "ptq_residual", "ptq_gated_mlp",
                                           "ptq_scaled_mlp", "ptq_offset_mlp",
                                           "ptq_transformer_layer",
                                           "ptq_mobilenet_v2_w035", "ptq_mobilenet_v2",
                                           "ptq_resnet18"));

// The gated MLP's mul + relu (annotated mul_relu) becomes XNNPACK's qs8 multiply with the
// relu folded into its output range; the MobileNetV2's pooling is qs8 global average pooling.
TEST(PtqXnnpackTest, Int8MultiplyAndGlobalAveragePooling) {
  for (const auto& [model, type] :
       std::vector<std::pair<std::string, fb_xnnpack::XNodeUnion>>{
           {"ptq_gated_mlp", fb_xnnpack::XNodeUnion::XNNMultiply},
           {"ptq_conv_net", fb_xnnpack::XNodeUnion::XNNGlobalAvgPooling2d}}) {
    current_model = model;
    auto s = lower(model, "xnnpack-int8", calibration(read_ref(model)));
    ASSERT_TRUE(s.ok()) << last_error_message();
    int int8_nodes = 0;
    const int blobs = testing::for_each_xnnpack_graph(
        *s->find_stage("to_backend")->artifact().graph, [&](const fb_xnnpack::XNNGraph& g) {
          std::map<uint32_t, fb_xnnpack::XNNDatatype> types;  // by value id
          for (const auto* v : *g.xvalues()) {
            const auto* q = v->xvalue_union_as_XNNQuantizedTensorValue();
            const auto* t = q != nullptr ? q->tensor_value() : v->xvalue_union_as_XNNTensorValue();
            if (t != nullptr) types[t->id_out()] = t->datatype();
          }
          for (const auto* n : *g.xnodes()) {
            if (n->xnode_union_type() != type) continue;
            const uint32_t in = type == fb_xnnpack::XNodeUnion::XNNMultiply
                                    ? static_cast<const fb_xnnpack::_XNNNode2x1*>(n->xnode_union())->input1_id()
                                    : static_cast<const fb_xnnpack::_XNNNode1x1*>(n->xnode_union())->input_id();
            if (types[in] == fb_xnnpack::XNNDatatype::xnn_datatype_qint8) ++int8_nodes;
          }
        });
    EXPECT_EQ(blobs, 1) << model;
    EXPECT_EQ(int8_nodes, 1) << model;
  }
}

TEST(PtqErrorsTest, CalibrationFileOfTheWrongSize) {
  current_model = "ptq_mlp";
  const json ref = read_ref("ptq_mlp");
  QuantizeOptions q = calibration(ref);
  q.samples[1][0].bytes.resize(60);
  q.sample_names = {{"a.bin"}, {"short.bin"}, {"c.bin"}};
  auto s = lower("ptq_mlp", "portable-int8", q);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error(), Error::InvalidArgument);
  EXPECT_NE(std::string(last_error_message())
                .find("calibration sample 1 input 0 ('x', file short.bin): 60 bytes, expected 256 (f32[4, 16])"),
            std::string::npos)
      << last_error_message();
}

TEST(PtqErrorsTest, ZeroSamples) {
  current_model = "ptq_mlp";
  QuantizeOptions q;
  q.runner = runner();
  auto s = lower("ptq_mlp", "xnnpack-int8", q);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error(), Error::InvalidArgument);
  EXPECT_NE(std::string(last_error_message()).find("at least one sample (got 0)"), std::string::npos)
      << last_error_message();
}

TEST(PtqErrorsTest, WrongInputCountPerSample) {
  current_model = "ptq_mlp";
  const json ref = read_ref("ptq_mlp");
  QuantizeOptions q = calibration(ref);
  q.samples[0].push_back(q.samples[0][0]);
  auto s = lower("ptq_mlp", "portable-int8", q);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(std::string(last_error_message()).find("sample 0 has 2 input(s), the method takes 1"),
            std::string::npos)
      << last_error_message();
}

}  // namespace
}  // namespace ember::aot
