// DemoBackend on hand-assembled bytecode (test_blob.h) with hand-computed results:
// mm + add (the tutorial's mm(a, x) + b on 2x2), unary ops at points with known values,
// scalar broadcasting, constants and scratch chains, compile specs, registration, and
// execute-time argument errors.
#include "backends/demo/runtime/demo_backend.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "backends/demo/runtime/test_blob.h"
#include "runtime/core/diagnostics.h"

namespace ember::backends::demo::testing {
namespace {

using runtime::Error;

class Delegate {
 public:
  explicit Delegate(const std::vector<uint8_t>& blob,
                    std::vector<runtime::CompileSpec> specs = {})
      : blob_(blob), arena_(1 << 16), allocator_(arena_.data(), arena_.size()) {
    runtime::BackendInitContext ctx(&allocator_, "forward", nullptr);
    runtime::FreeableBuffer buffer(blob_.data(), blob_.size(), &Delegate::on_free, this);
    auto h = backend_instance().init(ctx, &buffer, {specs.data(), specs.size()});
    init_error_ = h.error();
    if (h.ok()) handle_ = h.get();
    freed_by_init_ = freed_;
  }
  ~Delegate() {
    if (handle_ != nullptr) backend_instance().destroy(handle_);
  }
  Error init_error() const { return init_error_; }
  bool blob_freed() const { return freed_by_init_; }
  Error run(std::vector<HeapTensor*> args) {
    std::vector<runtime::EValue*> values;
    for (HeapTensor* t : args) values.push_back(t == nullptr ? nullptr : &t->value);
    runtime::BackendExecutionContext ctx(nullptr, "forward", nullptr);
    return backend_instance().execute(ctx, handle_, {values.data(), values.size()});
  }

