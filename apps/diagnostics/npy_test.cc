// npy: files numpy 2.2 wrote (testdata/make_npy.py, run in the trixie chroot) parse to the
// dtype, shape and values the script saved; what numpy would not read, or Ember cannot take,
// is a named error; npy_header writes the bytes numpy writes for the same array.
#include "apps/diagnostics/npy.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "runtime/core/diagnostics.h"
#include "tests/support/shared_fixtures.h"

namespace ember::runtime {
namespace {

std::string testdata(const char* name) { return ember::testing::runfiles_root() + "/apps/diagnostics/testdata/" + name; }

std::vector<uint8_t> file_bytes(const char* name) {
  std::vector<uint8_t> bytes;
  EXPECT_TRUE(ember::testing::read_file(testdata(name), &bytes)) << name;
  return bytes;
}

TEST(Npy, ReadsFloatMatrix) {
  Result<NpyArray> a = read_npy(testdata("f32_2x3.npy"));
  ASSERT_TRUE(a.ok()) << last_error_message();
  EXPECT_EQ(a->header.dtype, ScalarType::Float);
  EXPECT_EQ(a->header.shape, (std::vector<int32_t>{2, 3}));
  EXPECT_EQ(a->header.data_offset, 128u);  // numpy pads version 1.0 headers to 64 bytes
  float v[6];
  memcpy(v, a->data(), sizeof(v));
  for (int i = 0; i < 6; ++i) EXPECT_EQ(v[i], float(i) - 2.5f);
}

TEST(Npy, ReadsOtherDtypesAndVersions) {
  Result<NpyArray> i = read_npy(testdata("i64_4.npy"));
  ASSERT_TRUE(i.ok()) << last_error_message();
  EXPECT_EQ(i->header.dtype, ScalarType::Long);
  int64_t big;
  memcpy(&big, i->data() + 24, 8);
  EXPECT_EQ(big, int64_t(1) << 40);
  Result<NpyArray> s = read_npy(testdata("f64_scalar.npy"));
  ASSERT_TRUE(s.ok()) << last_error_message();
  EXPECT_TRUE(s->header.shape.empty());
  EXPECT_EQ(s->header.data_size, 8u);
  Result<NpyArray> b = read_npy(testdata("bool_3.npy"));
  ASSERT_TRUE(b.ok()) << last_error_message();
  EXPECT_EQ(b->header.dtype, ScalarType::Bool);
  EXPECT_EQ(b->data()[1], 0);
  Result<NpyArray> v2 = read_npy(testdata("f32_v2.npy"));
  ASSERT_TRUE(v2.ok()) << last_error_message();
  EXPECT_EQ(v2->header.shape, std::vector<int32_t>{3});
}

TEST(Npy, RefusesFortranOrderAndBigEndian) {
  Result<NpyArray> f = read_npy(testdata("f32_fortran.npy"));
  ASSERT_FALSE(f.ok());
  EXPECT_EQ(f.error(), Error::NotSupported);
  EXPECT_NE(std::string(last_error_message()).find("fortran_order"), std::string::npos);
  Result<NpyArray> b = read_npy(testdata("f32_big_endian.npy"));
  ASSERT_FALSE(b.ok());
  EXPECT_EQ(b.error(), Error::NotSupported);
  EXPECT_NE(std::string(last_error_message()).find("big-endian"), std::string::npos);
}

TEST(Npy, MalformedFilesAreNamedErrors) {
  std::vector<uint8_t> good = file_bytes("f32_2x3.npy");
  ASSERT_EQ(good.size(), 152u);
  auto parse = [](const std::vector<uint8_t>& b) { return parse_npy(b.data(), b.size(), "t").error(); };
  // Truncated at every length: never Ok, never a crash.
  for (size_t n = 0; n < good.size(); ++n) {
    std::vector<uint8_t> cut(good.begin(), good.begin() + long(n));
    EXPECT_NE(parse(cut), Error::Ok) << n;
  }
  std::vector<uint8_t> extra = good;
  extra.push_back(0);
  EXPECT_EQ(parse(extra), Error::InvalidArgument);
  std::vector<uint8_t> magic = good;
  magic[1] = 'X';
  EXPECT_EQ(parse(magic), Error::InvalidArgument);
  std::vector<uint8_t> version = good;
  version[6] = 9;
  EXPECT_EQ(parse(version), Error::NotSupported);
  std::vector<uint8_t> huge_len = good;
  huge_len[8] = 0xff;
  huge_len[9] = 0xff;
  EXPECT_EQ(parse(huge_len), Error::InvalidArgument);
  auto with_dict = [&](const std::string& dict) {
    std::string h = npy_header(ScalarType::Float, {});
    std::string head = h.substr(0, 8);
    head += char(dict.size() & 0xff);
    head += char(dict.size() >> 8);
    std::vector<uint8_t> b(head.begin(), head.end());
    b.insert(b.end(), dict.begin(), dict.end());
    b.resize(b.size() + 4);
    return parse(b);
  };
  EXPECT_EQ(with_dict("{'descr': '<f4', 'fortran_order': False, 'shape': (), }"), Error::Ok);
  EXPECT_EQ(with_dict("{'descr': '<f4', 'fortran_order': False}"), Error::InvalidArgument);
  EXPECT_EQ(with_dict("{'descr': '<f4', 'fortran_order': False, 'shape': (), 'x': 1}"), Error::InvalidArgument);
  EXPECT_EQ(with_dict("{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': ()}"),
            Error::InvalidArgument);
  EXPECT_EQ(with_dict("{'descr': '<c8', 'fortran_order': False, 'shape': ()}"), Error::NotSupported);
  EXPECT_EQ(with_dict("{'descr': '<f4', 'fortran_order': Maybe, 'shape': ()}"), Error::InvalidArgument);
  EXPECT_EQ(with_dict("{'descr': '<f4', 'fortran_order': False, 'shape': (-1,)}"), Error::InvalidArgument);
  EXPECT_EQ(with_dict("{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999,)}"), Error::NotSupported);
  EXPECT_EQ(with_dict("{'descr': '<f4', 'fortran_order': False, 'shape': (65536, 65536, 65536, 65536)}"),
            Error::InvalidArgument);  // overflows size_t, and the 4 data bytes do not match
  EXPECT_EQ(with_dict("{'descr': '<f4', 'fortran_order': False, 'shape': (1)"), Error::InvalidArgument);
  EXPECT_EQ(with_dict("{'descr': '<f4"), Error::InvalidArgument);
}

TEST(Npy, HeaderMatchesNumpysBytes) {
  std::vector<uint8_t> good = file_bytes("f32_2x3.npy");
  const int32_t shape[] = {2, 3};
  const std::string h = npy_header(ScalarType::Float, Span<const int32_t>(shape, 2));
  ASSERT_EQ(h.size(), 128u);
  EXPECT_EQ(0, memcmp(h.data(), good.data(), 128));
  std::vector<uint8_t> b3 = file_bytes("bool_3.npy");
  const int32_t three[] = {3};
  const std::string hb = npy_header(ScalarType::Bool, Span<const int32_t>(three, 1));
  ASSERT_EQ(hb.size(), 128u);
  EXPECT_EQ(0, memcmp(hb.data(), b3.data(), 128));
  EXPECT_EQ(npy_header(ScalarType::BFloat16, {}), "");
}

TEST(Npy, WriteThenReadRoundTrips) {
  const std::string path = std::string(getenv("TEST_TMPDIR") ? getenv("TEST_TMPDIR") : "/tmp") + "/rt.npy";
  const int32_t shape[] = {2, 2};
  const int32_t values[] = {1, -2, 3, -4};
  ASSERT_EQ(write_npy(path, ScalarType::Int, Span<const int32_t>(shape, 2), values, sizeof(values)), Error::Ok);
  Result<NpyArray> a = read_npy(path);
  ASSERT_TRUE(a.ok()) << last_error_message();
  EXPECT_EQ(a->header.dtype, ScalarType::Int);
  EXPECT_EQ(0, memcmp(a->data(), values, sizeof(values)));
  EXPECT_EQ(write_npy(path, ScalarType::BFloat16, {}, values, 2), Error::NotSupported);
}

}  // namespace
}  // namespace ember::runtime
