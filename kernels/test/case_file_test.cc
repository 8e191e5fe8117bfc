// Tests for the kernel case-file reader: a hand-built file (bytes written here from the format
// in cases/FORMAT.md), every truncation of it, corrupted fields, and the generated
// aten::add.out / aten::convolution.out files when they are present in the runfiles.
#include "kernels/test/case_file.h"

#include <gtest/gtest.h>

#include "tests/support/shared_fixtures.h"

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace ember::kernels::testing {
namespace {

// Little-endian byte builder for hand-written case files.
class Bytes {
 public:
  Bytes& u8(uint8_t v) { b_.push_back(v); return *this; }
  Bytes& u32(uint32_t v) { return le(v, 4); }
  Bytes& i64(int64_t v) { return le(static_cast<uint64_t>(v), 8); }
  Bytes& u64(uint64_t v) { return le(v, 8); }
  Bytes& f64(double v) { uint64_t bits; std::memcpy(&bits, &v, 8); return le(bits, 8); }
  Bytes& f32(float v) { uint32_t bits; std::memcpy(&bits, &v, 4); return le(bits, 4); }
  Bytes& str(const std::string& s) {
    u32(static_cast<uint32_t>(s.size()));
    b_.insert(b_.end(), s.begin(), s.end());
    return *this;
  }
  Bytes& raw(const char* s, size_t n) { b_.insert(b_.end(), s, s + n); return *this; }
  // Argument header: name, schema type, flags, kind.
  Bytes& arg(const std::string& name, const std::string& type, bool out, uint8_t kind) {
    return str(name).str(type).u8(out ? 1 : 0).u8(kind);
  }
  size_t size() const { return b_.size(); }
  std::vector<uint8_t>& vec() { return b_; }

 private:
  Bytes& le(uint64_t v, int n) {
    for (int i = 0; i < n; ++i) b_.push_back(static_cast<uint8_t>(v >> (8 * i)));
    return *this;
  }
  std::vector<uint8_t> b_;
};

// Offsets of interesting fields in the file built by make_file().
struct Offsets {
  size_t self_dim_order = 0;
  size_t self_nbytes = 0;
  size_t out_dtype = 0;
};

// A two-case add.out file: case 0 adds a channels-last [1,2,1,2] float tensor and a rank-0
// float with alpha 2; case 1 is an expected-error case exercising every other argument kind.
std::vector<uint8_t> make_file(Offsets* off = nullptr) {
  Bytes b;
  b.raw("EMBRCASE", 8).u32(1).str("aten::add.out").str("2.6.0+test").u32(3);
  // Case 0.
  b.str("f32_channels_last").u32(0).f64(1e-5).f64(1e-6).u32(4);
  b.arg("self", "Tensor", false, 0).u8(6).u8(4).i64(1).i64(2).i64(1).i64(2);
  if (off) off->self_dim_order = b.size();
  b.u8(0).u8(2).u8(3).u8(1);
  if (off) off->self_nbytes = b.size();
  // Physical NHWC order: (w0: c0, c1), (w1: c0, c1).
  b.u64(16).f32(1.0f).f32(2.0f).f32(3.0f).f32(4.0f);
  b.arg("other", "Tensor", false, 0).u8(6).u8(0).u64(4).f32(0.5f);
  b.arg("alpha", "number", false, 1).i64(2);
  b.arg("out", "Tensor", true, 0);
  if (off) off->out_dtype = b.size();
  b.u8(6).u8(4).i64(1).i64(2).i64(1).i64(2).u8(0).u8(2).u8(3).u8(1).u64(0);
  b.u32(1).u8(6).u8(4).i64(1).i64(2).i64(1).i64(2).u8(0).u8(2).u8(3).u8(1).u64(16);
  b.f32(2.0f).f32(3.0f).f32(4.0f).f32(5.0f);
  // Case 1: every other kind, expected error, no outputs.
  b.str("all_kinds_error").u32(1).f64(0).f64(0).u32(12);
  b.arg("d", "float", false, 2).f64(-2.5);
  b.arg("b", "bool", false, 3).u8(1);
  b.arg("il", "List[int]", false, 4).u32(2).i64(-1).i64(7);
  b.arg("dl", "List[float]", false, 5).u32(1).f64(0.25);
  b.arg("bl", "List[bool]", false, 6).u32(3).u8(1).u8(0).u8(1);
  b.arg("none", "Optional[Tensor]", false, 7);
  b.arg("tl", "List[Tensor]", false, 8).u32(1).u8(4).u8(1).i64(1).u8(0).u64(8).i64(42);
  b.arg("otl", "List[Optional[Tensor]]", false, 9).u32(2).u8(0).u8(1).u8(11).u8(0).u64(1).u8(1);
  b.arg("st", "Optional[int]", false, 10).u8(15);
  b.arg("s", "str", false, 11).str("floor");
  b.arg("mf", "Optional[int]", false, 12).u8(2);
  b.arg("out", "Tensor", true, 0).u8(4).u8(1).i64(0).u8(0).u64(0);
  b.u32(0);
  // Case 2: a mutated input (flag 2) and a TensorList out of two int64[1] tensors; expected
  // outputs are the two outs, then the mutated input.
  b.str("mutated_and_list_out").u32(0).f64(0).f64(0).u32(2);
  b.str("self").str("Tensor").u8(2).u8(0).u8(4).u8(1).i64(2).u8(0).u64(16).i64(5).i64(6);
  b.arg("out", "List[Tensor]", true, 8).u32(2);
  for (int i = 0; i < 2; ++i) b.u8(4).u8(1).i64(1).u8(0).u64(0);
  b.u32(3);
  for (int i = 0; i < 2; ++i) b.u8(4).u8(1).i64(1).u8(0).u64(8).i64(10 + i);
  b.u8(4).u8(1).i64(2).u8(0).u64(16).i64(7).i64(8);
  return b.vec();
}

TEST(CaseFileTest, ParsesHandWrittenFile) {
  const std::vector<uint8_t> bytes = make_file();
  CaseFile f;
  ASSERT_EQ(parse_case_file(bytes.data(), bytes.size(), &f), "");
  EXPECT_EQ(f.version, 1u);
  EXPECT_EQ(f.op_key, "aten::add.out");
  EXPECT_EQ(f.torch_version, "2.6.0+test");
  ASSERT_EQ(f.cases.size(), 3u);

  const Case& c0 = f.cases[0];
  EXPECT_EQ(c0.name, "f32_channels_last");
  EXPECT_FALSE(c0.expect_error);
  EXPECT_DOUBLE_EQ(c0.atol, 1e-5);
  EXPECT_DOUBLE_EQ(c0.rtol, 1e-6);
  ASSERT_EQ(c0.args.size(), 4u);
  const TensorData& self = c0.args[0].tensor;
  EXPECT_EQ(c0.args[0].kind, ArgKind::Tensor);
  EXPECT_EQ(self.dtype, ScalarType::Float);
  EXPECT_EQ(self.sizes, (std::vector<int64_t>{1, 2, 1, 2}));
  EXPECT_EQ(self.dim_order, (std::vector<uint8_t>{0, 2, 3, 1}));
  EXPECT_FALSE(self.is_contiguous_order());
  // Channels-last strides for N=1, C=2, H=1, W=2: C innermost.
  EXPECT_EQ(self.strides(), (std::vector<int64_t>{4, 1, 4, 2}));
  ASSERT_EQ(self.data.size(), 16u);
  float v[4];
  std::memcpy(v, self.data.data(), 16);
  EXPECT_EQ(v[3], 4.0f);
  EXPECT_EQ(c0.args[1].tensor.sizes.size(), 0u);
  EXPECT_EQ(c0.args[1].tensor.numel(), 1);
  EXPECT_EQ(c0.args[2].kind, ArgKind::Int);
  EXPECT_EQ(c0.args[2].int_value, 2);
  EXPECT_EQ(c0.args[2].schema_type, "number");
  const CaseArg* out = c0.find_arg("out");
  ASSERT_NE(out, nullptr);
  EXPECT_TRUE(out->is_out);
  EXPECT_EQ(out->tensor.data, std::vector<uint8_t>(16, 0));  // zero-filled by the reader
  EXPECT_EQ(c0.find_arg("missing"), nullptr);
  EXPECT_EQ(c0.num_out_tensors(), 1u);
  ASSERT_EQ(c0.outputs.size(), 1u);
  std::memcpy(v, c0.outputs[0].data.data(), 16);
  EXPECT_EQ(v[0], 2.0f);

  const Case& c1 = f.cases[1];
  EXPECT_TRUE(c1.expect_error);
  EXPECT_TRUE(c1.outputs.empty());
  ASSERT_EQ(c1.args.size(), 12u);
  EXPECT_EQ(c1.args[0].double_value, -2.5);
  EXPECT_TRUE(c1.args[1].bool_value);
  EXPECT_EQ(c1.args[2].int_list, (std::vector<int64_t>{-1, 7}));
  EXPECT_EQ(c1.args[3].double_list, (std::vector<double>{0.25}));
  EXPECT_EQ(c1.args[4].bool_list, (std::vector<uint8_t>{1, 0, 1}));
  EXPECT_EQ(c1.args[5].kind, ArgKind::OptionalNone);
  ASSERT_EQ(c1.args[6].tensor_list.size(), 1u);
  EXPECT_EQ(c1.args[6].tensor_list[0].dtype, ScalarType::Long);
  ASSERT_EQ(c1.args[7].optional_tensor_list.size(), 2u);
  EXPECT_FALSE(c1.args[7].optional_tensor_list[0].has_value());
  EXPECT_EQ(c1.args[7].optional_tensor_list[1]->dtype, ScalarType::Bool);
  EXPECT_EQ(c1.args[8].scalar_type, ScalarType::BFloat16);
  EXPECT_EQ(c1.args[9].string_value, "floor");
  EXPECT_EQ(c1.args[10].memory_format, 2);
  EXPECT_EQ(c1.args[11].tensor.numel(), 0);

  const Case& c2 = f.cases[2];
  ASSERT_EQ(c2.args.size(), 2u);
  EXPECT_TRUE(c2.args[0].is_mutated);
  EXPECT_FALSE(c2.args[0].is_out);
  EXPECT_EQ(c2.args[0].tensor.data.size(), 16u);
  EXPECT_EQ(c2.args[1].kind, ArgKind::TensorList);
  ASSERT_EQ(c2.args[1].tensor_list.size(), 2u);
  EXPECT_EQ(c2.args[1].tensor_list[1].data, std::vector<uint8_t>(8, 0));
  EXPECT_EQ(c2.num_out_tensors(), 2u);
  EXPECT_EQ(c2.num_expected_outputs(), 3u);
  EXPECT_EQ(c2.outputs.size(), 3u);
}

TEST(CaseFileTest, EveryTruncationIsAnError) {
  const std::vector<uint8_t> bytes = make_file();
  for (size_t n = 0; n < bytes.size(); ++n) {
    CaseFile f;
    EXPECT_NE(parse_case_file(bytes.data(), n, &f), "") << "prefix of " << n << " bytes";
  }
}

TEST(CaseFileTest, RejectsCorruptFields) {
  Offsets off;
  const std::vector<uint8_t> good = make_file(&off);
  auto parse_with = [&](size_t at, uint8_t value) {
    std::vector<uint8_t> b = good;
    b[at] = value;
    CaseFile f;
    return parse_case_file(b.data(), b.size(), &f);
  };
  EXPECT_NE(parse_with(0, 'X').find("bad magic"), std::string::npos);
  EXPECT_NE(parse_with(8, 9).find("version 9"), std::string::npos);
  EXPECT_NE(parse_with(off.self_dim_order + 1, 0).find("permutation"), std::string::npos);
  EXPECT_NE(parse_with(off.self_nbytes, 12).find("nbytes 12"), std::string::npos);
  EXPECT_NE(parse_with(off.out_dtype, 10).find("dtype code 10"), std::string::npos);
  std::vector<uint8_t> trailing = good;
  trailing.push_back(0);
  CaseFile f;
  EXPECT_NE(parse_case_file(trailing.data(), trailing.size(), &f).find("trailing"),
            std::string::npos);
  // A huge count must be rejected before anything is allocated.
  std::vector<uint8_t> huge = good;
  const size_t count_at = 8 + 4 + 4 + std::strlen("aten::add.out") + 4 + std::strlen("2.6.0+test");
  huge[count_at + 3] = 0x7f;
  EXPECT_NE(parse_case_file(huge.data(), huge.size(), &f).find("case count"), std::string::npos);
}

TEST(CaseFileTest, Helpers) {
  EXPECT_EQ(case_file_name("aten::add.out"), "aten__add.out.case");
  EXPECT_EQ(case_dtype_size(15), 2u);
  EXPECT_EQ(case_dtype_size(8), 0u);
  EXPECT_STREQ(runtime::scalar_type_name(ScalarType::Half), "float16");
  EXPECT_STREQ(arg_kind_name(ArgKind::OptionalTensorList), "OptionalTensorList");
  CaseFile f;
  EXPECT_NE(read_case_file("/nonexistent/x.case", &f).find("cannot open"), std::string::npos);
}

std::string runfile(const std::string& rel) {
  const char* srcdir = std::getenv("TEST_SRCDIR");
  const char* ws = std::getenv("TEST_WORKSPACE");
  if (srcdir == nullptr || ws == nullptr) return rel;
  return std::string(srcdir) + "/" + ws + "/" + rel;
}

// Checks the structure of a generated file: every case has the right number of outputs with
// sizes and dtype equal to its out argument's.
void check_generated(const std::string& op_key, size_t min_cases) {
  CaseFile f;
  const std::string path = runfile("kernels/test/cases/" + case_file_name(op_key));
  const std::string err = read_case_file(path, &f);
  if (err.find("cannot open") != std::string::npos) GTEST_SKIP() << err;
  ASSERT_EQ(err, "");
  EXPECT_EQ(f.op_key, op_key);
  EXPECT_GE(f.cases.size(), min_cases);
  for (const Case& c : f.cases) {
    ASSERT_FALSE(c.args.empty()) << c.name;
    EXPECT_TRUE(c.args.back().is_out) << c.name << ": out argument must come last";
    if (c.expect_error) continue;
    size_t k = 0;
    for (const CaseArg& a : c.args) {
      if (!a.is_out || a.kind != ArgKind::Tensor) continue;
      ASSERT_LT(k, c.outputs.size()) << c.name;
      EXPECT_EQ(a.tensor.sizes, c.outputs[k].sizes) << c.name;
      EXPECT_EQ(a.tensor.dtype, c.outputs[k].dtype) << c.name;
      EXPECT_EQ(a.tensor.dim_order, c.outputs[k].dim_order) << c.name;
      ++k;
    }
  }
}

TEST(CaseFileTest, GeneratedAddOut) {
  check_generated("aten::add.out", 20);
  CaseFile f;
  if (!read_case_file(runfile("kernels/test/cases/aten__add.out.case"), &f).empty()) return;
  // Schema order with the default filled in: self, other, alpha, out.
  const Case& c = f.cases[0];
  ASSERT_EQ(c.args.size(), 4u);
  EXPECT_EQ(c.args[0].name, "self");
  EXPECT_EQ(c.args[1].name, "other");
  EXPECT_EQ(c.args[2].name, "alpha");
  EXPECT_EQ(c.args[2].kind, ArgKind::Int);
  EXPECT_EQ(c.args[2].int_value, 1);
  EXPECT_EQ(c.args[3].name, "out");
  // Recompute a float32 same-shape case by hand: out = self + other.
  for (const Case& k : f.cases) {
    if (k.name != "f32_same_2x3") continue;
    const auto* a = reinterpret_cast<const float*>(k.args[0].tensor.data.data());
    const auto* b = reinterpret_cast<const float*>(k.args[1].tensor.data.data());
    const auto* o = reinterpret_cast<const float*>(k.outputs[0].data.data());
    for (int i = 0; i < 6; ++i) EXPECT_FLOAT_EQ(o[i], a[i] + b[i]);
    return;
  }
  ADD_FAILURE() << "case f32_same_2x3 not found";
}

TEST(CaseFileTest, GeneratedConvolution) { check_generated("aten::convolution.out", 10); }

TEST(CaseFileTest, GeneratedMaxPoolHasTwoOuts) {
  check_generated("aten::max_pool2d_with_indices.out", 5);
  CaseFile f;
  if (!read_case_file(runfile("kernels/test/cases/aten__max_pool2d_with_indices.out.case"), &f)
           .empty()) {
    return;
  }
  const Case& c = f.cases[0];
  ASSERT_GE(c.args.size(), 2u);
  EXPECT_EQ(c.args[c.args.size() - 2].name, "out");
  EXPECT_EQ(c.args.back().name, "indices");
  EXPECT_EQ(c.outputs.size(), 2u);
  EXPECT_EQ(c.outputs[1].dtype, ScalarType::Long);
}

// A tensor of the given dtype and sizes whose little-endian element bytes are `bits`.
TensorData make_tensor(ScalarType dtype, std::vector<int64_t> sizes, std::vector<uint64_t> bits,
                       std::vector<uint8_t> dim_order = {}) {
  TensorData t;
  t.dtype = dtype;
  t.sizes = std::move(sizes);
  if (dim_order.empty()) {
    for (size_t i = 0; i < t.sizes.size(); ++i) dim_order.push_back(static_cast<uint8_t>(i));
  }
  t.dim_order = std::move(dim_order);
  const size_t elem = case_dtype_size(static_cast<uint8_t>(dtype));
  for (uint64_t b : bits) {
    for (size_t i = 0; i < elem; ++i) t.data.push_back(static_cast<uint8_t>(b >> (8 * i)));
  }
  return t;
}

uint64_t f32_bits(float f) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}

TEST(CaseCompareTest, DecodesHalfAndBFloat16) {
  // IEEE half: 1.0, -2.0, +inf, NaN, smallest subnormal (2^-24), 65504 (max).
  const TensorData h = make_tensor(ScalarType::Half, {6},
                                   {0x3C00, 0xC000, 0x7C00, 0x7E00, 0x0001, 0x7BFF});
  EXPECT_EQ(case_element_as_double(h, 0), 1.0);
  EXPECT_EQ(case_element_as_double(h, 1), -2.0);
  EXPECT_TRUE(std::isinf(case_element_as_double(h, 2)));
  EXPECT_TRUE(std::isnan(case_element_as_double(h, 3)));
  EXPECT_EQ(case_element_as_double(h, 4), std::ldexp(1.0, -24));
  EXPECT_EQ(case_element_as_double(h, 5), 65504.0);
  // bfloat16 is the top half of a float32: 0x3F80 = 1.0, 0xC0A0 = -5.0.
  const TensorData b = make_tensor(ScalarType::BFloat16, {2}, {0x3F80, 0xC0A0});
  EXPECT_EQ(case_element_as_double(b, 0), 1.0);
  EXPECT_EQ(case_element_as_double(b, 1), -5.0);
  const TensorData i8 = make_tensor(ScalarType::Char, {1}, {0xFF});
  EXPECT_EQ(case_element_as_double(i8, 0), -1.0);
}

TEST(CaseCompareTest, ComparesInLogicalOrderWithTolerance) {
  // Logical [1,2,1,2] NCHW values c0=(1,2), c1=(3,4): contiguous bytes 1,2,3,4; channels-last
  // physical order (w0: c0, c1), (w1: c0, c1) = 1,3,2,4.
  const TensorData nchw = make_tensor(ScalarType::Float, {1, 2, 1, 2},
                                      {f32_bits(1), f32_bits(2), f32_bits(3), f32_bits(4)});
  const TensorData nhwc = make_tensor(ScalarType::Float, {1, 2, 1, 2},
                                      {f32_bits(1), f32_bits(3), f32_bits(2), f32_bits(4)},
                                      {0, 2, 3, 1});
  EXPECT_EQ(compare_tensors(nhwc, nchw, 0, 0), "");
  const TensorData off = make_tensor(ScalarType::Float, {1, 2, 1, 2},
                                     {f32_bits(1), f32_bits(2), f32_bits(3.001f), f32_bits(4)});
  EXPECT_NE(compare_tensors(off, nchw, 1e-4, 0).find("element [0,1,0,0]"), std::string::npos);
  EXPECT_EQ(compare_tensors(off, nchw, 1e-4, 1e-3), "");  // within rtol * |3|
  EXPECT_NE(compare_tensors(nchw, make_tensor(ScalarType::Double, {4}, {0, 0, 0, 0}), 0, 0)
                .find("dtype float32"),
            std::string::npos);
  EXPECT_NE(compare_tensors(nchw, make_tensor(ScalarType::Float, {4}, {0, 0, 0, 0}), 0, 0)
                .find("sizes [1,2,1,2]"),
            std::string::npos);
}

TEST(CaseCompareTest, NonFiniteAndIntegerRules) {
  const uint64_t nan = f32_bits(std::nanf("")), inf = f32_bits(INFINITY);
  const TensorData want = make_tensor(ScalarType::Float, {2}, {nan, inf});
  EXPECT_EQ(compare_tensors(make_tensor(ScalarType::Float, {2}, {nan, inf}), want, 1, 1), "");
  EXPECT_NE(compare_tensors(make_tensor(ScalarType::Float, {2}, {f32_bits(1), inf}), want, 1, 1),
            "");
  EXPECT_NE(compare_tensors(make_tensor(ScalarType::Float, {2}, {nan, f32_bits(-INFINITY)}),
                            want, 1, 1),
            "");
  const TensorData one = make_tensor(ScalarType::Float, {1}, {f32_bits(1)});
  EXPECT_NE(compare_tensors(make_tensor(ScalarType::Float, {1}, {nan}), one, 1, 1), "");
  // int64 is compared bit-exactly, beyond double precision: 2^62 + 1 vs 2^62.
  const TensorData big = make_tensor(ScalarType::Long, {1}, {(uint64_t{1} << 62) + 1});
  EXPECT_NE(compare_tensors(big, make_tensor(ScalarType::Long, {1}, {uint64_t{1} << 62}), 1, 1),
            "");
  EXPECT_EQ(compare_tensors(big, big, 0, 0), "");
}

TEST(CaseCompareTest, HandComputedAddMatchesGeneratedFloatCases) {
  CaseFile f;
  if (!read_case_file(runfile("kernels/test/cases/aten__add.out.case"), &f).empty()) {
    GTEST_SKIP() << "aten__add.out.case not present";
  }
  int checked = 0;
  for (const Case& c : f.cases) {
    const TensorData& a = c.args[0].tensor;
    const TensorData& b = c.args[1].tensor;
    if (c.expect_error || a.dtype != ScalarType::Float || b.dtype != ScalarType::Float ||
        a.sizes != b.sizes || !a.is_contiguous_order() || !b.is_contiguous_order() ||
        c.args[2].kind != ArgKind::Int) {
      continue;
    }
    // out = self + alpha * other, computed here in double and rounded to float.
    TensorData got = c.outputs[0];
    const double alpha = static_cast<double>(c.args[2].int_value);
    for (size_t i = 0; i < static_cast<size_t>(a.numel()); ++i) {
      const float v = static_cast<float>(case_element_as_double(a, i) +
                                         alpha * case_element_as_double(b, i));
      std::memcpy(got.data.data() + 4 * i, &v, 4);
    }
    EXPECT_EQ(compare_tensors(got, c.outputs[0], c.atol, c.rtol), "") << c.name;
    ++checked;
  }
  EXPECT_GE(checked, 5);
}

TEST(CaseFileTest, AllGeneratedFilesParse) {
  const std::string dir = runfile("kernels/test/cases");
  const std::vector<std::string> names = ember::testing::list_files(dir, ".case");
  if (names.empty()) GTEST_SKIP() << "no generated case files in " << dir;
  EXPECT_GE(names.size(), 100u);
  size_t cases = 0;
  for (const std::string& name : names) {
    CaseFile f;
    ASSERT_EQ(read_case_file(dir + "/" + name, &f), "") << name;
    EXPECT_EQ(case_file_name(f.op_key), name);
    EXPECT_FALSE(f.cases.empty()) << name;
    cases += f.cases.size();
  }
  EXPECT_GE(cases, 1000u);
}

}  // namespace
}  // namespace ember::kernels::testing
