// Table-driven tests of the XH00 header parser: well-formed headers from the
// writer's layout (pte-format.md 6.2) and every bounds rule broken once.
#include "backends/xnnpack/runtime/xnnpack_header.h"

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "runtime/core/diagnostics.h"

namespace ember::backends::xnnpack {
namespace {

void put_le(std::vector<uint8_t>& b, size_t at, uint64_t v, size_t n) {
  for (size_t i = 0; i < n; ++i) b[at + i] = uint8_t(v >> (8 * i));
}

std::vector<uint8_t> blob(size_t size, uint32_t fb_off, uint32_t fb_size, uint32_t c_off,
                          uint64_t c_size, const char* magic = "XH00") {
  std::vector<uint8_t> b(size, 0);
  std::memcpy(b.data() + 4, magic, 4);
  put_le(b, 8, 30, 2);
  put_le(b, 10, fb_off, 4);
  put_le(b, 14, fb_size, 4);
  put_le(b, 18, c_off, 4);
  put_le(b, 22, c_size, 8);
  return b;
}

TEST(XnnpackHeader, ParsesWriterLayout) {
  // 32-byte padded header, 48-byte flatbuffer, 16 constant bytes.
  const auto b = blob(96, 32, 48, 80, 16);
  ASSERT_TRUE(has_xnnpack_header(b.data(), b.size()));
  auto h = parse_xnnpack_header(b.data(), b.size());
  ASSERT_TRUE(h.ok());
  EXPECT_EQ(h->flatbuffer_offset, 32u);
  EXPECT_EQ(h->flatbuffer_size, 48u);
  EXPECT_EQ(h->constant_data_offset, 80u);
  EXPECT_EQ(h->constant_data_size, 16u);
}

TEST(XnnpackHeader, EmptyConstantRegionAtEnd) {
  const auto b = blob(80, 32, 48, 80, 0);
  EXPECT_TRUE(parse_xnnpack_header(b.data(), b.size()).ok());
}

TEST(XnnpackHeader, LegacyBlobHasNoHeader) {
  auto b = blob(96, 32, 48, 80, 16, "XN01");  // a bare FlatBuffer has its id there
  EXPECT_FALSE(has_xnnpack_header(b.data(), b.size()));
  EXPECT_FALSE(has_xnnpack_header(b.data(), 29));
  EXPECT_FALSE(has_xnnpack_header(nullptr, 0));
}

std::vector<uint8_t> truncated(std::vector<uint8_t> b, size_t n) {
  b.resize(n);
  return b;
}

struct BadCase {
  const char* name;
  std::vector<uint8_t> bytes;
  const char* message_part;
};

TEST(XnnpackHeader, BadHeadersGetNamedErrors) {
  const BadCase cases[] = {
      {"too short", truncated(blob(96, 32, 48, 80, 16), 29), "header needs 30"},
      {"flatbuffer too small", blob(96, 32, 4, 80, 16), "flatbuffer_size 4"},
      {"flatbuffer past end", blob(96, 32, 100, 140, 0), "runs past the blob end"},
      {"flatbuffer offset overflow", blob(96, 0xFFFFFFF0u, 48, 80, 0), "runs past the blob end"},
      {"constants overlap flatbuffer", blob(96, 32, 48, 40, 16), "inside the flatbuffer"},
      {"constants past end", blob(96, 32, 48, 80, 17), "constant data"},
      {"constant offset past end", blob(96, 32, 48, 200, 0), "constant data"},
      {"huge constant size", blob(96, 32, 48, 80, ~0ull), "constant data"},
      {"wrong magic", blob(96, 32, 48, 80, 16, "XH01"), "no XH00 magic"},
  };
  for (const BadCase& c : cases) {
    SCOPED_TRACE(c.name);
    runtime::clear_error_message();
    auto h = parse_xnnpack_header(c.bytes.data(), c.bytes.size());
    ASSERT_FALSE(h.ok());
    EXPECT_EQ(h.error(), runtime::Error::InvalidProgram);
    EXPECT_NE(std::strstr(runtime::last_error_message(), c.message_part), nullptr)
        << runtime::last_error_message();
  }
}

}  // namespace
}  // namespace ember::backends::xnnpack
