// A depthwise convolution with more than 25 taps (ConvNeXt's 7x7) is serialized as four
// depthwise convolutions over its kernel's quadrants plus three adds (serialize_ops_nn.cc:
// XNNPACK 2024-11 has no f32 depthwise kernel past 25 taps and would run a grouped GEMM). The
// blob is run by XnnpackBackend and compared with a direct convolution computed here in double,
// for same padding at strides 1 and 2, asymmetric-free valid padding (not split), and 5x5
// (25 taps: one node).
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "aot/ir/testing/graph_builder.h"
#include "backends/xnnpack/aot/dq_linear_blob.h"
#include "backends/xnnpack/aot/xnnpack_partitioner.h"
#include "backends/xnnpack/runtime/xnnpack_backend.h"
#include "backends/xnnpack/schema/xnnpack_graph_generated.h"
#include "backends/xnnpack/runtime/xnnpack_header.h"
#include "runtime/core/diagnostics.h"
#include "runtime/core/memory_allocator.h"

namespace ember::backends::xnnpack {
namespace {

namespace fb = fb_xnnpack;
using aot::Argument;
using aot::testing::GraphBuilder;

struct Conv {
  int c, h, w, k, stride, pad;
  int out_h() const { return (h + 2 * pad - k) / stride + 1; }
  int out_w() const { return (w + 2 * pad - k) / stride + 1; }
};

// out[c][y][x] = bias[c] + sum_{i,j} w[c][i][j] in[c][s y + i - p][s x + j - p] (zero outside).
std::vector<float> reference(const Conv& v, const std::vector<float>& in, const std::vector<float>& w,
                             const std::vector<float>& bias) {
  std::vector<float> out(size_t(v.c) * v.out_h() * v.out_w());
  for (int c = 0; c < v.c; ++c)
    for (int y = 0; y < v.out_h(); ++y)
      for (int x = 0; x < v.out_w(); ++x) {
        double acc = bias[c];
        for (int i = 0; i < v.k; ++i)
          for (int j = 0; j < v.k; ++j) {
            const int yy = v.stride * y + i - v.pad, xx = v.stride * x + j - v.pad;
            if (yy < 0 || yy >= v.h || xx < 0 || xx >= v.w) continue;
            acc += double(w[(c * v.k + i) * v.k + j]) * in[(c * v.h + yy) * v.w + xx];
          }
        out[(c * v.out_h() + y) * v.out_w() + x] = float(acc);
      }
  return out;
}

struct Serialized {
  std::vector<uint8_t> blob;
  int convs = 0, adds = 0;
};

Serialized serialize(const Conv& v, const std::vector<float>& w, const std::vector<float>& bias) {
  GraphBuilder b;
  auto weight = b.parameter("w", {v.c, 1, v.k, v.k}, w);
  auto bias_v = b.parameter("b", {v.c}, bias);
  auto x = b.input("x", {1, v.c, v.h, v.w});
  auto y = b.op("aten::convolution.default", {{"input", x}, {"weight", weight}, {"bias", bias_v}},
                "conv", {1, v.c, v.out_h(), v.out_w()},
                {{"stride", Argument::int_list({v.stride, v.stride}), true},
                 {"padding", Argument::int_list({v.pad, v.pad}), true},
                 {"dilation", Argument::int_list({1, 1}), true},
                 {"transposed", Argument::boolean(false), true},
                 {"output_padding", Argument::int_list({0, 0}), true},
                 {"groups", Argument::integer(v.c), true}});
  b.output(y);
  Serialized s;
  auto blob = serialize_to_xnnpack(b.graph(), ConstantPlacement::Inline);
  EXPECT_TRUE(blob.ok()) << aot::format_error(blob.error());
  if (!blob.ok()) return s;
  s.blob = blob->bytes;
  auto header = parse_xnnpack_header(s.blob.data(), s.blob.size());
  EXPECT_TRUE(header.ok());
  if (!header.ok()) return s;
  const auto* g = fb::GetXNNGraph(s.blob.data() + header->flatbuffer_offset);
  for (const fb::XNode* n : *g->xnodes()) {
    s.convs += n->xnode_union_type() == fb::XNodeUnion::XNNConv2d;
    s.adds += n->xnode_union_type() == fb::XNodeUnion::XNNAdd;
  }
  return s;
}

std::vector<float> run(const Conv& v, const std::vector<uint8_t>& blob, std::vector<float> in) {
  std::vector<uint8_t> arena(1 << 22);
  runtime::MemoryAllocator allocator(arena.data(), arena.size());
  runtime::BackendInitContext ictx(&allocator, "forward", nullptr);
  runtime::FreeableBuffer buffer(blob.data(), blob.size());
  auto h = backend_instance().init(ictx, &buffer, {});
  EXPECT_TRUE(h.ok()) << runtime::last_error_message();
  if (!h.ok()) return {};
  int32_t sin[4] = {1, v.c, v.h, v.w}, sout[4] = {1, v.c, v.out_h(), v.out_w()}, st[2][4];
  uint8_t order[4] = {0, 1, 2, 3};
  in.resize(in.size() + 64, 0.f);  // XNNPACK may read past the end
  std::vector<float> out(size_t(v.c) * v.out_h() * v.out_w(), NAN);
  runtime::Tensor tin(runtime::ScalarType::Float, 4, sin, order, st[0], in.data());
  runtime::Tensor tout(runtime::ScalarType::Float, 4, sout, order, st[1], out.data());
  runtime::EValue ein(&tin), eout(&tout);
  runtime::EValue* args[] = {&ein, &eout};
  runtime::BackendExecutionContext ectx(nullptr, "forward", nullptr);
  EXPECT_EQ(backend_instance().execute(ectx, h.get(), {args, 2}), runtime::Error::Ok)
      << runtime::last_error_message();
  backend_instance().destroy(h.get());
  return out;
}

void check(const Conv& v, int want_convs, int want_adds) {
  const std::vector<float> w = pseudo_random(size_t(v.c) * v.k * v.k, 7);
  const std::vector<float> bias = pseudo_random(size_t(v.c), 11);
  const std::vector<float> in = pseudo_random(size_t(v.c) * v.h * v.w, 13);
  const Serialized s = serialize(v, w, bias);
  EXPECT_EQ(s.convs, want_convs);
  EXPECT_EQ(s.adds, want_adds);
  const std::vector<float> got = run(v, s.blob, in), want = reference(v, in, w, bias);
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) EXPECT_NEAR(got[i], want[i], 1e-5) << i;
}

TEST(DepthwiseSplit, SevenBySevenSamePadding) { check({24, 9, 11, 7, 1, 3}, 4, 3); }
TEST(DepthwiseSplit, SevenBySevenStride2) { check({17, 12, 9, 7, 2, 3}, 4, 3); }
TEST(DepthwiseSplit, NineByNine) { check({16, 10, 10, 9, 1, 4}, 4, 3); }
// Valid padding cannot be split with non-negative padding: one node, XNNPACK's own fallback.
TEST(DepthwiseSplit, ValidPaddingStaysWhole) { check({8, 10, 10, 7, 1, 0}, 1, 0); }
TEST(DepthwiseSplit, FiveByFiveStaysWhole) { check({8, 10, 10, 5, 1, 2}, 1, 0); }

}  // namespace
}  // namespace ember::backends::xnnpack
