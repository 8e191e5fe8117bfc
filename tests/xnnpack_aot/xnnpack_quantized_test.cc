// PT2E-quantized programs through the "xnnpack" recipe: what the delegate blobs hold (int8
// convolutions, fully connected, add, clamp and max pooling reading and writing qint8 values,
// XNNConvert only where fp32 meets int8) and the outputs, within two quantization steps of PyTorch's
// converted model on >= 99.9% of the elements (tests/fixtures/pt2_quant; the full-width
// MobileNetV2 from large_fixtures/pt2_quant when present).
#include <gtest/gtest.h>

#include <cstdio>
#include <map>

#include "aot/recipe/run_method.h"
#include "apps/pte_check/pte_check.h"
#include "tests/e2e/fixture_corpus.h"
#include "tests/xnnpack_aot/xnnpack_test_util.h"

namespace ember::testing {
namespace {

using runtime::Error;
namespace fb = fb_xnnpack;

struct BlobStats {
  std::map<fb::XNodeUnion, int> nodes;
  std::map<fb::XNodeUnion, int> int8_nodes;  // conv / FC / add reading a qint8 input
  int partitions = 0;
};

uint32_t first_input(const fb::XNode* x) {
  switch (x->xnode_union_type()) {
    case fb::XNodeUnion::XNNConv2d:
      return static_cast<const fb::_XNNNodeConv*>(x->xnode_union())->input1_id();
    case fb::XNodeUnion::XNNFullyConnected:
      return x->xnode_union_as_XNNFullyConnected()->input1_id();
    case fb::XNodeUnion::XNNAdd:
      return static_cast<const fb::_XNNNode2x1*>(x->xnode_union())->input1_id();
    case fb::XNodeUnion::XNNGlobalAvgPooling2d:
      return static_cast<const fb::_XNNNode1x1*>(x->xnode_union())->input_id();
    default:
      return UINT32_MAX;
  }
}

// Node counts over the XnnpackBackend blobs of quantized fixture `id`'s to_backend graph.
bool blob_stats(const std::string& id, BlobStats* s) {
  const std::vector<Fixture> all = list_quantized_fixtures();
  const Fixture* f = nullptr;
  for (const Fixture& x : all) f = x.id == id ? &x : f;
  if (f == nullptr) {
    ADD_FAILURE() << id << ": fixture not found";
    return false;
  }
  s->partitions = for_each_xnnpack_graph(f->pt2, [&](const fb::XNNGraph& g) {
    std::map<uint32_t, fb::XNNDatatype> types;
    for (const fb::XValue* v : *g.xvalues()) {
      const fb::XNNTensorValue* t = v->xvalue_union_type() == fb::XValueUnion::XNNTensorValue
                                        ? v->xvalue_union_as_XNNTensorValue()
                                        : v->xvalue_union_as_XNNQuantizedTensorValue()->tensor_value();
      types[t->id_out()] = t->datatype();
    }
    for (const fb::XNode* x : *g.xnodes()) {
      ++s->nodes[x->xnode_union_type()];
      const uint32_t in = first_input(x);
      if (in != UINT32_MAX && types[in] == fb::XNNDatatype::xnn_datatype_qint8) {
        ++s->int8_nodes[x->xnode_union_type()];
      }
    }
  });
  return s->partitions >= 0;
}

TEST(XnnpackQuantizedTest, PerTensorMlpRunsInt8FullyConnected) {
  BlobStats s;
  ASSERT_TRUE(blob_stats("q8_mlp.core_aten.torch2_6", &s));
  EXPECT_EQ(s.partitions, 1);
  EXPECT_EQ(s.int8_nodes[fb::XNodeUnion::XNNFullyConnected], 3);
  EXPECT_EQ(s.nodes[fb::XNodeUnion::XNNFullyConnected], 3);
  // Only the program's input is quantized and its output dequantized; relus are folded.
  EXPECT_EQ(s.nodes[fb::XNodeUnion::XNNConvert], 2);
  EXPECT_EQ(s.nodes[fb::XNodeUnion::XNNClamp], 0);
}

TEST(XnnpackQuantizedTest, ConvNetRunsInt8PerChannelConvolutions) {
  BlobStats s;
  ASSERT_TRUE(blob_stats("q8_conv_net.training_ir.torch2_6", &s));
  EXPECT_EQ(s.partitions, 1);
  // Two convolutions, and the per-channel linear as a 1x1 convolution (this XNNPACK's fully
  // connected has no per-channel filters); the max pooling keeps its parameters, so it runs
  // on the int8 values too, and so does the global average pooling (mean over H, W).
  EXPECT_EQ(s.int8_nodes[fb::XNodeUnion::XNNConv2d], 3);
  EXPECT_EQ(s.int8_nodes[fb::XNodeUnion::XNNGlobalAvgPooling2d], 1);
  EXPECT_EQ(s.nodes[fb::XNodeUnion::XNNConv2d], 3);
  EXPECT_EQ(s.nodes[fb::XNodeUnion::XNNFullyConnected], 0);
  EXPECT_EQ(s.nodes[fb::XNodeUnion::XNNMaxPooling2d], 1);
}

TEST(XnnpackQuantizedTest, ResidualBlockRunsInt8Add) {
  BlobStats s;
  ASSERT_TRUE(blob_stats("q8_residual.core_aten.torch2_6", &s));
  EXPECT_EQ(s.int8_nodes[fb::XNodeUnion::XNNConv2d], 4);
  EXPECT_EQ(s.int8_nodes[fb::XNodeUnion::XNNAdd], 1);
}

TEST(XnnpackQuantizedTest, MobileNetV2RunsInt8ConvolutionsAndAdds) {
  BlobStats s;
  ASSERT_TRUE(blob_stats("q8_mobilenet_v2_w035.core_aten.torch2_6", &s));
  // 52 convolutions (17 depthwise), the classifier (a 1x1 convolution) and 10 residual adds,
  // all int8, with every ReLU6 folded into its convolution; the input is transposed once
  // (NCHW -> NHWC). The global average pooling runs on the int8 values too.
  EXPECT_EQ(s.nodes[fb::XNodeUnion::XNNConv2d], 53);
  EXPECT_EQ(s.int8_nodes[fb::XNodeUnion::XNNGlobalAvgPooling2d], 1);
  EXPECT_EQ(s.int8_nodes[fb::XNodeUnion::XNNConv2d], 53);
  EXPECT_EQ(s.nodes[fb::XNodeUnion::XNNFullyConnected], 0);
  EXPECT_EQ(s.int8_nodes[fb::XNodeUnion::XNNAdd], 10);
  EXPECT_EQ(s.nodes[fb::XNodeUnion::XNNClamp], 0);
  EXPECT_EQ(s.nodes[fb::XNodeUnion::XNNStaticTranspose], 1);
  std::printf("converts %d, reshapes %d\n", s.nodes[fb::XNodeUnion::XNNConvert],
              s.nodes[fb::XNodeUnion::XNNStaticReshape]);
}

// Lowers, checks and runs every quantized fixture (external ones when `external`); counts
// them in *ran.
void check_all(bool external, int* ran) {
  for (const Fixture& f : list_quantized_fixtures()) {
    if (f.external != external) continue;
    SCOPED_TRACE(f.id);
    auto session = xnnpack_session(f.pt2);
    ASSERT_TRUE(session.ok()) << ::ember::aot::format_error(session.error());
    const aot::Error st = session->run();
    if (st != Error::Ok) {
      ADD_FAILURE() << ::ember::aot::format_error(st);
      continue;
    }
    for (const auto& v : aot::check_pte(*session->pte())) ADD_FAILURE() << v.to_string();
    aot::RunOptions ro;
    ro.backends = &xnnpack_registry();
    auto runner = aot::PteRunner::load(*session->pte(), ro);
    ASSERT_TRUE(runner.ok()) << ::ember::aot::format_error(runner.error());
    OutputStats stats;
    for (size_t c = 0; c < f.cases.size(); ++c) {
      std::vector<aot::HostTensor> inputs(f.cases[c].inputs.size());
      for (size_t i = 0; i < inputs.size(); ++i) ASSERT_TRUE(read_fixture_tensor(f.cases[c].inputs[i], &inputs[i]));
      auto outputs = runner.get()->run("forward", inputs);
      ASSERT_TRUE(outputs.ok()) << ::ember::aot::format_error(outputs.error());
      ASSERT_EQ(outputs->size(), f.cases[c].outputs.size());
      for (size_t o = 0; o < outputs->size(); ++o) {
        aot::HostTensor ref;
        ASSERT_TRUE(read_fixture_tensor(f.cases[c].outputs[o], &ref));
        EXPECT_EQ(compare_output((*outputs)[o], ref, f.cases[c].outputs[o], f, 2.0, &stats), "")
            << "case " << c << " output " << o;
      }
    }
    const std::string summary = session->delegation_summary();
    std::printf("%-45s %s; %zu case(s): max %.3g steps, %.4f within 2 steps; float outputs max abs %.3g\n",
                f.id.c_str(), summary.substr(0, summary.find('\n')).c_str(), f.cases.size(),
                stats.max_steps, stats.within, stats.max_abs);
    ++*ran;
  }
}

TEST(XnnpackQuantizedTest, EveryQuantizedFixtureMatchesWithinTwoSteps) {
  int ran = 0;
  check_all(false, &ran);
  EXPECT_GE(ran, 6);
}

TEST(XnnpackQuantizedTest, LargeQuantizedFixturesMatchWhenPresent) {
  int ran = 0;
  check_all(true, &ran);
  if (ran == 0) GTEST_SKIP() << "no large_fixtures/pt2_quant";
}

}  // namespace
}  // namespace ember::testing
