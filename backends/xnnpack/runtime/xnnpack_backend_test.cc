// XnnpackBackend on hand-written graphs with hand-computed results: constants
// from the blob and from named data, layout and math nodes new in XNNPACK 2024 (transpose,
// concatenate, slice, tanh, batch matmul), bounded dynamic shapes (a runtime per shape, bounded
// cache), channels-last dim_order, thread options, registration and execute errors, and
// scaled-dot-product attention against a double-precision reference.
#include "backends/xnnpack/runtime/xnnpack_backend.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "backends/xnnpack/runtime/test_delegate.h"
#include "backends/xnnpack/runtime/test_graphs.h"
#include "backends/xnnpack/runtime/xnnpack_executor.h"
#include "runtime/core/diagnostics.h"

namespace ember::backends::xnnpack::testing {
namespace {

using runtime::Error;

TEST(XnnpackBackend, AddsBlobConstant) {
  GraphBuilder g;
  const uint32_t x = g.tensor({2}, kIn, 0);
  const uint32_t c = g.constant({2}, {10.f, 20.f});
  g.node_2x1(XNodeUnion::XNNAdd, x, c, g.tensor({2}, kOut, 1));
  Delegate d(g);
  ASSERT_EQ(d.init_error(), Error::Ok) << runtime::last_error_message();
  HeapTensor in({2}, {1.f, 2.f}), out({2});
  ASSERT_EQ(d.run({&in, &out}), Error::Ok) << runtime::last_error_message();
  EXPECT_EQ(out.f()[0], 11.f);
  EXPECT_EQ(out.f()[1], 22.f);
}

TEST(XnnpackBackend, FullyConnectedFromNamedData) {
  // y = x W^T + b with W = [[1,2,3],[0,-1,1]], b = [0.5, -2]; x = [1, 1, 2].
  GraphBuilder g;
  const uint32_t x = g.tensor({1, 3}, kIn, 0);
  const uint32_t w = g.constant({2, 3}, {1, 2, 3, 0, -1, 1}, "weight_key");
  const uint32_t b = g.constant({2}, {0.5f, -2.f}, "bias_key");
  g.fully_connected(x, w, b, g.tensor({1, 2}, kOut, 1));
  MapDataMap named;
  const float wv[] = {1, 2, 3, 0, -1, 1}, bv[] = {0.5f, -2.f};
  named.entries["weight_key"].assign(reinterpret_cast<const uint8_t*>(wv),
                                     reinterpret_cast<const uint8_t*>(wv) + sizeof(wv));
  named.entries["bias_key"].assign(reinterpret_cast<const uint8_t*>(bv),
                                   reinterpret_cast<const uint8_t*>(bv) + sizeof(bv));
  Delegate d(g, &named);
  ASSERT_EQ(d.init_error(), Error::Ok) << runtime::last_error_message();
  HeapTensor in({1, 3}, {1, 1, 2}), out({1, 2});
  ASSERT_EQ(d.run({&in, &out}), Error::Ok) << runtime::last_error_message();
  EXPECT_FLOAT_EQ(out.f()[0], 1 + 2 + 6 + 0.5f);
  EXPECT_FLOAT_EQ(out.f()[1], 0 - 1 + 2 - 2.f);
}

TEST(XnnpackBackend, TransposeConcatSliceTanhAreXnnpackNodes) {
  // a = x + x -> t = transpose(a) -> cat(t, t) axis 1 -> s = slice(cat) -> u = tanh(s) ->
  // out = u * u, all XNNPACK nodes of one runtime.
  GraphBuilder g = internal_chain_graph();
  Delegate d(g);
  ASSERT_EQ(d.init_error(), Error::Ok) << runtime::last_error_message();
  const std::vector<float> xv = {0.1f, 0.2f, 0.3f, -0.1f, -0.2f, -0.3f};
  HeapTensor in({2, 3}, xv), out({2, 3});
  ASSERT_EQ(d.run({&in, &out}), Error::Ok) << runtime::last_error_message();
  // a = 2x; t[i][j] = a[j][i]; cat rows = [t_i0, t_i1, t_i0, t_i1]; s = cat[1:3, 1:4].
  float tt[3][2], c[3][4];
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 2; ++j) tt[i][j] = 2 * xv[j * 3 + i];
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 4; ++j) c[i][j] = tt[i][j % 2];
  for (int i = 0; i < 2; ++i) {
    for (int j = 0; j < 3; ++j) {
      const float v = std::tanh(c[i + 1][j + 1]);
      EXPECT_NEAR(out.f()[i * 3 + j], v * v, 1e-6) << i << "," << j;
    }
  }
}

TEST(XnnpackBackend, BatchMatmul) {
  GraphBuilder g;
  const uint32_t a = g.tensor({2, 1, 2}, kIn, 0), b = g.tensor({2, 2, 1}, kIn, 1);
  g.node_2x1(XNodeUnion::XNNBatchMatrixMultiply, a, b, g.tensor({2, 1, 1}, kOut, 2));
  Delegate d(g);
  ASSERT_EQ(d.init_error(), Error::Ok) << runtime::last_error_message();
  HeapTensor x({2, 1, 2}, {1, 2, 3, 4}), w({2, 2, 1}, {5, 6, 7, 8}), out({2, 1, 1});
  ASSERT_EQ(d.run({&x, &w, &out}), Error::Ok) << runtime::last_error_message();
  EXPECT_EQ(out.f()[0], 1 * 5 + 2 * 6);
  EXPECT_EQ(out.f()[1], 3 * 7 + 4 * 8);
}