 private:
  static void on_free(void* self, void*, size_t) { static_cast<Delegate*>(self)->freed_ = true; }
  std::vector<uint8_t> blob_;
  std::vector<uint8_t> arena_;
  runtime::MemoryAllocator allocator_;
  void* handle_ = nullptr;
  Error init_error_ = Error::Ok;
  bool freed_ = false;
  bool freed_by_init_ = false;
};

// forward(a, x, b) = mm(a, x) + b, all 2x2: slots a, x, b, out, scratch t.
TestBlob mm_add_blob() {
  TestBlob g;
  const uint16_t a = g.input({2, 2}), x = g.input({2, 2}), b = g.input({2, 2});
  const uint16_t out = g.output({2, 2});
  const uint16_t t = g.scratch({2, 2});
  g.op(0x10, t, a, x);    // mm
  g.op(0x01, out, t, b);  // add
  return g;
}

TEST(DemoBackend, MmThenAddMatchesHandComputation) {
  Delegate d(mm_add_blob().bytes());
  ASSERT_EQ(d.init_error(), Error::Ok) << runtime::last_error_message();
  EXPECT_TRUE(d.blob_freed());
  HeapTensor a({2, 2}, {1, 2, 3, 4}), x({2, 2}, {5, 6, 7, 8}), b({2, 2}, {1, 1, 1, 1});
  HeapTensor out({2, 2});
  ASSERT_EQ(d.run({&a, &x, &b, &out}), Error::Ok) << runtime::last_error_message();
  // [1 2;3 4] @ [5 6;7 8] = [19 22;43 50], + 1.
  EXPECT_EQ(std::vector<float>(out.f(), out.f() + 4), (std::vector<float>{20, 23, 44, 51}));
  // A second run with new inputs reuses the same program.
  a.data = {0, 0, 0, 0};
  ASSERT_EQ(d.run({&a, &x, &b, &out}), Error::Ok);
  EXPECT_EQ(out.data, (std::vector<float>{1, 1, 1, 1}));
}

TEST(DemoBackend, NonSquareMatmul) {
  TestBlob g;
  const uint16_t a = g.input({1, 3}), b = g.input({3, 2}), out = g.output({1, 2});
  g.op(0x10, out, a, b);
  Delegate d(g.bytes());
  ASSERT_EQ(d.init_error(), Error::Ok) << runtime::last_error_message();
  HeapTensor ta({1, 3}, {1, 2, 3}), tb({3, 2}, {1, 0, 0, 1, 1, 1}), to({1, 2});
  ASSERT_EQ(d.run({&ta, &tb, &to}), Error::Ok);
  EXPECT_EQ(to.data, (std::vector<float>{4, 5}));  // [1+3, 2+3]
}

TEST(DemoBackend, UnaryOpsAtKnownPoints) {
  struct Case {
    uint8_t op;
    float x, want;
  };
  const float pi = 3.14159265358979f;
  const Case cases[] = {
      {0x22, -2.f, 0.f},          {0x22, 3.f, 3.f},            // relu
      {0x23, 0.f, 0.5f},          {0x23, std::log(3.f), 0.75f},  // sigmoid(ln 3) = 3/4
      {0x24, pi / 2, 1.f},        {0x24, pi / 6, 0.5f},        // sin
      {0x25, 0.f, 1.f},           {0x25, pi / 3, 0.5f},        // cos
      {0x26, 0.f, 0.f},           {0x26, std::log(2.f), 0.6f},  // tanh(ln 2) = 3/5
      {0x27, 0.f, 1.f},           {0x27, std::log(5.f), 5.f},   // exp
      {0x21, 2.5f, -2.5f},        {0x20, 7.f, 7.f},            // neg, copy
  };
  for (const Case& c : cases) {
    TestBlob g;
    const uint16_t x = g.input({1}), y = g.output({1});
    g.op(c.op, y, x);
    Delegate d(g.bytes());
    ASSERT_EQ(d.init_error(), Error::Ok) << runtime::last_error_message();
    HeapTensor in({1}, {c.x}), out({1});
    ASSERT_EQ(d.run({&in, &out}), Error::Ok);
    EXPECT_NEAR(out.data[0], c.want, 1e-6) << "op 0x" << std::hex << int(c.op) << " at " << c.x;
  }
}

TEST(DemoBackend, BinaryOpsWithScalarBroadcastAndConstants) {
  // out = (x - c) * s / 2 with c a [3] constant and s, 2 one-element operands.
  TestBlob g;
  const uint16_t x = g.input({3}), s = g.input({1});
  const uint16_t out = g.output({3}), mx = g.output({3});
  const uint16_t c = g.constant({3}, {1, 2, 3});
  const uint16_t two = g.constant({1}, {2});
  const uint16_t t = g.scratch({3});
  g.op(0x02, t, x, c);     // sub
  g.op(0x03, t, t, s);     // mul, in place, scalar broadcast
  g.op(0x04, out, t, two);  // div
  g.op(0x05, mx, x, c);    // maximum
  g.op(0x06, mx, mx, two);  // minimum(max(x, c), 2)
  Delegate d(g.bytes());
  ASSERT_EQ(d.init_error(), Error::Ok) << runtime::last_error_message();
  HeapTensor tx({3}, {5, 1, 9}), ts({1}, {4}), to({3}), tm({3});
  ASSERT_EQ(d.run({&tx, &ts, &to, &tm}), Error::Ok);
  EXPECT_EQ(to.data, (std::vector<float>{8, -2, 12}));  // (4,-1,6)*4/2
  EXPECT_EQ(tm.data, (std::vector<float>{2, 2, 2}));    // min(max(x,c),2) = min((5,2,9),2)
}

TEST(DemoBackend, ScalarOnTheLeft) {
  TestBlob g;  // out = 1 - x (rsub shape)
  const uint16_t x = g.input({2}), out = g.output({2});
  const uint16_t one = g.constant({}, {1});
  g.op(0x02, out, one, x);
  Delegate d(g.bytes());
  ASSERT_EQ(d.init_error(), Error::Ok) << runtime::last_error_message();
  HeapTensor tx({2}, {0.25f, 3}), to({2});
  ASSERT_EQ(d.run({&tx, &to}), Error::Ok);
  EXPECT_EQ(to.data, (std::vector<float>{0.75f, -2}));
}

TEST(DemoBackend, OutputResizedWhenDynamic) {
  TestBlob g;
  const uint16_t x = g.input({2}), y = g.output({2});
  g.op(0x22, y, x);
  Delegate d(g.bytes());
  ASSERT_EQ(d.init_error(), Error::Ok);
  HeapTensor in({2}, {-1, 1});
  HeapTensor out({1}, {0, 0}, runtime::ShapeDynamism::DynamicBound);  // capacity 1 < 2
  EXPECT_EQ(d.run({&in, &out}), Error::InvalidArgument);
  HeapTensor big({3}, {}, runtime::ShapeDynamism::DynamicBound);
  ASSERT_EQ(d.run({&in, &big}), Error::Ok) << runtime::last_error_message();
  EXPECT_EQ(big.tensor.dim(), 1u);
  EXPECT_EQ(big.tensor.size(0), 2);
  EXPECT_EQ(big.data[1], 1.f);
}

TEST(DemoBackend, ExecuteRejectsBadArguments) {
  Delegate d(mm_add_blob().bytes());
  ASSERT_EQ(d.init_error(), Error::Ok);
  HeapTensor a({2, 2}, {1, 2, 3, 4}), out({2, 2}), wrong({2, 3});
  EXPECT_EQ(d.run({&a, &a, &out}), Error::InvalidArgument);
  EXPECT_NE(std::string(runtime::last_error_message()).find("3 arguments"), std::string::npos);
  EXPECT_EQ(d.run({&a, &wrong, &a, &out}), Error::InvalidArgument);
  EXPECT_NE(std::string(runtime::last_error_message()).find("input 1"), std::string::npos);
  EXPECT_EQ(d.run({&a, nullptr, &a, &out}), Error::InvalidType);
  HeapTensor static_out({2, 3});
  EXPECT_EQ(d.run({&a, &a, &a, &static_out}), Error::NotSupported);  // static: no resize
  runtime::EValue not_tensor(int64_t{3});
  runtime::EValue* args[] = {&a.value, &not_tensor, &a.value, &out.value};
  runtime::BackendExecutionContext ctx(nullptr, "forward", nullptr);
  EXPECT_EQ(backend_instance().execute(ctx, nullptr, {args, 4}), Error::DelegateInvalidHandle);
}

TEST(DemoBackend, CompileSpecMaxNumel) {
  const std::vector<uint8_t> blob = mm_add_blob().bytes();
  const uint8_t four[] = {4};
  const uint8_t three[] = {3, 0, 0, 0};
  EXPECT_EQ(Delegate(blob, {{"max_numel", four, 1}}).init_error(), Error::Ok);
  Delegate small(blob, {{"max_numel", three, 4}});
  EXPECT_EQ(small.init_error(), Error::InvalidArgument);
  EXPECT_NE(std::string(runtime::last_error_message()).find("max_numel is 3"), std::string::npos);
  EXPECT_FALSE(small.blob_freed());  // a failed init leaves the blob to the caller
  EXPECT_EQ(Delegate(blob, {{"max_numel", three, 0}}).init_error(), Error::InvalidArgument);
  EXPECT_EQ(Delegate(blob, {{"max_value", four, 1}}).init_error(), Error::NotSupported);
  EXPECT_NE(std::string(runtime::last_error_message()).find("'max_value'"), std::string::npos);
}

TEST(DemoBackend, Registration) {
  runtime::BackendRegistry registry;
  ASSERT_EQ(register_backend(registry), Error::Ok);
  auto found = registry.find("DemoBackend");
  ASSERT_TRUE(found.ok());
  EXPECT_EQ(found.get(), &backend_instance());
  EXPECT_TRUE(found.get()->is_available());
  EXPECT_EQ(register_backend(registry), Error::RegistrationAlreadyRegistered);
}

}  // namespace
}  // namespace ember::backends::demo::testing
