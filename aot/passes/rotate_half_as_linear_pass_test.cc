// RotateHalfAsLinearPass and SiluAsSigmoidMulPass on hand-made graphs: the rewritten form, the
// rotation matrix worked out by hand for D = 4, and near misses left as they are.
#include "aot/passes/rotate_half_as_linear_pass.h"

#include <gtest/gtest.h>

#include <cstring>

#include "aot/ir/graph_rewrite.h"
#include "aot/ir/printer.h"
#include "aot/ir/testing/graph_builder.h"
#include "aot/ir/verifier.h"
#include "aot/passes/remove_identity_copy_pass.h"
#include "aot/passes/silu_as_sigmoid_mul_pass.h"

namespace ember::aot {
namespace {

using testing::GraphBuilder;
using testing::print_body;

// rotate_half of x: f32[1, 2, 3, 4] as transformers writes it (halves `lo_end`, `hi_start`).
Graph rotate_half(int64_t lo_end = 2, int64_t hi_start = 2, bool neg_first = true,
                  bool extra_reader = false) {
  GraphBuilder b;
  ValueId x = b.input("x", {1, 2, 3, 4});
  ValueId lo = b.op("aten::slice.Tensor", {{"self", x}}, "lo", {1, 2, 3, lo_end},
                    {{"dim", Argument::integer(3), false}, {"start", Argument::integer(0), false},
                     {"end", Argument::integer(lo_end), false}});
  ValueId hi = b.op("aten::slice.Tensor", {{"self", x}}, "hi", {1, 2, 3, 4 - hi_start},
                    {{"dim", Argument::integer(3), false},
                     {"start", Argument::integer(hi_start), false},
                     {"end", Argument::integer(INT64_MAX), false}});
  ValueId neg = b.op("aten::neg.default", {{"self", hi}}, "neg", {1, 2, 3, 4 - hi_start});
  NamedArgument ts{"tensors", Argument::tensor_list(neg_first ? std::vector<ValueId>{neg, lo}
                                                             : std::vector<ValueId>{lo, neg}),
                   false};
  ValueId cat = b.op("aten::cat.default", {}, "cat", {1, 2, 3, 4},
                     {ts, {"dim", Argument::integer(-1), false}});
  b.output(cat);
  if (extra_reader) b.output(lo);
  return b.take();
}

TEST(RotateHalfAsLinearPassTest, RotateHalfBecomesOneProductWithASignedPermutation) {
  Graph g = rotate_half();
  ASSERT_EQ(RotateHalfAsLinearPass().run(g), Error::Ok) << runtime::last_error_message();
  ASSERT_EQ(verify_graph(g), Error::Ok) << runtime::last_error_message();
  EXPECT_EQ(print_body(g),
            "%cat : f32[1, 2, 3, 4] = aten::linear.default(input=%x, weight=%rotate_half_4)\n");
  const TensorSpec& w = g.value(g.find_value("rotate_half_4")).tensor;
  std::vector<float> v(16);
  std::memcpy(v.data(), w.constant->bytes.data(), 64);
  // y = x W^T: y0 = -x2, y1 = -x3, y2 = x0, y3 = x1.
  const std::vector<float> want = {0, 0, -1, 0, 0, 0, 0, -1, 1, 0, 0, 0, 0, 1, 0, 0};
  EXPECT_EQ(v, want);
}

TEST(RotateHalfAsLinearPassTest, OtherSplitsOrdersAndSharedSlicesStay) {
  for (Graph g : {rotate_half(1, 1), rotate_half(2, 2, false), rotate_half(2, 2, true, true)}) {
    const std::string before = print_body(g);
    ASSERT_EQ(RotateHalfAsLinearPass().run(g), Error::Ok);
    EXPECT_EQ(print_body(g), before);
  }
}

TEST(SiluAsSigmoidMulPassTest, SiluBecomesXTimesSigmoid) {
  GraphBuilder b;
  ValueId x = b.input("x", {2, 3});
  ValueId y = b.op("aten::silu.default", {{"self", x}}, "y", {2, 3});
  b.output(y);
  Graph g = b.take();
  ASSERT_EQ(SiluAsSigmoidMulPass().run(g), Error::Ok);
  ASSERT_EQ(verify_graph(g), Error::Ok) << runtime::last_error_message();
  EXPECT_EQ(print_body(g),
            "%y_sigmoid : f32[2, 3] = aten::sigmoid.default(self=%x)\n"
            "%y : f32[2, 3] = aten::mul.Tensor(self=%x, other=%y_sigmoid)\n");
}

TEST(RemoveIdentityCopyPassTest, SameDtypeCopyIsItsInputOtherCopiesStay) {
  GraphBuilder b;
  ValueId x = b.input("x", {2, 3});
  ValueId same = b.op("aten::_to_copy.default", {{"self", x}}, "same", {2, 3},
                      {{"dtype", Argument::scalar_type(ScalarType::Float), true}});
  ValueId y = b.op("aten::neg.default", {{"self", same}}, "y", {2, 3});
  ValueId half = b.op("aten::_to_copy.default", {{"self", y}}, "half", {2, 3},
                      {{"dtype", Argument::scalar_type(ScalarType::Half), true}},
                      ScalarType::Half);
  ValueId out = b.op("aten::_to_copy.default", {{"self", y}}, "out", {2, 3},
                     {{"dtype", Argument::scalar_type(ScalarType::Float), true}});
  b.output(half);
  b.output(out);  // a graph output keeps its own tensor
  Graph g = b.take();
  ASSERT_EQ(RemoveIdentityCopyPass().run(g), Error::Ok);
  ASSERT_EQ(verify_graph(g), Error::Ok) << runtime::last_error_message();
  EXPECT_EQ(print_body(g),
            "%y : f32[2, 3] = aten::neg.default(self=%x)\n"
            "%half : f16[2, 3] = aten::_to_copy.default(self=%y, dtype=f16)\n"
            "%out : f32[2, 3] = aten::_to_copy.default(self=%y, dtype=f32)\n");
}

}  // namespace
}  // namespace ember::aot