// Wide enough for the kernel's 8-column blocks and a tail: x[b][i][p] = b + i + p + 1,
// w[b][p][j] = j - p (batch 2, M 2, K 3, N 11), so y[b][i][j] = sum_p (b+i+p+1) * (j-p),
// integers well inside float's exact range.
TEST(XnnpackBackend, BatchMatmulBlocksAndTail) {
  const int B = 2, M = 2, K = 3, N = 11;
  GraphBuilder g;
  const uint32_t a = g.tensor({B, M, K}, kIn, 0), b = g.tensor({B, K, N}, kIn, 1);
  g.node_2x1(XNodeUnion::XNNBatchMatrixMultiply, a, b, g.tensor({B, M, N}, kOut, 2));
  Delegate d(g);
  ASSERT_EQ(d.init_error(), Error::Ok) << runtime::last_error_message();
  std::vector<float> xv, wv;
  for (int bb = 0; bb < B; ++bb)
    for (int i = 0; i < M; ++i)
      for (int p = 0; p < K; ++p) xv.push_back(float(bb + i + p + 1));
  for (int bb = 0; bb < B; ++bb)
    for (int p = 0; p < K; ++p)
      for (int j = 0; j < N; ++j) wv.push_back(float(j - p));
  HeapTensor x({B, M, K}, xv), w({B, K, N}, wv), out({B, M, N});
  ASSERT_EQ(d.run({&x, &w, &out}), Error::Ok) << runtime::last_error_message();
  for (int bb = 0; bb < B; ++bb) {
    for (int i = 0; i < M; ++i) {
      for (int j = 0; j < N; ++j) {
        int want = 0;
        for (int p = 0; p < K; ++p) want += (bb + i + p + 1) * (j - p);
        EXPECT_EQ(out.f()[(bb * M + i) * N + j], float(want)) << bb << "," << i << "," << j;
      }
    }
  }
}

// Large enough per batch (32x32x32 multiply-adds) for the GEMM path: x all 1, w[p][j] = j,
// so y[i][j] = 32 j.
TEST(XnnpackBackend, BatchMatmulLargeProducts) {
  GraphBuilder g;
  const uint32_t a = g.tensor({2, 32, 32}, kIn, 0), b = g.tensor({32, 32}, kIn, 1);
  g.node_2x1(XNodeUnion::XNNBatchMatrixMultiply, a, b, g.tensor({2, 32, 32}, kOut, 2));
  Delegate d(g);
  ASSERT_EQ(d.init_error(), Error::Ok) << runtime::last_error_message();
  std::vector<float> wv;
  for (int p = 0; p < 32; ++p)
    for (int j = 0; j < 32; ++j) wv.push_back(float(j));
  HeapTensor x({2, 32, 32}, std::vector<float>(2 * 32 * 32, 1.f)), w({32, 32}, wv),
      out({2, 32, 32});
  ASSERT_EQ(d.run({&x, &w, &out}), Error::Ok) << runtime::last_error_message();
  for (int i = 0; i < 2 * 32; ++i) {
    for (int j = 0; j < 32; ++j) ASSERT_EQ(out.f()[i * 32 + j], 32.f * j) << i << "," << j;
  }
}

// softmax((q * scale) . k^T + mask) . v per head, in double: the reference for XNNPACK's
// attention. q [H, T, C]; k/v [H or 1 (multi-query), U, C or D]; mask [T, U].
std::vector<float> attention_reference(const std::vector<float>& q, const std::vector<float>& k,
                                       const std::vector<float>& v, const std::vector<float>& scale,
                                       const std::vector<float>& mask, int H, int T, int U, int C,
                                       int D, bool multi_query) {
  std::vector<float> out(size_t(H) * T * D);
  for (int h = 0; h < H; ++h) {
    const int kh = multi_query ? 0 : h;
    for (int t = 0; t < T; ++t) {
      std::vector<double> logit(U);
      double top = -INFINITY;
      for (int u = 0; u < U; ++u) {
        double dot = 0;
        for (int c = 0; c < C; ++c)
          dot += double(q[(h * T + t) * C + c]) * scale[c] * k[(kh * U + u) * C + c];
        logit[u] = dot + mask[t * U + u];
        top = std::max(top, logit[u]);
      }
      double sum = 0;
      for (double& l : logit) sum += (l = std::exp(l - top));
      for (int e = 0; e < D; ++e) {
        double acc = 0;
        for (int u = 0; u < U; ++u) acc += logit[u] / sum * v[(kh * U + u) * D + e];
        out[(h * T + t) * D + e] = float(acc);
      }
    }
  }
  return out;
}

std::vector<float> ramp(size_t n, float step, float offset) {
  std::vector<float> r(n);
  for (size_t i = 0; i < n; ++i) r[i] = std::sin(float(i) * step + offset);
  return r;
}

