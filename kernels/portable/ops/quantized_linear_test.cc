// ember_quantized::linear_8da8w / linear_8da4w against products worked by hand (util/qlinear.h's
// math: per-row int8 activations, per-channel int8 or per-block 4-bit weights), every ISA path
// built and supported here against the scalar reference, the output-channel split over a
// pool, and bad operands failing with InvalidArgument.
#include "kernels/portable/ops/quantized_linear.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "kernels/portable/util/qlinear.h"
#include "runtime/core/memory_allocator.h"

namespace ember::kernels::portable {
namespace {

using runtime::Error;
using runtime::ScalarType;

template <typename T>
struct Buffer {
  Buffer(ScalarType dtype, std::vector<int64_t> shape, std::vector<T> values)
      : data(std::move(values)), sizes(shape.begin(), shape.end()), order(shape.size()),
        strides(shape.size()) {
    int64_t st = 1;
    for (size_t i = shape.size(); i-- > 0;) {
      order[i] = static_cast<runtime::DimOrderType>(i);
      strides[i] = static_cast<runtime::StridesType>(st);
      st *= shape[i];
    }
    tensor = runtime::Tensor(dtype, shape.size(), sizes.data(), order.data(), strides.data(),
                             data.data(), runtime::ShapeDynamism::DynamicBound);
  }
  std::vector<T> data;
  std::vector<runtime::SizesType> sizes;
  std::vector<runtime::DimOrderType> order;
  std::vector<runtime::StridesType> strides;
  runtime::Tensor tensor;
};

struct Temp {
  std::vector<double> mem = std::vector<double>(1 << 16);
  runtime::MemoryAllocator alloc{mem.data(), mem.size() * sizeof(double)};
};

// The packed layout of qlinear.h, written from the values: run of 32, byte i = channels i, i + 16.
std::vector<uint8_t> pack4(const std::vector<int>& v, int64_t n, int64_t k) {
  std::vector<uint8_t> out(size_t(n * k / 2));
  for (int64_t j = 0; j < n; ++j) {
    for (int64_t run = 0; run < k / 32; ++run) {
      for (int64_t i = 0; i < 16; ++i) {
        const int lo = v[size_t(j * k + run * 32 + i)] + 8, hi = v[size_t(j * k + run * 32 + i + 16)] + 8;
        out[size_t(j * (k / 2) + run * 16 + i)] = uint8_t(lo | (hi << 4));
      }
    }
  }
  return out;
}

TEST(QuantizedLinearTest, Int8ByHand) {
  // x = [1, -2, 0.5, 4]: amax 4, x * 127 / 4 = [31.75, -63.5, 15.875, 127] -> q = [32, -64, 16,
  // 127] (-63.5 rounds to even), row scale 4 / 127.
  Buffer<float> x(ScalarType::Float, {1, 4}, {1.f, -2.f, 0.5f, 4.f});
  Buffer<int8_t> w(ScalarType::Char, {2, 4}, {1, 0, 0, 0, 1, 1, 1, 1});
  Buffer<float> s(ScalarType::Float, {2}, {0.5f, 2.f});
  Buffer<float> b(ScalarType::Float, {2}, {0.f, 1.f});
  Buffer<float> out(ScalarType::Float, {1, 2}, {0.f, 0.f});
  Temp t;
  runtime::KernelRuntimeContext ctx(&t.alloc);
  linear_8da8w_out(ctx, x.tensor, w.tensor, s.tensor, &b.tensor, out.tensor);
  ASSERT_EQ(ctx.failure_state(), Error::Ok);
  EXPECT_NEAR(out.data[0], 4.0 / 127 * 0.5 * 32, 1e-6);
  EXPECT_NEAR(out.data[1], 4.0 / 127 * 2 * (32 - 64 + 16 + 127) + 1, 1e-5);
}

TEST(QuantizedLinearTest, Int4ByHandTwoBlocks) {
  // k = 64, blocks of 32: block 0 scale 0.5, block 1 scale 3. Input integers with max 127, so
  // the activations quantize to themselves with scale 1.
  const int64_t k = 64;
  std::vector<float> xv(k);
  std::vector<int> v(k);
  for (int64_t c = 0; c < k; ++c) {
    xv[size_t(c)] = float((c * 37) % 255 - 127);
    v[size_t(c)] = int((c * 5) % 16) - 8;
  }
  xv[3] = 127.f;
  Buffer<float> x(ScalarType::Float, {1, 1, k}, xv);
  Buffer<uint8_t> w(ScalarType::Byte, {1, k / 2}, pack4(v, 1, k));
  Buffer<float> s(ScalarType::Float, {1, 2}, {0.5f, 3.f});
  Buffer<float> out(ScalarType::Float, {1, 1, 1}, {0.f});
  double expect = 0;
  for (int64_t c = 0; c < k; ++c) expect += (c < 32 ? 0.5 : 3.0) * xv[size_t(c)] * v[size_t(c)];
  Temp t;
  runtime::KernelRuntimeContext ctx(&t.alloc);
  linear_8da4w_out(ctx, x.tensor, w.tensor, s.tensor, 32, nullptr, out.tensor);
  ASSERT_EQ(ctx.failure_state(), Error::Ok);
  EXPECT_NEAR(out.data[0], expect, 1e-3);
  EXPECT_NE(expect, 0.0);
  // The same bytes read as one block of 64 with scale 2: a different, also exact, answer.
  Buffer<float> s64(ScalarType::Float, {1, 1}, {2.f});
  runtime::KernelRuntimeContext ctx2(&t.alloc);
  linear_8da4w_out(ctx2, x.tensor, w.tensor, s64.tensor, 64, nullptr, out.tensor);
  ASSERT_EQ(ctx2.failure_state(), Error::Ok);
  double expect64 = 0;
  for (int64_t c = 0; c < k; ++c) expect64 += 2.0 * xv[size_t(c)] * v[size_t(c)];
  EXPECT_NEAR(out.data[0], expect64, 1e-3);
}

struct Case {
  int64_t m, k, n, block;
};

void random_case(const Case& c, std::vector<int8_t>* q, std::vector<float>* qs,
                 std::vector<int32_t>* sums, std::vector<uint8_t>* w, std::vector<float>* ws,
                 std::vector<float>* bias) {
  std::mt19937 rng(uint32_t(c.m * 1000 + c.k + c.n + c.block));
  std::normal_distribution<float> g(0.f, 1.f);
  std::vector<float> x(size_t(c.m * c.k));
  for (float& v : x) v = g(rng);
  q->resize(x.size());
  qs->resize(size_t(c.m));
  sums->resize(size_t(c.m * (c.k / 32)));
  quantize_rows_int8(x.data(), c.m, c.k, c.k, q->data(), qs->data(),
                     c.block ? sums->data() : nullptr);
  std::uniform_int_distribution<int> d8(-127, 127), d4(-8, 7);
  if (c.block == 0) {
    w->resize(size_t(c.n * c.k));
    for (uint8_t& b : *w) b = uint8_t(int8_t(d8(rng)));
    ws->resize(size_t(c.n));
  } else {
    std::vector<int> v(size_t(c.n * c.k));
    for (int& e : v) e = d4(rng);
    *w = pack4(v, c.n, c.k);
    ws->resize(size_t(c.n * (c.k / c.block)));
  }
  for (float& s : *ws) s = 0.01f + 0.02f * std::fabs(g(rng));
  bias->resize(size_t(c.n));
  for (float& b : *bias) b = g(rng);
}

TEST(QuantizedLinearTest, EveryPathMatchesTheScalarReference) {
  const QLinearFn paths[] = {qlinear_avx2(), qlinear_avx512vnni(), qlinear_neon_dot()};
  const char* names[] = {"avx2", "avx512vnni", "neon-dot"};
  int ran = 0;
  for (const Case& c : {Case{1, 576, 13, 0}, Case{3, 100, 9, 0}, Case{2, 1536, 7, 0},
                        Case{1, 576, 13, 32}, Case{3, 576, 9, 64}, Case{2, 1536, 6, 128}}) {
    std::vector<int8_t> q;
    std::vector<float> qs, ws, bias;
    std::vector<int32_t> sums;
    std::vector<uint8_t> w;
    random_case(c, &q, &qs, &sums, &w, &ws, &bias);
    QLinearArgs a;
    a.m = c.m;
    a.k = c.k;
    a.n = c.n;
    a.a = q.data();
    a.a_scales = qs.data();
    a.a_chunk_sums = sums.data();
    a.w = w.data();
    a.w_scales = ws.data();
    a.block = c.block;
    a.bias = bias.data();
    std::vector<float> ref(size_t(c.m * c.n));
    a.out = ref.data();
    qlinear_scalar()(a, 0, c.n);
    double mag = 0;
    for (float r : ref) mag = std::max(mag, double(std::fabs(r)));
    ASSERT_GT(mag, 0.1);
    for (size_t p = 0; p < 3; ++p) {
      if (paths[p] == nullptr) continue;
      ++ran;
      std::vector<float> got(ref.size(), NAN);
      a.out = got.data();
      paths[p](a, 0, c.n);
      for (size_t i = 0; i < ref.size(); ++i) {
        EXPECT_NEAR(got[i], ref[i], 1e-5 * mag) << names[p] << " m=" << c.m << " k=" << c.k
                                                 << " block=" << c.block << " at " << i;
      }
    }
  }
  printf("qlinear path: %s (%d path runs)\n", qlinear_path(), ran);
#if defined(__aarch64__)
  EXPECT_GT(ran, 0) << "no NEON dot-product path ran on aarch64";
#endif
}

// A pool that runs every task on the caller but reports 3 threads, so qlinear splits the
// output channels: every channel must be written once.
class SerialPool final : public runtime::ThreadPool {
 public:
  size_t num_threads() const override { return 3; }
  void parallel_for(size_t count, Task fn, void* context) override {
    calls += count;
    for (size_t i = 0; i < count; ++i) fn(context, i);
  }
  size_t calls = 0;
};

TEST(QuantizedLinearTest, SplitOverThreadsWritesEveryChannel) {
  const Case c{2, 64, 200, 32};
  std::vector<int8_t> q;
  std::vector<float> qs, ws, bias;
  std::vector<int32_t> sums;
  std::vector<uint8_t> w;
  random_case(c, &q, &qs, &sums, &w, &ws, &bias);
  QLinearArgs a;
  a.m = c.m, a.k = c.k, a.n = c.n, a.a = q.data(), a.a_scales = qs.data();
  a.a_chunk_sums = sums.data(), a.w = w.data(), a.w_scales = ws.data(), a.block = c.block;
  a.bias = bias.data();
  std::vector<float> ref(size_t(c.m * c.n)), got(ref.size(), NAN);
  a.out = ref.data();
  qlinear(a, nullptr);
  a.out = got.data();
  SerialPool pool;
  qlinear(a, &pool);
  EXPECT_GT(pool.calls, 1u);
  EXPECT_EQ(got, ref);
}

TEST(QuantizedLinearTest, BadOperandsFail) {
  Buffer<float> x(ScalarType::Float, {1, 64}, std::vector<float>(64, 1.f));
  Buffer<uint8_t> w(ScalarType::Byte, {2, 32}, std::vector<uint8_t>(64, 0x88));
  Buffer<float> s(ScalarType::Float, {2, 2}, {1.f, 1.f, 1.f, 1.f});
  Buffer<float> out(ScalarType::Float, {1, 2}, {0.f, 0.f});
  Temp t;
  {
    runtime::KernelRuntimeContext ctx(&t.alloc);
    linear_8da4w_out(ctx, x.tensor, w.tensor, s.tensor, 48, nullptr, out.tensor);
    EXPECT_EQ(ctx.failure_state(), Error::InvalidArgument);
  }
  {
    runtime::KernelRuntimeContext ctx(&t.alloc);  // 2 scales per row need group 32, not 64
    linear_8da4w_out(ctx, x.tensor, w.tensor, s.tensor, 64, nullptr, out.tensor);
    EXPECT_EQ(ctx.failure_state(), Error::InvalidArgument);
  }
  {
    runtime::KernelRuntimeContext ctx(&t.alloc);
    linear_8da4w_out(ctx, x.tensor, w.tensor, s.tensor, 32, nullptr, out.tensor);
    EXPECT_EQ(ctx.failure_state(), Error::Ok);
    EXPECT_EQ(out.data, (std::vector<float>{0.f, 0.f}));  // every nibble 8: v = 0
  }
  Buffer<int8_t> w8(ScalarType::Char, {2, 32}, std::vector<int8_t>(64, 1));
  Buffer<float> s8(ScalarType::Float, {2}, {1.f, 1.f});
  runtime::KernelRuntimeContext ctx(&t.alloc);  // 64 input features, weight expects 32
  linear_8da8w_out(ctx, x.tensor, w8.tensor, s8.tensor, nullptr, out.tensor);
  EXPECT_EQ(ctx.failure_state(), Error::InvalidArgument);
}

}  // namespace
}  // namespace ember::kernels::portable
