// End-to-end: fixture models (tests/fixtures/pt2; mobilenet_v2 from large_fixtures when
// present) lowered with the "xnnpack" recipe -> .pte (pte_check clean) -> Ember's runtime with
// XnnpackBackend + portable kernels -> compared with PyTorch's reference outputs
// (manifest tolerance, |got - ref| <= atol + rtol |ref|, rtol 1e-4). Each model must
// delegate nodes; the delegation summaries and max errors are printed.
#include <gtest/gtest.h>

#include <cstdio>

#include "aot/recipe/run_method.h"
#include "aot/tools/pte_check/pte_check.h"
#include "tests/e2e/fixture_corpus.h"
#include "tests/xnnpack_aot/xnnpack_test_util.h"

namespace ember::testing {
namespace {

aot::Result<aot::ExportSession> serialize_xnnpack(const std::string& pt2) {
  EMBER_ASSIGN_OR_RETURN(aot::ExportSession session, xnnpack_session(pt2));
  EMBER_TRY(session.run());
  return session;
}

// Lowers, runs and compares every fixture whose id starts with `prefix`; returns how many ran.
// `partitions` >= 0: the xnnpack recipe must delegate in exactly that many partitions, and the
// summary must give a reason for every node left out.
int check_fixtures(const std::string& prefix, int partitions = -1) {
  int ran = 0;
  for (const Fixture& f : list_fixtures()) {
    if (f.id.rfind(prefix, 0) != 0) continue;
    SCOPED_TRACE(f.id);
    auto session = serialize_xnnpack(f.pt2);
    if (!session.ok()) {
      ADD_FAILURE() << ::ember::aot::format_error(session.error());
      continue;
    }
    const std::string summary = session->delegation_summary();
    std::printf("%s\n%s", f.id.c_str(), summary.c_str());
    if (prefix.rfind("shared:", 0) != 0) {
      EXPECT_NE(summary.find("xnnpack: "), std::string::npos) << "nothing delegated";
    }
    if (partitions >= 0) {
      const aot::DelegationReport& report = session->last_artifact().delegation;
      EXPECT_EQ(report.num_partitions, partitions) << summary;
      for (const aot::DelegationEntry& e : report.entries) {
        EXPECT_TRUE(e.delegated || !e.reason.empty()) << e.node << " refused without a reason";
      }
    }
    for (const auto& v : aot::check_pte(*session->pte())) ADD_FAILURE() << v.to_string();
    std::vector<std::string> missing = aot::missing_kernels(*session->pte());
    if (!missing.empty()) {
      std::printf("  not run, missing portable kernel %s\n", missing[0].c_str());
      continue;
    }
    // One loaded program for all cases: stateful fixtures expect case k to see the state
    // case k-1 left behind.
    aot::RunOptions ro;
    ro.backends = &xnnpack_registry();
    auto runner = aot::PteRunner::load(*session->pte(), ro);
    if (!runner.ok()) {
      ADD_FAILURE() << ::ember::aot::format_error(runner.error());
      continue;
    }
    double max_abs = 0, max_rel = 0;
    for (size_t c = 0; c < f.cases.size(); ++c) {
      std::vector<aot::HostTensor> inputs(f.cases[c].inputs.size());
      for (size_t i = 0; i < inputs.size(); ++i) {
        if (!read_fixture_tensor(f.cases[c].inputs[i], &inputs[i])) ADD_FAILURE() << "input " << i;
      }
      auto outputs = runner.get()->run("forward", inputs);
      if (!outputs.ok()) {
        ADD_FAILURE() << ::ember::aot::format_error(outputs.error());
        break;
      }
      if (outputs->size() != f.cases[c].outputs.size()) {
        ADD_FAILURE() << "output count";
        break;
      }
      for (size_t o = 0; o < outputs->size(); ++o) {
        aot::HostTensor ref;
        if (!read_fixture_tensor(f.cases[c].outputs[o], &ref)) ADD_FAILURE() << "output " << o;
        Comparison cmp = compare_tensors((*outputs)[o], ref, f.cases[c].outputs[o].exact, f.atol, f.rtol);
        EXPECT_TRUE(cmp.ok) << "case " << c << " output " << o << ": " << cmp.message;
        max_abs = std::max(max_abs, cmp.max_abs);
        max_rel = std::max(max_rel, cmp.max_rel);
      }
    }
    std::printf("  %zu case(s): max abs %.3g, max rel %.3g (atol %g, rtol %g)\n", f.cases.size(), max_abs,
                max_rel, f.atol, f.rtol);
    ++ran;
  }
  return ran;
}

void check_model(const std::string& model) {
  if (check_fixtures(model + ".core_aten.torch2_6") == 0) GTEST_SKIP() << model << ": fixture not found";
}

// A large fixture (../large_fixtures/pt2) from every torch version present, with the partition
// count the xnnpack recipe must reach.
void check_large_model(const std::string& model, int partitions) {
  if (check_fixtures(model + ".core_aten.", partitions) == 0) {
    GTEST_SKIP() << model << ": fixture not found (tools/fixtures/README.md writes it)";
  }
}

TEST(XnnpackE2eTest, Mlp) { check_model("mlp"); }
TEST(XnnpackE2eTest, ConvBnRelu) { check_model("conv_bn_relu"); }
TEST(XnnpackE2eTest, TransformerEncoderLayer) { check_model("transformer_encoder_layer"); }
TEST(XnnpackE2eTest, Squeezenet) { check_model("squeezenet1_1"); }
TEST(XnnpackE2eTest, MobileNetV2) { check_model("mobilenet_v2"); }
// Hardswish/hardsigmoid (int64 3 and 6, cast to f32 by the recipe's transform stage): whole.
TEST(XnnpackE2eTest, MobileNetV3Small) { check_large_model("mobilenet_v3_small", 1); }
// split_with_sizes (channel split, delegate-internal static slices) and channel shuffle: whole.
TEST(XnnpackE2eTest, ShuffleNetV2) { check_large_model("shufflenet_v2_x0_5", 1); }
// More torchvision classifiers at 64x64 (issue #20), each whole in one partition.
TEST(XnnpackE2eTest, MobileNetV3Large) { check_large_model("mobilenet_v3_large", 1); }
TEST(XnnpackE2eTest, EfficientNetB0) { check_large_model("efficientnet_b0", 1); }  // SiLU as x * sigmoid(x)
TEST(XnnpackE2eTest, RegNetX400mf) { check_large_model("regnet_x_400mf", 1); }
TEST(XnnpackE2eTest, MnasNet05) { check_large_model("mnasnet0_5", 1); }
TEST(XnnpackE2eTest, GoogLeNet) { check_large_model("googlenet", 1); }  // max_pool2d ceil_mode, cat of 4
// Dense blocks concatenate up to 33 tensors: chained delegate-internal concatenates.
TEST(XnnpackE2eTest, DenseNet121) { check_large_model("densenet121", 1); }

// Committed transformer / U-Net fixtures with the partition count each torch version's export
// reaches. The encoder layers keep the bool half of core ATen's _safe_softmax (eq -inf, any,
// logical_not, where) and the mask conversions on the portable kernels: XNNPACK has no bool.
void check_committed(const std::string& model, int partitions_torch2_6, int partitions_torch2_14) {
  EXPECT_EQ(check_fixtures(model + ".core_aten.torch2_6", partitions_torch2_6), 1);
  EXPECT_EQ(check_fixtures(model + ".core_aten.torch2_14", partitions_torch2_14), 1);
}
TEST(XnnpackE2eTest, TransformerEncoderLayerPartitions) { check_committed("transformer_encoder_layer", 2, 2); }
TEST(XnnpackE2eTest, TransformerEncoderMasked) { check_committed("transformer_encoder_masked", 2, 2); }
TEST(XnnpackE2eTest, VitBlock) { check_committed("vit_block", 2, 2); }  // gelu, layer_norm, cat, expand
// torch 2.14 keeps upsample_nearest2d / upsample_bilinear2d (one partition); torch 2.6's
// core ATen decomposes them into int64 index arithmetic and index.Tensor gathers.
TEST(XnnpackE2eTest, TinyUnet) { check_committed("tiny_unet", 11, 1); }

// Every other committed fixture (both dialects and torch versions): whatever the xnnpack
// recipe delegates must still match PyTorch.
TEST(XnnpackE2eTest, AllCommittedFixtures) { EXPECT_GT(check_fixtures(""), 0); }

// The shared corpus, when present.
TEST(XnnpackE2eTest, SharedCorpus) {
  if (check_fixtures("shared:") == 0) GTEST_SKIP() << "shared corpus not found";
}

}  // namespace
}  // namespace ember::testing