// Upstream's XNNPACK payloads may hold XNNScaledDotProductAttention: XNNPACK 2024's own
// operator runs it. Multi-head, batch 1, a per-channel scale (a constant, as upstream writes
// it) and a causal mask given as an input (-inf above the diagonal).
TEST(XnnpackBackend, ScaledDotProductAttentionMultiHead) {
  const int H = 2, T = 3, U = 5, C = 4, D = 3;
  const std::vector<float> scale = {0.5f, 0.25f, 1.f, 0.5f};
  GraphBuilder g;
  const uint32_t q = g.tensor({1, H, T, C}, kIn, 0), k = g.tensor({1, H, U, C}, kIn, 1);
  const uint32_t v = g.tensor({1, H, U, D}, kIn, 2), mask = g.tensor({T, U}, kIn, 3);
  g.sdpa(q, k, v, g.constant({C}, scale), mask, g.tensor({1, H, T, D}, kOut, 4));
  Delegate d(g);
  ASSERT_EQ(d.init_error(), Error::Ok) << runtime::last_error_message();
  const std::vector<float> qv = ramp(H * T * C, 0.7f, 0.1f), kv = ramp(H * U * C, 1.3f, 0.4f),
                           vv = ramp(H * U * D, 0.9f, 2.f);
  std::vector<float> mv(T * U, 0.f);
  for (int t = 0; t < T; ++t)
    for (int u = t + 3; u < U; ++u) mv[t * U + u] = -INFINITY;
  HeapTensor qt({1, H, T, C}, qv), kt({1, H, U, C}, kv), vt({1, H, U, D}, vv), mt({T, U}, mv);
  HeapTensor out({1, H, T, D});
  ASSERT_EQ(d.run({&qt, &kt, &vt, &mt, &out}), Error::Ok) << runtime::last_error_message();
  const std::vector<float> want = attention_reference(qv, kv, vv, scale, mv, H, T, U, C, D, false);
  for (size_t i = 0; i < want.size(); ++i) EXPECT_NEAR(out.f()[i], want[i], 1e-5) << i;
  // The mask matters: row 0 sees 3 of 5 keys. Without it the first output differs.
  const std::vector<float> open =
      attention_reference(qv, kv, vv, scale, std::vector<float>(T * U, 0.f), H, T, U, C, D, false);
  EXPECT_GT(std::fabs(open[0] - want[0]), 1e-3);
}

// Multi-query: key and value have no heads dim (one head shared by every query head); no
// batch dims; a constant all-zero mask.
TEST(XnnpackBackend, ScaledDotProductAttentionMultiQuery) {
  const int H = 3, T = 2, U = 4, C = 2, D = 5;
  const std::vector<float> scale(C, 0.7f), mask(T * U, 0.f);
  GraphBuilder g;
  const uint32_t q = g.tensor({H, T, C}, kIn, 0), k = g.tensor({U, C}, kIn, 1);
  const uint32_t v = g.tensor({U, D}, kIn, 2);
  g.sdpa(q, k, v, g.constant({C}, scale), g.constant({T, U}, mask), g.tensor({H, T, D}, kOut, 3));
  Delegate d(g);
  ASSERT_EQ(d.init_error(), Error::Ok) << runtime::last_error_message();
  const std::vector<float> qv = ramp(H * T * C, 0.5f, 0.f), kv = ramp(U * C, 1.1f, 1.f),
                           vv = ramp(U * D, 0.3f, -1.f);
  HeapTensor qt({H, T, C}, qv), kt({U, C}, kv), vt({U, D}, vv), out({H, T, D});
  ASSERT_EQ(d.run({&qt, &kt, &vt, &out}), Error::Ok) << runtime::last_error_message();
  const std::vector<float> want = attention_reference(qv, kv, vv, scale, mask, H, T, U, C, D, true);
  for (size_t i = 0; i < want.size(); ++i) EXPECT_NEAR(out.f()[i], want[i], 1e-5) << i;
}

// Shapes XNNPACK's attention cannot take are named errors at init, before any xnn_define.
TEST(XnnpackBackend, ScaledDotProductAttentionShapeErrorsAreNamed) {
  struct Case {
    std::vector<uint32_t> k, scale, mask;
    const char* message;
  } cases[] = {
      {{1, 2, 5, 4}, {4}, {3, 4}, "mask must be [query tokens, key tokens]"},
      {{1, 2, 5, 4}, {3}, {3, 5}, "scale must be [query channels]"},
      {{1, 2, 5, 3}, {4}, {3, 5}, "key channels differ from the query's"},
      {{1, 1, 5, 4}, {4}, {3, 5}, "key/value heads differ from the query's"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.message);
    GraphBuilder g;
    const uint32_t q = g.tensor({1, 2, 3, 4}, kIn, 0), k = g.tensor(c.k, kIn, 1);
    std::vector<uint32_t> vdims = c.k;
    vdims.back() = 3;
    const uint32_t v = g.tensor(vdims, kIn, 2), mask = g.tensor(c.mask, kIn, 3);
    g.sdpa(q, k, v, g.constant(c.scale, std::vector<float>(c.scale[0], 1.f)), mask,
           g.tensor({1, 2, 3, 3}, kOut, 4));
    Delegate d(g);
    EXPECT_EQ(d.init_error(), Error::InvalidArgument);
    EXPECT_NE(std::string(runtime::last_error_message()).find(c.message), std::string::npos)
        << runtime::last_error_message();
  }
}

TEST(XnnpackBackend, BoundedDynamicShapesCachePlans) {
  GraphBuilder g;
  const uint32_t x = g.tensor({8}, kIn, 0);
  const uint32_t c = g.constant({1}, {3.f});
  g.node_2x1(XNodeUnion::XNNMultiply, x, c, g.tensor({8}, kOut, 1));
  Delegate d(g);
  ASSERT_EQ(d.init_error(), Error::Ok) << runtime::last_error_message();
  for (int n : {8, 3, 5, 1, 7, 2, 3}) {
    SCOPED_TRACE(n);
    HeapTensor in({8}), out({8});
    const int32_t size = n;
    ASSERT_EQ(in.tensor.resize(runtime::Span<const int32_t>(&size, 1)), Error::Ok);
    for (int i = 0; i < n; ++i) in.data[i] = float(i + 1);
    ASSERT_EQ(d.run({&in, &out}), Error::Ok) << runtime::last_error_message();
    ASSERT_EQ(out.tensor.size(0), n);
    for (int i = 0; i < n; ++i) EXPECT_EQ(out.f()[i], 3.f * (i + 1));
    EXPECT_LE(d.executor()->num_cached_plans(), kMaxCachedPlans);
  }
  HeapTensor big({9}), out({9});
  EXPECT_EQ(d.run({&big, &out}), Error::InvalidArgument);
  EXPECT_NE(std::string(runtime::last_error_message()).find("larger than the graph's bound 8"),
            std::string::npos);
}

