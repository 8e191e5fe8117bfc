// The _safe_softmax pattern (safe_softmax.h): found whole, every node supported, and lowered
// to float XNNPACK operators that give PyTorch's results, including the row of -inf only
// (0, where a plain softmax gives NaN). Expected values are worked by hand.
#include "backends/xnnpack/aot/safe_softmax.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "aot/ir/testing/graph_builder.h"
#include "backends/xnnpack/aot/xnnpack_partitioner.h"
#include "backends/xnnpack/runtime/xnnpack_backend.h"
#include "runtime/core/memory_allocator.h"

namespace ember::backends::xnnpack {
namespace {

using aot::testing::GraphBuilder;

constexpr float kInf = std::numeric_limits<float>::infinity();

// x [2, 4] -> core ATen's _safe_softmax over dim 1 -> y [2, 4].
GraphBuilder safe_softmax_graph(bool extra_use_of_any = false) {
  GraphBuilder b;
  auto x = b.input("x", {2, 4});
  auto s = b.op("aten::_softmax.default", {{"self", x}}, "_softmax", {2, 4},
                {{"dim", aot::Argument::integer(-1), false}, {"half_to_float", aot::Argument::boolean(false), false}});
  auto e = b.op("aten::eq.Scalar", {{"self", x}}, "eq", {2, 4}, {{"other", aot::Argument::floating(-kInf), false}},
                aot::ScalarType::Bool);
  auto ne = b.op("aten::logical_not.default", {{"self", e}}, "logical_not", {2, 4}, {}, aot::ScalarType::Bool);
  auto a = b.op("aten::any.dim", {{"self", ne}}, "any", {2, 1},
                {{"dim", aot::Argument::integer(-1), false}, {"keepdim", aot::Argument::boolean(true), false}},
                aot::ScalarType::Bool);
  auto na = b.op("aten::logical_not.default", {{"self", a}}, "logical_not_1", {2, 1}, {}, aot::ScalarType::Bool);
  auto z = b.op("aten::full_like.default", {{"self", s}}, "full_like", {2, 4},
                {{"fill_value", aot::Argument::integer(0), false}});
  auto y = b.op("aten::where.self", {{"condition", na}, {"self", z}, {"other", s}}, "where", {2, 4});
  b.output(y);
  if (extra_use_of_any) b.output(a);
  return b;
}

TEST(SafeSoftmaxTest, FoundWholeAndSupported) {
  GraphBuilder b = safe_softmax_graph();
  const std::vector<SafeSoftmax> found = find_safe_softmax(b.graph());
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].bool_nodes.size(), 5u);
  EXPECT_EQ(found[0].dim, 1);
  XnnpackPartitioner p;
  for (const aot::Node& n : b.graph().nodes()) {
    EXPECT_TRUE(p.supports(n, b.graph()).supported) << n.name << ": " << p.supports(n, b.graph()).reason;
  }
}

// A bool intermediate read elsewhere: no pattern, and the bool nodes say why they stay out.
TEST(SafeSoftmaxTest, BoolValueUsedElsewhereIsNotTaken) {
  GraphBuilder b = safe_softmax_graph(true);
  EXPECT_TRUE(find_safe_softmax(b.graph()).empty());
  XnnpackPartitioner p;
  aot::Support s = p.supports(b.graph().nodes()[3], b.graph());  // any.dim
  EXPECT_FALSE(s.supported);
  EXPECT_NE(s.reason.find("no boolean datatype"), std::string::npos) << s.reason;
}

// Row 0 [0, 1, -inf, 2]: e^k / (1 + e + e^2) at the finite scores, 0 at -inf.
// Row 1 [-inf x 4]: zeros (PyTorch's _safe_softmax), not NaN.
TEST(SafeSoftmaxTest, LoweredGraphMatchesByHand) {
  GraphBuilder b = safe_softmax_graph();
  auto blob = serialize_to_xnnpack(b.graph(), ConstantPlacement::Inline);
  ASSERT_TRUE(blob.ok());
  std::vector<uint8_t> arena(1 << 20);
  runtime::MemoryAllocator allocator(arena.data(), arena.size());
  runtime::BackendInitContext ictx(&allocator, "forward", nullptr);
  runtime::FreeableBuffer buffer(blob->bytes.data(), blob->bytes.size());
  auto h = backend_instance().init(ictx, &buffer, {});
  ASSERT_TRUE(h.ok());
  std::vector<float> x = {0.f, 1.f, -kInf, 2.f, -kInf, -kInf, -kInf, -kInf};
  x.resize(16, 0.f);  // XNNPACK may read past the end
  std::vector<float> y(16, -1.f);
  int32_t sizes[2] = {2, 4}, strides[2][2];
  uint8_t order[2] = {0, 1};
  runtime::Tensor tin(runtime::ScalarType::Float, 2, sizes, order, strides[0], x.data());
  runtime::Tensor tout(runtime::ScalarType::Float, 2, sizes, order, strides[1], y.data());
  runtime::EValue ein(&tin), eout(&tout);
  runtime::EValue* args[] = {&ein, &eout};
  runtime::BackendExecutionContext ectx(nullptr, "forward", nullptr);
  ASSERT_EQ(backend_instance().execute(ectx, h.get(), {args, 2}), runtime::Error::Ok);
  backend_instance().destroy(h.get());
  const double sum = 1.0 + std::exp(1.0) + std::exp(2.0);
  const double want[8] = {1.0 / sum, std::exp(1.0) / sum, 0.0, std::exp(2.0) / sum, 0, 0, 0, 0};
  for (int i = 0; i < 8; ++i) EXPECT_NEAR(y[size_t(i)], want[i], 1e-6) << "element " << i;
}

}  // namespace
}  // namespace ember::backends::xnnpack
