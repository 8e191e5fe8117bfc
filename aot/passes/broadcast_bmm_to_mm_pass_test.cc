// BroadcastBmmToMmPass on hand-made graphs shaped like torch.export's
// nn.MultiheadAttention input projection (expected graphs written by hand).
#include "aot/passes/broadcast_bmm_to_mm_pass.h"

#include <gtest/gtest.h>

#include "aot/ir/testing/graph_builder.h"
#include "aot/ir/verifier.h"
#include "aot/passes/fold_constant_permute_pass.h"

namespace ember::aot {
namespace {

using testing::GraphBuilder;
using testing::print_body;

// a [4, 2, 3] @ expand(permute(w [5, 3]), [4, 3, 5]) (+ a same-shape view when `view`).
Graph projection(bool view, bool expand_also_output) {
  GraphBuilder b;
  ValueId w = b.parameter("w", {5, 3}, std::vector<float>(15, 1.f));
  ValueId a = b.input("a", {4, 2, 3});
  ValueId t = b.op("aten::permute.default", {{"self", w}}, "permute", {3, 5},
                   {{"dims", Argument::int_list({1, 0}), false}});
  ValueId e = b.op("aten::expand.default", {{"self", t}}, "expand", {4, 3, 5},
                   {{"size", Argument::int_list({4, 3, 5}), false}});
  ValueId m = e;
  if (view) {
    m = b.op("aten::view.default", {{"self", e}}, "view", {4, 3, 5},
             {{"size", Argument::int_list({4, 3, 5}), false}});
  }
  b.output(b.op("aten::bmm.default", {{"self", a}, {"mat2", m}}, "bmm", {4, 2, 5}));
  if (expand_also_output) b.output(e);
  return b.take();
}

TEST(BroadcastBmmToMmPassTest, ExpandedMatrixBecomesOneMm) {
  for (bool view : {false, true}) {
    Graph g = projection(view, false);
    ASSERT_EQ(BroadcastBmmToMmPass().run(g), Error::Ok);
    const std::string v = view ? "%view_1" : "%view";  // a fresh name beside the removed view
    EXPECT_EQ(print_body(g),
              "%permute : f32[3, 5] = aten::permute.default(self=%w, dims=[1, 0])\n" + v +
                  " : f32[8, 3] = aten::view.default(self=%a, size=[8, 3])\n"
                  "%mm : f32[8, 5] = aten::mm.default(self=" + v + ", mat2=%permute)\n"
                  "%bmm : f32[4, 2, 5] = aten::view.default(self=%mm, size=[4, 2, 5])\n")
        << "view " << view;
    EXPECT_EQ(verify_graph(g), Error::Ok) << last_error_message();
    // The constant permute then folds, as in the recipes.
    ASSERT_EQ(FoldConstantPermutePass().run(g), Error::Ok);
    EXPECT_EQ(g.nodes().size(), 3u);
  }
}

TEST(BroadcastBmmToMmPassTest, ExpandWithAnotherUseStays) {
  Graph g = projection(false, true);
  ASSERT_EQ(BroadcastBmmToMmPass().run(g), Error::Ok);
  const std::string body = print_body(g);
  EXPECT_NE(body.find("aten::expand.default"), std::string::npos) << body;
  EXPECT_NE(body.find("aten::mm.default"), std::string::npos) << body;
  EXPECT_EQ(verify_graph(g), Error::Ok) << last_error_message();
}

TEST(BroadcastBmmToMmPassTest, TrueBatchAndOtherProducersAreLeftAlone) {
  GraphBuilder b;
  ValueId a = b.input("a", {4, 2, 3});
  ValueId c = b.input("c", {4, 3, 5});
  ValueId w = b.input("w", {1, 3, 5});
  ValueId e = b.op("aten::expand.default", {{"self", w}}, "expand", {4, 3, 5},
                   {{"size", Argument::int_list({4, 3, 5}), false}});
  b.output(b.op("aten::bmm.default", {{"self", a}, {"mat2", c}}, "bmm", {4, 2, 5}));
  b.output(b.op("aten::bmm.default", {{"self", a}, {"mat2", e}}, "bmm_3d", {4, 2, 5}));
  Graph g = b.take();
  const std::string before = print_body(g);
  ASSERT_EQ(BroadcastBmmToMmPass().run(g), Error::Ok);
  EXPECT_EQ(print_body(g), before);
}

}  // namespace
}  // namespace ember::aot