TEST(XnnpackBackend, PlansForEveryShapeShareOnePackedWeight) {
  // y = x W^T + b with a dynamic row count: each new row count builds a plan (a runtime per shape
  // in this XNNPACK), but W is packed once and every later plan finds it in the cache.
  GraphBuilder g;
  const uint32_t x = g.tensor({4, 3}, kIn, 0);
  const uint32_t w = g.constant({2, 3}, {1, 2, 3, 0, -1, 1}, "weight_key");
  const uint32_t b = g.constant({2}, {0.5f, -2.f});
  g.fully_connected(x, w, b, g.tensor({4, 2}, kOut, 1));
  MapDataMap named;
  const float wv[] = {1, 2, 3, 0, -1, 1};
  named.entries["weight_key"].assign(reinterpret_cast<const uint8_t*>(wv),
                                     reinterpret_cast<const uint8_t*>(wv) + sizeof(wv));
  Delegate d(g, &named);
  ASSERT_EQ(d.init_error(), Error::Ok) << runtime::last_error_message();
  const PackedWeightsCache& cache = d.executor()->packed_weights();
  EXPECT_EQ(cache.num_entries(), 1u);
  const size_t packed = cache.packed_bytes();
  EXPECT_GE(packed, sizeof(wv));
  for (int rows : {1, 3, 2, 1}) {
    SCOPED_TRACE(rows);
    HeapTensor in({4, 3}), out({4, 2});
    const int32_t in_sizes[] = {rows, 3};
    ASSERT_EQ(in.tensor.resize(runtime::Span<const int32_t>(in_sizes, 2)), Error::Ok);
    for (int i = 0; i < rows * 3; ++i) in.data[i] = float(i + 1);
    ASSERT_EQ(d.run({&in, &out}), Error::Ok) << runtime::last_error_message();
    for (int i = 0; i < rows; ++i) {
      const float* r = in.data.data() + i * 3;
      EXPECT_FLOAT_EQ(out.f()[i * 2], r[0] + 2 * r[1] + 3 * r[2] + 0.5f);
      EXPECT_FLOAT_EQ(out.f()[i * 2 + 1], -r[1] + r[2] - 2.f);
    }
  }
  EXPECT_EQ(d.executor()->num_cached_plans(), 3u);  // rows 1, 3, 2 (the bounds plan is dropped)
  EXPECT_EQ(cache.num_entries(), 1u);
  EXPECT_EQ(cache.packed_bytes(), packed);
  EXPECT_GE(cache.hits(), 3u);
}

// x [n <= 1024] -> a = x * k (internal, in the workspace) -> out = a + 1.
TEST(XnnpackBackend, ChannelsLastTensorsArePermutedByDimOrder) {
  // The graph adds a per-channel bias to an NHWC [1,2,2,3] tensor; the caller's
  // tensors are NCHW-sized [1,3,2,2] with dim_order (0,2,3,1), i.e. NHWC memory.
  GraphBuilder g;
  const uint32_t x = g.tensor({1, 2, 2, 3}, kIn, 0);
  const uint32_t bias = g.constant({3}, {100.f, 200.f, 300.f});
  g.node_2x1(XNodeUnion::XNNAdd, x, bias, g.tensor({1, 2, 2, 3}, kOut, 1));
  Delegate d(g);
  ASSERT_EQ(d.init_error(), Error::Ok) << runtime::last_error_message();
  std::vector<float> xv(12);
  for (int i = 0; i < 12; ++i) xv[i] = float(i);
  HeapTensor in({1, 3, 2, 2}, xv, {0, 2, 3, 1}), out({1, 3, 2, 2}, {}, {0, 2, 3, 1});
  ASSERT_EQ(d.run({&in, &out}), Error::Ok) << runtime::last_error_message();
  EXPECT_EQ(out.tensor.size(1), 3);  // logical sizes stay NCHW
  for (int i = 0; i < 12; ++i) EXPECT_EQ(out.f()[i], float(i) + 100.f * float(i % 3 + 1));
}

TEST(XnnpackBackend, ExecuteErrorsAreNamed) {
  GraphBuilder g;
  const uint32_t x = g.tensor({2}, kIn, 0);
  g.node_1x1(XNodeUnion::XNNAbs, x, g.tensor({2}, kOut, 1));
  Delegate d(g);
  ASSERT_EQ(d.init_error(), Error::Ok) << runtime::last_error_message();
  HeapTensor in({2}, {-1, 2}), out({2});
  EXPECT_EQ(d.run({&in}), Error::InvalidArgument);
  EXPECT_NE(std::string(runtime::last_error_message()).find("1 arguments, the graph has 2"),
            std::string::npos);
  HeapTensor wrong_rank({2, 1});
  EXPECT_EQ(d.run({&in, &wrong_rank}), Error::Ok);  // same element count: accepted
  HeapTensor too_big({3});
  EXPECT_NE(d.run({&too_big, &out}), Error::Ok);
  ASSERT_EQ(d.run({&in, &out}), Error::Ok);
  EXPECT_EQ(out.f()[0], 1.f);
}

