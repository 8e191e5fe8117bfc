// Broadcasting float add/sub/mul/div through the kernels (ops/arith.cc), at the shapes the
// aarch64 NEON path (util/binary_neon.h) takes: same shape, scalar, trailing row, leading
// and middle channel columns, operands in both orders, lengths with vector tails. Expected
// values are the definition, element by element in float with separately rounded products.
// On aarch64 each call must go through the NEON path (its counter grows by one), and a
// call with both operands broadcast must not; elsewhere the counter stays 0.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "kernels/portable/ops/arith.h"
#include "kernels/portable/util/neon_paths.h"
#include "kernels/test/test_tensor.h"

namespace ember::kernels::portable {
namespace {

using testing::make;
using testing::TestTensor;

enum class Op { Add, Sub, Mul, Div };

std::vector<double> values(size_t n, double scale) {
  std::vector<double> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = scale * (double(int(i * 37 % 101)) - 50.0) / 7.0 + 0.25;
  return v;
}

size_t numel(const std::vector<int32_t>& s) {
  size_t n = 1;
  for (int32_t d : s) n *= size_t(d);
  return n;
}

// Row-major index into `s` (right-aligned to `out`, size-1 dims broadcast) of out's element i.
size_t source_index(const std::vector<int32_t>& s, const std::vector<int32_t>& out, size_t i) {
  size_t idx = 0, stride = 1;
  for (size_t k = 0; k < out.size(); ++k) {
    const size_t d = out.size() - 1 - k;
    const size_t coord = i % size_t(out[d]);
    i /= size_t(out[d]);
    if (k < s.size()) {
      const size_t sd = s.size() - 1 - k;
      if (s[sd] != 1) idx += coord * stride;
      stride *= size_t(s[sd]);
    }
  }
  return idx;
}

float expected(Op op, float x, float y, float alpha) {
  volatile float p = alpha * y;  // rounded on its own, as the kernels do
  switch (op) {
    case Op::Add: return x + p;
    case Op::Sub: return x - p;
    case Op::Mul: return x * y;
    case Op::Div: return x / y;
  }
  return 0.0f;
}

void check(Op op, const std::vector<int32_t>& as, const std::vector<int32_t>& bs,
           const std::vector<int32_t>& os, bool neon_expected) {
  auto a = make(ScalarType::Float, as, values(numel(as), 1.0));
  auto b = make(ScalarType::Float, bs, values(numel(bs), -0.5));
  TestTensor out(ScalarType::Float, os);
  const double alpha = 2.5;
  runtime::KernelRuntimeContext ctx;
  const uint64_t before = neon_path_calls(NeonPath::Binary);
  switch (op) {
    case Op::Add: add_out(ctx, a->t(), b->t(), Scalar(alpha), out.t()); break;
    case Op::Sub: sub_out(ctx, a->t(), b->t(), Scalar(alpha), out.t()); break;
    case Op::Mul: mul_out(ctx, a->t(), b->t(), out.t()); break;
    case Op::Div: div_out(ctx, a->t(), b->t(), out.t()); break;
  }
  ASSERT_EQ(ctx.failure_state(), runtime::Error::Ok);
  const std::vector<double> av = a->get(), bv = b->get(), got = out.get();
  ASSERT_EQ(got.size(), numel(os));
  for (size_t i = 0; i < got.size(); ++i) {
    const float want = expected(op, float(av[source_index(as, os, i)]),
                                float(bv[source_index(bs, os, i)]), float(alpha));
    const float g = float(got[i]);
    ASSERT_EQ(0, std::memcmp(&g, &want, sizeof(g)))
        << "op " << int(op) << " element " << i << ": " << g << " vs " << want;
  }
#if defined(__aarch64__)
  EXPECT_EQ(neon_path_calls(NeonPath::Binary), before + (neon_expected ? 1 : 0))
      << "op " << int(op) << (neon_expected ? ": NEON path not taken" : ": NEON path taken");
#else
  (void)neon_expected;
  EXPECT_EQ(neon_path_calls(NeonPath::Binary), before);
#endif
}

TEST(BinaryNeon, BroadcastShapesMatchTheDefinition) {
  const std::vector<int32_t> full = {2, 3, 5, 7};  // 210 elements: vectors and tails
  const std::vector<std::vector<int32_t>> parts = {
      {2, 3, 5, 7}, {}, {1}, {7}, {5, 7}, {1, 3, 1, 1}, {2, 3, 1, 1}, {3, 1, 1}, {1, 1, 5, 1}};
  for (Op op : {Op::Add, Op::Sub, Op::Mul, Op::Div}) {
    for (const auto& p : parts) {
      check(op, full, p, full, true);
      check(op, p, full, full, true);  // the broadcast operand first
    }
  }
}

TEST(BinaryNeon, BothOperandsBroadcastTakeTheGenericLoop) {
  for (Op op : {Op::Add, Op::Sub, Op::Mul, Op::Div}) {
    check(op, {2, 1, 5, 1}, {1, 3, 1, 7}, {2, 3, 5, 7}, false);
  }
}

}  // namespace
}  // namespace ember::kernels::portable
