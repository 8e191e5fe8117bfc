// XnnpackGraphBuilder's blobs: the XH00 header fields and FlatBuffer (identifier XN01,
// verifier, reserved constant_data[0], named keys = SHA-256 hex of the bytes), and a
// round trip through the runtime half (XnnpackBackend init + execute) with constants
// inline and in named data. Expected numbers are worked by hand in the comments.
#include "backends/xnnpack/aot/xnnpack_graph_builder.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <map>
#include <string>

#include "backends/xnnpack/runtime/xnnpack_backend.h"
#include "runtime/core/memory_allocator.h"
#include "runtime/core/named_data_map.h"

namespace ember::backends::xnnpack {
namespace {

namespace fb = fb_xnnpack;

std::vector<uint8_t> floats(std::vector<float> f) {
  std::vector<uint8_t> b(f.size() * 4);
  std::memcpy(b.data(), f.data(), b.size());
  return b;
}

// y = clamp(x @ W^T + b, 0, inf) with x [1,2], W [[1,0],[1,1]], b [0.5, -10].
XnnpackGraphBuilder fc_graph() {
  XnnpackGraphBuilder g;
  uint32_t x = g.add_value({1, 2});
  g.set_external(x, 0, kFlagExternalInput);
  uint32_t w = g.add_constant({2, 2}, floats({1, 0, 1, 1}));
  uint32_t b = g.add_constant({2}, floats({0.5f, -10.f}));
  uint32_t y = g.add_value({1, 2});
  g.set_external(y, 1, kFlagExternalOutput);
  auto* fc = new fb::XNNFullyConnectedT();
  fc->input1_id = x;
  fc->filter_id = w;
  fc->bias_id = b;
  fc->output_id = y;
  g.set_output_min_max(g.add_node(fb::XNodeUnion::XNNFullyConnected, fc), 0.f, INFINITY);
  return g;
}

class MapData final : public runtime::NamedDataMap {
 public:
  std::map<std::string, std::vector<uint8_t>> entries;
  runtime::Result<runtime::FreeableBuffer> get_data(std::string_view key) const override {
    auto it = entries.find(std::string(key));
    if (it == entries.end()) return runtime::Error::NotFound;
    return runtime::FreeableBuffer(it->second.data(), it->second.size());
  }
  size_t num_keys() const override { return entries.size(); }
  runtime::Result<std::string_view> key_at(size_t i) const override {
    auto it = entries.begin();
    std::advance(it, i);
    return std::string_view(it->first);
  }
};

// Runs a 1x2 -> 1x2 blob through XnnpackBackend.
std::vector<float> run_blob(const std::vector<uint8_t>& blob, const runtime::NamedDataMap* named,
                            std::vector<float> x) {
  std::vector<uint8_t> arena(1 << 20);
  runtime::MemoryAllocator allocator(arena.data(), arena.size());
  runtime::BackendInitContext ictx(&allocator, "forward", named);
  runtime::FreeableBuffer buffer(blob.data(), blob.size());
  auto h = backend_instance().init(ictx, &buffer, {});
  EXPECT_TRUE(h.ok());
  if (!h.ok()) return {};
  int32_t sizes_in[2] = {1, 2}, sizes_out[2] = {1, 2}, strides[2][2];
  uint8_t order[2] = {0, 1};
  x.resize(16, 0.f);  // XNNPACK may read past the end
  std::vector<float> y(16, -1.f);
  runtime::Tensor tin(runtime::ScalarType::Float, 2, sizes_in, order, strides[0], x.data());
  runtime::Tensor tout(runtime::ScalarType::Float, 2, sizes_out, order, strides[1], y.data());
  runtime::EValue ein(&tin), eout(&tout);
  runtime::EValue* args[] = {&ein, &eout};
  runtime::BackendExecutionContext ectx(nullptr, "forward", nullptr);
  EXPECT_EQ(backend_instance().execute(ectx, h.get(), {args, 2}), runtime::Error::Ok);
  backend_instance().destroy(h.get());
  return {y[0], y[1]};
}

TEST(XnnpackGraphBuilderTest, HeaderAndFlatBufferLayout) {
  auto blob = fc_graph().serialize(ConstantPlacement::Inline);
  ASSERT_TRUE(blob.ok()) << ::ember::aot::format_error(blob.error());
  const std::vector<uint8_t>& b = blob->bytes;
  EXPECT_EQ(std::memcmp(b.data(), "\0\0\0\0XH00", 8), 0);
  EXPECT_EQ(b[8] | (b[9] << 8), 30);
  auto h = parse_xnnpack_header(b);
  ASSERT_TRUE(h.ok());
  EXPECT_EQ(h->flatbuffer_offset, 32u);
  EXPECT_EQ(h->constant_data_offset, 32u + ((h->flatbuffer_size + 15) / 16) * 16);
  EXPECT_EQ(h->constant_data_size, 32u);  // 16 B filter + 8 B bias padded to 16
  flatbuffers::Verifier v(b.data() + 32, h->flatbuffer_size);
  ASSERT_TRUE(fb::VerifyXNNGraphBuffer(v));
  EXPECT_TRUE(fb::XNNGraphBufferHasIdentifier(b.data() + 32));
  EXPECT_EQ(std::memcmp(b.data() + 32 + 4, "XN01", 4), 0);
  const fb::XNNGraph* g = fb::GetXNNGraph(b.data() + 32);
  EXPECT_EQ(g->num_externs(), 2u);
  ASSERT_EQ(g->constant_data()->size(), 3u);
  EXPECT_EQ(g->constant_data()->Get(0)->size(), 0u);
  EXPECT_EQ(g->constant_data()->Get(1)->offset(), 0u);
  EXPECT_EQ(g->constant_data()->Get(2)->offset(), 16u);
  EXPECT_EQ(g->xvalues()->Get(1)->xvalue_union_as_XNNTensorValue()->constant_buffer_idx(), 1u);
  EXPECT_EQ(g->xvalues()->Get(0)->xvalue_union_as_XNNTensorValue()->external_id(), 0u);
  EXPECT_EQ(g->xvalues()->Get(3)->xvalue_union_as_XNNTensorValue()->flags(), 2u);
  EXPECT_EQ(g->xnodes()->Get(0)->output_min_max()->output_min(), 0.f);
}

TEST(XnnpackGraphBuilderTest, NamedDataKeysAreSha256Hex) {
  XnnpackGraphBuilder g;
  uint32_t x = g.add_value({3});
  g.set_external(x, 0, kFlagExternalInput);
  uint32_t c = g.add_constant({3}, {'a', 'b', 'c'});  // only the key is checked here
  uint32_t y = g.add_value({3});
  g.set_external(y, 1, kFlagExternalOutput);
  g.binary(fb::XNodeUnion::XNNAdd, x, c, y);
  auto blob = g.serialize(ConstantPlacement::NamedData);
  ASSERT_TRUE(blob.ok());
  // SHA-256("abc"), FIPS 180-2 appendix B.1.
  const std::string key = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
  ASSERT_EQ(blob->named_data.size(), 1u);
  EXPECT_EQ(blob->named_data[0].first, key);
  auto h = parse_xnnpack_header(blob->bytes);
  ASSERT_TRUE(h.ok());
  EXPECT_EQ(h->constant_data_size, 0u);
  const fb::XNNGraph* fg = fb::GetXNNGraph(blob->bytes.data() + 32);
  EXPECT_EQ(fg->constant_data()->Get(1)->offset(), UINT64_MAX);
  EXPECT_EQ(fg->constant_data()->Get(1)->named_key()->str(), key);
}

TEST(XnnpackGraphBuilderTest, RuntimeRunsInlineAndNamedConstants) {
  // x = [1, 2]: W x = [1, 3]; + b = [1.5, -7]; clamp at 0 -> [1.5, 0].
  auto inline_blob = fc_graph().serialize(ConstantPlacement::Inline);
  ASSERT_TRUE(inline_blob.ok());
  EXPECT_EQ(run_blob(inline_blob->bytes, nullptr, {1, 2}), (std::vector<float>{1.5f, 0.f}));
  auto named_blob = fc_graph().serialize(ConstantPlacement::NamedData);
  ASSERT_TRUE(named_blob.ok());
  MapData named;
  for (auto& [k, bytes] : named_blob->named_data) named.entries[k] = bytes;
  EXPECT_EQ(named.entries.size(), 2u);
  EXPECT_EQ(run_blob(named_blob->bytes, &named, {1, 2}), (std::vector<float>{1.5f, 0.f}));
}

TEST(XnnpackGraphBuilderTest, ExternalIdErrorsAreNamed) {
  XnnpackGraphBuilder g;
  g.set_external(g.add_value({1}), 0, kFlagExternalInput);
  g.set_external(g.add_value({1}), 0, kFlagExternalOutput);
  auto dup = g.serialize(ConstantPlacement::Inline);
  ASSERT_FALSE(dup.ok());
  EXPECT_NE(std::string(::ember::runtime::last_error_message()).find("external id 0"), std::string::npos);
  XnnpackGraphBuilder gap;
  gap.set_external(gap.add_value({1}), 1, kFlagExternalInput);
  auto missing = gap.serialize(ConstantPlacement::Inline);
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(std::string(::ember::runtime::last_error_message()).find("no value has external id 0"), std::string::npos);
  EXPECT_FALSE(parse_xnnpack_header({1, 2, 3}).ok());
}

}  // namespace
}  // namespace ember::backends::xnnpack