TEST(XnnpackBackend, ThreadsAndRegistration) {
  EXPECT_EQ(set_num_threads(0), Error::InvalidArgument);
  ASSERT_EQ(set_num_threads(2), Error::Ok);
  set_min_parallel_work(0);  // this 64-element add runs on the pool (and under TSan)
  {
    GraphBuilder g;
    const uint32_t x = g.tensor({64}, kIn, 0);
    g.node_2x1(XNodeUnion::XNNAdd, x, x, g.tensor({64}, kOut, 1));
    Delegate d(g);
    ASSERT_EQ(d.init_error(), Error::Ok);
    HeapTensor in({64}, std::vector<float>(64, 1.5f)), out({64});
    ASSERT_EQ(d.run({&in, &out}), Error::Ok);
    EXPECT_EQ(out.f()[63], 3.f);
    EXPECT_EQ(d.executor()->num_parallel_stages(), 1u);
  }
  set_min_parallel_work(kDefaultMinParallelWork);
  ASSERT_EQ(set_num_threads(1), Error::Ok);
  runtime::BackendRegistry registry;
  ASSERT_EQ(register_backend(registry), Error::Ok);
  EXPECT_EQ(register_backend(registry), Error::RegistrationAlreadyRegistered);
  auto found = registry.find("XnnpackBackend");
  ASSERT_TRUE(found.ok());
  EXPECT_TRUE(found.get()->is_available());
}

}  // namespace
}  // namespace ember::backends::xnnpack::testing

namespace ember::backends::xnnpack::testing {
namespace {

TEST(XnnpackBackend, ChannelwiseQuantizedConvWithScalesFromNamedData) {
  // fp32 x[1,1,1,2] -> convert to qint8 (scale 1) -> 1x1 conv with qcint8
  // weights [[1,2],[4,-4]] (scales 0.5, 0.25) and qcint32 bias [2,4] (scales
  // 0.5, 0.25, i.e. 1.0 each) -> qint8 (scale 1) -> convert to fp32.
  // x = [2,3]: ch0 = 0.5*(2+6)+1 = 5, ch1 = 0.25*(8-12)+1 = 0.
  GraphBuilder g;
  const auto qs8 = XNNDatatype::xnn_datatype_qint8;
  const uint32_t x = g.tensor({1, 1, 1, 2}, kIn, 0);
  const uint32_t qx = g.quantized({1, 1, 1, 2}, qs8, 1.f, 0);
  const std::vector<uint8_t> w = {1, 2, 4, uint8_t(-4)};
  const int32_t bias_values[] = {2, 4};
  const std::vector<uint8_t> b(reinterpret_cast<const uint8_t*>(bias_values),
                               reinterpret_cast<const uint8_t*>(bias_values) + 8);
  const uint32_t wq =
      g.per_channel_constant({2, 1, 1, 2}, XNNDatatype::xnn_datatype_qcint8, w, "scale_w", 2);
  const uint32_t bq =
      g.per_channel_constant({2}, XNNDatatype::xnn_datatype_qcint32, b, "scale_b", 2);
  const uint32_t qy = g.quantized({1, 1, 1, 2}, qs8, 1.f, 0);
  g.node_1x1(XNodeUnion::XNNConvert, x, qx);
  g.conv2d(1, 0, 2, 2, qx, wq, bq, qy);
  g.node_1x1(XNodeUnion::XNNConvert, qy, g.tensor({1, 1, 1, 2}, kOut, 1));
  MapDataMap named;
  const float ws[] = {0.5f, 0.25f};
  const float bs[] = {0.5f, 0.25f};
  named.entries["scale_w"].assign(reinterpret_cast<const uint8_t*>(ws),
                                  reinterpret_cast<const uint8_t*>(ws) + sizeof(ws));
  named.entries["scale_b"].assign(reinterpret_cast<const uint8_t*>(bs),
                                  reinterpret_cast<const uint8_t*>(bs) + sizeof(bs));
  Delegate d(g, &named);
  ASSERT_EQ(d.init_error(), Error::Ok) << runtime::last_error_message();
  HeapTensor in({1, 1, 1, 2}, {2.f, 3.f}), out({1, 1, 1, 2});
  ASSERT_EQ(d.run({&in, &out}), Error::Ok) << runtime::last_error_message();
  EXPECT_EQ(out.f()[0], 5.f);
  EXPECT_EQ(out.f()[1], 0.f);
}

}  // namespace
}  // namespace ember::backends::xnnpack::testing

