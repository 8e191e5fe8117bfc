// What the xnnpack recipe puts into the delegate blobs of the CNN fixtures: NCHW at the
// boundary, NHWC inside with exactly one layout conversion (the input; the pooled
// [N, C, 1, 1] -> [N, C] needs only a reshape), batch norm folded into the convolutions
// (no multiply nodes), ReLU/ReLU6 fused into their producers (no clamp nodes), and cat
// on the NHWC channel axis (3).
#include <gtest/gtest.h>

#include <map>

#include "tests/e2e/fixture_corpus.h"
#include "tests/xnnpack_aot/xnnpack_test_util.h"

namespace ember::testing {
namespace {

using runtime::Error;

namespace fb = fb_xnnpack;

struct BlobStats {
  std::map<fb::XNodeUnion, int> nodes;
  std::vector<uint32_t> cat_axes;
};

// Node counts over all XnnpackBackend blobs of the model's to_backend graph.
bool blob_stats(const std::string& model, BlobStats* out) {
  for (const Fixture& f : list_fixtures()) {
    if (f.id.rfind(model + ".core_aten.torch2_6", 0) != 0) continue;
    return for_each_xnnpack_graph(f.pt2, [&](const fb::XNNGraph& g) {
             for (const fb::XNode* x : *g.xnodes()) {
               ++out->nodes[x->xnode_union_type()];
               if (x->xnode_union_type() >= fb::XNodeUnion::XNNConcatenate2 &&
                   x->xnode_union_type() <= fb::XNodeUnion::XNNConcatenate4) {
                 out->cat_axes.push_back(static_cast<const fb::_XNNCat*>(x->xnode_union())->axis());
               }
             }
           }) >= 0;
  }
  return false;
}

TEST(XnnpackLayoutTest, ConvBnReluHasOneTransposeFoldedBnFusedClamps) {
  BlobStats s;
  if (!blob_stats("conv_bn_relu", &s)) GTEST_SKIP() << "fixture not found";
  EXPECT_EQ(s.nodes[fb::XNodeUnion::XNNStaticTranspose], 1);
  EXPECT_EQ(s.nodes[fb::XNodeUnion::XNNConv2d], 2);
  EXPECT_EQ(s.nodes[fb::XNodeUnion::XNNMultiply], 0);
  EXPECT_EQ(s.nodes[fb::XNodeUnion::XNNClamp], 0);
  EXPECT_EQ(s.nodes[fb::XNodeUnion::XNNGlobalAvgPooling2d], 1);
  EXPECT_EQ(s.nodes[fb::XNodeUnion::XNNFullyConnected], 1);
}

// Each fire module's cat([expand1x1, expand3x3], 1) is read by the next squeeze convolution
// (through a max pool after fires 3 and 5, through the classifier's clone after fire 9): the
// xnnpack recipe distributes that convolution over the cat (DistributeConvOverCatPass), so
// 26 + 8 convolutions, 8 adds with the ReLU fused, no concatenate, two extra max pools.
TEST(XnnpackLayoutTest, SqueezenetHasNoConcatenate) {
  BlobStats s;
  if (!blob_stats("squeezenet1_1", &s)) GTEST_SKIP() << "fixture not found";
  EXPECT_EQ(s.nodes[fb::XNodeUnion::XNNStaticTranspose], 1);
  EXPECT_EQ(s.nodes[fb::XNodeUnion::XNNConv2d], 34);
  EXPECT_EQ(s.nodes[fb::XNodeUnion::XNNAdd], 8);
  EXPECT_EQ(s.nodes[fb::XNodeUnion::XNNMaxPooling2d], 5);
  EXPECT_EQ(s.nodes[fb::XNodeUnion::XNNClamp], 0);
  EXPECT_EQ(s.cat_axes.size(), 0u);
}

TEST(XnnpackLayoutTest, MobileNetV2StaysNhwc) {
  BlobStats s;
  if (!blob_stats("mobilenet_v2", &s)) GTEST_SKIP() << "large fixture not found";
  EXPECT_EQ(s.nodes[fb::XNodeUnion::XNNStaticTranspose], 1);
  EXPECT_EQ(s.nodes[fb::XNodeUnion::XNNConv2d], 52);
  EXPECT_EQ(s.nodes[fb::XNodeUnion::XNNMultiply], 0);
  EXPECT_EQ(s.nodes[fb::XNodeUnion::XNNClamp], 0);
  EXPECT_EQ(s.nodes[fb::XNodeUnion::XNNAdd], 10);
}

}  // namespace
}  // namespace ember::testing