namespace ember::backends::xnnpack::testing {
namespace {

TEST(XnnpackBackend, LegacyBlobReadsDeprecatedConstantBuffer) {
  // No XH00 header: constants come from XNNGraph.constant_buffer[idx].storage.
  GraphBuilder g;
  const uint32_t x = g.tensor({2}, kIn, 0);
  const uint32_t c = g.tensor({2});
  g.graph.xvalues[c]->xvalue_union.AsXNNTensorValue()->constant_buffer_idx = 1;
  g.graph.constant_buffer.push_back(std::make_unique<fb_xnnpack::BufferT>());
  auto buffer = std::make_unique<fb_xnnpack::BufferT>();
  const float values[] = {10.f, 20.f};
  buffer->storage.assign(reinterpret_cast<const uint8_t*>(values),
                         reinterpret_cast<const uint8_t*>(values) + sizeof(values));
  g.graph.constant_buffer.push_back(std::move(buffer));
  g.node_2x1(XNodeUnion::XNNAdd, x, c, g.tensor({2}, kOut, 1));
  const std::vector<uint8_t> blob = g.blob(/*header=*/false);
  std::vector<uint8_t> arena(1 << 16);
  runtime::MemoryAllocator allocator(arena.data(), arena.size());
  runtime::BackendInitContext ctx(&allocator, "forward", nullptr);
  runtime::FreeableBuffer processed(blob.data(), blob.size());
  auto handle = backend_instance().init(ctx, &processed, {});
  ASSERT_TRUE(handle.ok()) << runtime::last_error_message();
  HeapTensor in({2}, {1.f, 2.f}), out({2});
  runtime::EValue* args[] = {&in.value, &out.value};
  runtime::BackendExecutionContext exec_ctx(nullptr, "forward", nullptr);
  ASSERT_EQ(backend_instance().execute(exec_ctx, handle.get(), {args, 2}), Error::Ok);
  EXPECT_EQ(out.f()[0], 11.f);
  EXPECT_EQ(out.f()[1], 22.f);
  backend_instance().destroy(handle.get());
}

// Found by xnnpack_blob_fuzz: a conv whose groups field disagrees with its filter's dims
// made XNNPACK pack groups * out * kh * kw * in floats from a 54-float constant (a read
// past the blob). The filter, bias and input channels must now match the parameters.
TEST(XnnpackBackend, ConvOperandShapesMustMatchParameters) {
  const auto conv = [](uint32_t groups, uint32_t bias_len, uint32_t in_channels) {
    GraphBuilder g;
    const uint32_t x = g.tensor({1, 4, 4, in_channels}, kIn, 0);
    const uint32_t w = g.constant({3, 3, 3, 2}, std::vector<float>(54, 0.1f));
    const uint32_t b = g.constant({bias_len}, std::vector<float>(bias_len, 0.f));
    g.conv2d(3, 1, 2, 3, x, w, b, g.tensor({1, 4, 4, 3}, kOut, 1));
    g.graph.xnodes.back()->xnode_union.AsXNNConv2d()->groups = groups;
    return g;
  };
  EXPECT_EQ(Delegate(conv(1, 3, 2)).init_error(), Error::Ok) << runtime::last_error_message();
  EXPECT_NE(Delegate(conv(6553601, 3, 2)).init_error(), Error::Ok);
  EXPECT_NE(std::string(runtime::last_error_message()).find("channels (groups 6553601)"),
            std::string::npos)
      << runtime::last_error_message();
  EXPECT_NE(Delegate(conv(2, 3, 4)).init_error(), Error::Ok);  // input fits, filter does not
  EXPECT_NE(std::string(runtime::last_error_message()).find("filter value 1 must be [6, 3, 3, 2]"),
            std::string::npos)
      << runtime::last_error_message();
  EXPECT_NE(Delegate(conv(1, 2, 2)).init_error(), Error::Ok);
  EXPECT_NE(std::string(runtime::last_error_message()).find("bias value 2 must be [3]"),
            std::string::npos)
      << runtime::last_error_message();
}

TEST(XnnpackBackend, FullyConnectedBiasMustMatchOutputChannels) {
  GraphBuilder g;
  const uint32_t x = g.tensor({1, 3}, kIn, 0);
  const uint32_t w = g.constant({2, 3}, {1, 2, 3, 0, -1, 1});
  const uint32_t b = g.constant({1}, {0.5f});
  g.fully_connected(x, w, b, g.tensor({1, 2}, kOut, 1));
  EXPECT_NE(Delegate(g).init_error(), Error::Ok);
  EXPECT_NE(std::string(runtime::last_error_message()).find("bias is not [output channels]"),
            std::string::npos)
      << runtime::last_error_message();
}

// Found by xnnpack_blob_fuzz: a mutated dim made the plan malloc gigabytes for one boundary
// value (and, with bigger dims, overflow the byte count). Activations are now bounded.
TEST(XnnpackBackend, OversizedActivationsGiveNamedErrors) {
  const auto graph = [](uint32_t rows, uint32_t cols) {
    GraphBuilder g;
    const uint32_t x = g.tensor({rows, cols}, kIn, 0);
    const uint32_t t = g.tensor({cols, rows});
    g.transpose({1, 0}, x, t);  // a delegate kernel: t is a boundary value with a buffer
    g.node_1x1(XNodeUnion::XNNAbs, t, g.tensor({cols, rows}, kOut, 1));
    return g;
  };
  EXPECT_EQ(Delegate(graph(1, 2)).init_error(), Error::Ok) << runtime::last_error_message();
  EXPECT_EQ(Delegate(graph(65536, 65536)).init_error(), Error::InvalidProgram);
  EXPECT_NE(std::string(runtime::last_error_message()).find("limit per activation"),
            std::string::npos)
      << runtime::last_error_message();
  EXPECT_EQ(Delegate(graph(0x7FFFFFFF, 0x7FFFFFFF)).init_error(), Error::InvalidProgram)
      << runtime::last_error_message();
  // Each activation under the per-value limit, together over the plan limit.
  EXPECT_EQ(Delegate(graph(16384, 16384)).init_error(), Error::InvalidProgram);
  EXPECT_NE(std::string(runtime::last_error_message()).find("the activations need"),
            std::string::npos)
      << runtime::last_error_message();
}

// Found by xnnpack_blob_fuzz: a pooling/conv kernel of millions of taps over a small output
// made XNNPACK's setup allocate a multi-gigabyte indirection buffer. Bounded at load now.
TEST(XnnpackBackend, HugeKernelIndirectionGivesNamedError) {
  const auto graph = [](uint32_t size) {
    GraphBuilder g;
    const uint32_t x = g.tensor({1, 1, 1, 1}, kIn, 0);
    fb_xnnpack::_XNNPooling2DT p;
    p.padding_top = p.padding_left = size / 2;
    p.padding_bottom = p.padding_right = size - 1 - size / 2;
    p.pooling_height = p.pooling_width = size;
    p.stride_height = p.stride_width = 1;
    p.dilation_height = p.dilation_width = 1;
    p.input_id = x;
    p.output_id = g.tensor({1, 1, 1, 1}, kOut, 1);
    auto n = std::make_unique<fb_xnnpack::XNodeT>();
    n->xnode_union.type = XNodeUnion::XNNMaxPooling2d;
    n->xnode_union.value = new fb_xnnpack::_XNNPooling2DT(std::move(p));
    g.graph.xnodes.push_back(std::move(n));
    return g;
  };
  EXPECT_EQ(Delegate(graph(3)).init_error(), Error::Ok) << runtime::last_error_message();
  EXPECT_EQ(Delegate(graph(20000)).init_error(), Error::InvalidProgram);
  EXPECT_NE(std::string(runtime::last_error_message()).find("limit per indirection buffer"),
            std::string::npos)
      << runtime::last_error_message();
}

// Found by xnnpack_blob_fuzz: an XNNPACK node whose output nobody reads got no memory
// from this XNNPACK, and setup aborted on the null pointer. It now gets a delegate buffer.
TEST(XnnpackBackend, UnreadNodeOutputStillRuns) {
  GraphBuilder g;
  const uint32_t x = g.tensor({3}, kIn, 0);
  g.node_1x1(XNodeUnion::XNNAbs, x, g.tensor({3}));  // result never read
  g.node_2x1(XNodeUnion::XNNAdd, x, x, g.tensor({3}, kOut, 1));
  Delegate d(g);
  ASSERT_EQ(d.init_error(), Error::Ok) << runtime::last_error_message();
  HeapTensor in({3}, {1.f, -2.f, 3.f}), out({3});
  ASSERT_EQ(d.run({&in, &out}), Error::Ok) << runtime::last_error_message();
  EXPECT_EQ(out.f()[0], 2.f);
  EXPECT_EQ(out.f()[1], -4.f);
  EXPECT_EQ(out.f()[2], 6.f);
}

// A batch-0 input through a convolution: this XNNPACK would assert on the empty output's
// null pointer in setup (fuzz-found), so the delegate refuses it by name.
TEST(XnnpackBackend, EmptyTensorThroughXnnpackIsANamedError) {
  GraphBuilder g;
  const uint32_t x = g.tensor({0, 4, 4, 2}, kIn, 0);
  const uint32_t w = g.constant({3, 3, 3, 2}, std::vector<float>(54, 0.5f));
  const uint32_t b = g.constant({3}, {0.f, 1.f, 2.f});
  const uint32_t y = g.tensor({0, 4, 4, 3});
  g.conv2d(3, 1, 2, 3, x, w, b, y);
  g.node_1x1(XNodeUnion::XNNAbs, y, g.tensor({0, 4, 4, 3}, kOut, 1));
  Delegate d(g);
  Error err = d.init_error();
  if (err == Error::Ok) {
    HeapTensor in({0, 4, 4, 2}, {}), out({0, 4, 4, 3});
    err = d.run({&in, &out});
  }
  EXPECT_EQ(err, Error::NotSupported);
  const std::string msg = runtime::last_error_message();
  EXPECT_NE(msg.find("has no elements; this XNNPACK cannot run empty tensors"), std::string::npos)
      << msg;
}

// The delegate's transpose (fast batched 2-D paths after merging dims, and the general
// odometer) against the definition out[o] = in[i] with i[perm[k]] = o[k], for all 24
// permutations of rank-4 shapes with and without size-1 dims.
TEST(XnnpackBackend, TransposeEveryPermutationOfRank4) {
  const std::vector<std::vector<uint32_t>> shapes = {
      {2, 3, 4, 5}, {1, 3, 1, 5}, {2, 1, 4, 1}, {1, 3, 20, 20}};
  for (const auto& dims : shapes) {
    std::vector<uint32_t> perm = {0, 1, 2, 3};
    do {
      SCOPED_TRACE(::testing::PrintToString(dims) + " perm " + ::testing::PrintToString(perm));
      std::vector<uint32_t> out_dims(4);
      for (int k = 0; k < 4; ++k) out_dims[k] = dims[perm[k]];
      GraphBuilder g;
      const uint32_t x = g.tensor(dims, kIn, 0);
      g.transpose(perm, x, g.tensor(out_dims, kOut, 1));
      Delegate d(g);
      ASSERT_EQ(d.init_error(), Error::Ok) << runtime::last_error_message();
      const size_t n = size_t(dims[0]) * dims[1] * dims[2] * dims[3];
      std::vector<float> xv(n);
      for (size_t i = 0; i < n; ++i) xv[i] = float(i);
      HeapTensor in(std::vector<int32_t>(dims.begin(), dims.end()), xv);
      HeapTensor out(std::vector<int32_t>(out_dims.begin(), out_dims.end()));
      ASSERT_EQ(d.run({&in, &out}), Error::Ok) << runtime::last_error_message();
      size_t o = 0;
      uint32_t oi[4];
      for (oi[0] = 0; oi[0] < out_dims[0]; ++oi[0])
        for (oi[1] = 0; oi[1] < out_dims[1]; ++oi[1])
          for (oi[2] = 0; oi[2] < out_dims[2]; ++oi[2])
            for (oi[3] = 0; oi[3] < out_dims[3]; ++oi[3], ++o) {
              uint32_t ii[4];
              for (int k = 0; k < 4; ++k) ii[perm[k]] = oi[k];
              const size_t src =
                  ((size_t(ii[0]) * dims[1] + ii[1]) * dims[2] + ii[2]) * dims[3] + ii[3];
              ASSERT_EQ(out.f()[o], xv[src]) << "output element " << o;
            }
    } while (std::next_permutation(perm.begin(), perm.end()));
  }
}

// Found by xnnpack_blob_fuzz: a PReLU whose slope was an activation (no static data) made
// XNNPACK copy the slope from a null pointer; a slope of the wrong length overreads.
TEST(XnnpackBackend, PReluSlopeMustBeConstantPerChannel) {
  const auto prelu = [](bool constant_slope, uint32_t slope_len) {
    GraphBuilder g;
    const uint32_t x = g.tensor({1, 2, 2, 3}, kIn, 0);
    const uint32_t s = constant_slope ? g.constant({slope_len}, std::vector<float>(slope_len, 0.5f))
                                      : g.tensor({slope_len}, kIn, 2);
    g.node_2x1(XNodeUnion::XNNPReLU, x, s, g.tensor({1, 2, 2, 3}, kOut, 1));
    return g;
  };
  {
    Delegate d(prelu(true, 3));
    ASSERT_EQ(d.init_error(), Error::Ok) << runtime::last_error_message();
    HeapTensor in({1, 2, 2, 3}, {-2, 4, -6, 1, 1, 1, 1, 1, 1, 1, 1, -1}), out({1, 2, 2, 3});
    ASSERT_EQ(d.run({&in, &out}), Error::Ok) << runtime::last_error_message();
    EXPECT_EQ(out.f()[0], -1.f);
    EXPECT_EQ(out.f()[1], 4.f);
    EXPECT_EQ(out.f()[2], -3.f);
    EXPECT_EQ(out.f()[11], -0.5f);
  }
  for (const auto& [constant, len] : {std::pair<bool, uint32_t>{false, 3}, {true, 2}}) {
    EXPECT_EQ(Delegate(prelu(constant, len)).init_error(), Error::InvalidArgument);
    EXPECT_NE(std::string(runtime::last_error_message()).find("slope is not a constant"),
              std::string::npos)
        << runtime::last_error_message();
  }
}

// Found by xnnpack_blob_fuzz: padding_top 1 + padding_bottom 0xFFFFFFFF wrapped to 0 in
// uint32, so the delegate planned a 4-row output while XNNPACK (size_t) computed millions of
// rows. Paddings now add in size_t; this one needs a multi-gigabyte indirection buffer.
TEST(XnnpackBackend, ConvPaddingSumDoesNotWrap) {
  GraphBuilder g;
  const uint32_t x = g.tensor({1, 4, 4, 2}, kIn, 0);
  const uint32_t w = g.constant({3, 3, 3, 2}, std::vector<float>(54, 0.1f));
  const uint32_t b = g.constant({3}, {0.f, 0.f, 0.f});
  g.conv2d(3, 1, 2, 3, x, w, b, g.tensor({1, 4, 4, 3}, kOut, 1));
  g.graph.xnodes.back()->xnode_union.AsXNNConv2d()->padding_bottom = 0xFFFFFFFFu;
  EXPECT_EQ(Delegate(g).init_error(), Error::InvalidProgram);
  EXPECT_NE(std::string(runtime::last_error_message()).find("limit per"), std::string::npos)
      << runtime::last_error_message();
}

// Which stages get the pool (stage_work.h), with work figures derived by hand.
uint32_t parallel_stages_of_add(uint32_t n) {
  GraphBuilder g;
  const uint32_t x = g.tensor({n}, kIn, 0);
  g.node_2x1(XNodeUnion::XNNAdd, x, x, g.tensor({n}, kOut, 1));
  Delegate d(g);
  EXPECT_EQ(d.init_error(), Error::Ok) << runtime::last_error_message();
  HeapTensor in({int32_t(n)}, std::vector<float>(n, 1.f)), out({int32_t(n)});
  EXPECT_EQ(d.run({&in, &out}), Error::Ok);
  EXPECT_EQ(out.f()[n - 1], 2.f);
  return d.executor()->num_parallel_stages();
}

// A 3x3 conv, 4 -> 8 channels, padding 1, on a 5x5 plane: 5*5*8 = 200 outputs of
// 3*3*4 = 36 multiply-adds each, 7,200 in all.
uint32_t parallel_stages_of_conv() {
  GraphBuilder g;
  const uint32_t x = g.tensor({1, 5, 5, 4}, kIn, 0);
  const uint32_t w = g.constant({8, 3, 3, 4}, std::vector<float>(8 * 3 * 3 * 4, 0.5f));
  const uint32_t b = g.constant({8}, std::vector<float>(8, 1.f));
  g.conv2d(3, 1, 4, 8, x, w, b, g.tensor({1, 5, 5, 8}, kOut, 1));
  Delegate d(g);
  EXPECT_EQ(d.init_error(), Error::Ok) << runtime::last_error_message();
  HeapTensor in({1, 5, 5, 4}, std::vector<float>(100, 1.f)), out({1, 5, 5, 8});
  EXPECT_EQ(d.run({&in, &out}), Error::Ok);
  EXPECT_EQ(out.f()[0], 9.f);       // corner: 2x2 window x 4 channels x 0.5 + 1
  EXPECT_EQ(out.f()[6 * 8], 19.f);  // (1,1): 3x3 window x 4 channels x 0.5 + 1
  return d.executor()->num_parallel_stages();
}

TEST(XnnpackBackend, StagesBelowTheParallelThresholdRunOnTheCallingThread) {
  ASSERT_EQ(set_num_threads(2), Error::Ok);
  set_min_parallel_work(100);
  EXPECT_EQ(parallel_stages_of_add(100), 1u);  // 100 elements: at the threshold
  EXPECT_EQ(parallel_stages_of_add(99), 0u);
  set_min_parallel_work(7200);
  EXPECT_EQ(parallel_stages_of_conv(), 1u);
  set_min_parallel_work(7201);
  EXPECT_EQ(parallel_stages_of_conv(), 0u);
  set_min_parallel_work(kDefaultMinParallelWork);
  EXPECT_EQ(parallel_stages_of_add(64), 0u);
  ASSERT_EQ(set_num_threads(1), Error::Ok);  // no pool at all
  set_min_parallel_work(0);
  EXPECT_EQ(parallel_stages_of_add(64), 0u);
  set_min_parallel_work(kDefaultMinParallelWork);
}

}  // namespace
}  // namespace ember::backends::xnnpack::testing
