// Bad XNNPACK blobs get named errors at init, never a crash: a table of broken
// graphs (wrong identifier, truncated FlatBuffer, out-of-range value ids,
// missing constants, bad flags and external ids, unsupported nodes and
// datatypes), each with the error code and a piece of the expected message.
#include <gtest/gtest.h>

#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "backends/xnnpack/runtime/test_graphs.h"
#include "backends/xnnpack/runtime/xnnpack_backend.h"
#include "runtime/core/diagnostics.h"

namespace ember::backends::xnnpack::testing {
namespace {

using runtime::Error;

// x[2] + y[2] -> out[2]: a valid starting point each case breaks once.
GraphBuilder add_graph() {
  GraphBuilder g;
  const uint32_t x = g.tensor({2}, kIn, 0), y = g.tensor({2}, kIn, 1);
  const uint32_t out = g.tensor({2}, kOut, 2);
  g.node_2x1(XNodeUnion::XNNAdd, x, y, out);
  return g;
}

struct InitResult {
  Error error;
  std::string message;
};

InitResult init(const std::vector<uint8_t>& blob, const runtime::NamedDataMap* named = nullptr) {
  std::vector<uint8_t> arena(1 << 20);
  runtime::MemoryAllocator allocator(arena.data(), arena.size());
  runtime::BackendInitContext ctx(&allocator, "forward", named);
  runtime::FreeableBuffer buffer(blob.data(), blob.size());
  runtime::clear_error_message();
  auto handle = backend_instance().init(ctx, &buffer, {});
  if (handle.ok()) {
    backend_instance().destroy(handle.get());
    return {Error::Ok, ""};
  }
  return {handle.error(), runtime::last_error_message()};
}

TEST(GraphReader, ValidGraphInitialises) {
  EXPECT_EQ(init(add_graph().blob()).error, Error::Ok);
  EXPECT_EQ(init(add_graph().blob(true, "XN00")).error, Error::Ok);  // older identifier
  EXPECT_EQ(init(add_graph().blob(false)).error, Error::Ok);         // legacy, no header
}

struct BadCase {
  const char* name;
  std::function<std::vector<uint8_t>()> make;
  Error error;
  const char* message_part;
};

std::vector<uint8_t> with(const std::function<void(GraphBuilder&)>& edit, bool header = true) {
  GraphBuilder g = add_graph();
  edit(g);
  return g.blob(header);
}

fb_xnnpack::XNNTensorValueT* value(GraphBuilder& g, size_t i) {
  return g.graph.xvalues[i]->xvalue_union.AsXNNTensorValue();
}

TEST(GraphReader, BadBlobsGetNamedErrors) {
  const BadCase cases[] = {
      {"wrong identifier", [] { return add_graph().blob(true, "XN99"); },
       Error::DelegateInvalidCompatibility, "identifier 'XN99'"},
      {"truncated flatbuffer",
       [] {
         auto b = add_graph().blob(false);
         b.resize(b.size() / 2);
         return b;
       },
       Error::InvalidProgram, "fails verification"},
      {"header flatbuffer past end",
       [] {
         auto b = add_graph().blob();
         b[14] = 0xFF;
         b[15] = 0xFF;
         return b;
       },
       Error::InvalidProgram, "runs past the blob end"},
      {"node input id out of range",
       [] { return with([](GraphBuilder& g) { g.node_2x1(XNodeUnion::XNNAdd, 0, 7, 2); }); },
       Error::InvalidProgram, "node 1 (XNNAdd): input 1 refers to value id 7"},
      {"id_out out of range", [] { return with([](GraphBuilder& g) { value(g, 1)->id_out = 9; }); },
       Error::InvalidProgram, "id_out 9 out of range"},
      {"id_out twice", [] { return with([](GraphBuilder& g) { value(g, 1)->id_out = 0; }); },
       Error::InvalidProgram, "id_out 0 defined twice"},
      {"num_dims mismatch", [] { return with([](GraphBuilder& g) { value(g, 0)->num_dims = 3; }); },
       Error::InvalidProgram, "num_dims 3, 1 dims given"},
      {"persistent flag", [] { return with([](GraphBuilder& g) { value(g, 0)->flags = 0x4; }); },
       Error::InvalidProgram, "flags 0x4"},
      {"external id past num_externs",
       [] { return with([](GraphBuilder& g) { value(g, 2)->external_id = 5; }); },
       Error::InvalidProgram, "external_id 5, num_externs is 3"},
      {"external id reused",
       [] { return with([](GraphBuilder& g) { value(g, 1)->external_id = 0; }); },
       Error::InvalidProgram, "external_id 0 already used"},
      {"constant index out of range",
       [] {
         return with(
             [](GraphBuilder& g) { value(g, 1)->flags = 0, value(g, 1)->constant_buffer_idx = 4; });
       },
       Error::InvalidProgram, "constant_data index 4 out of range"},
      {"legacy constant index out of range",
       [] {
         return with(
             [](GraphBuilder& g) { value(g, 1)->flags = 0, value(g, 1)->constant_buffer_idx = 2; },
             false);
       },
       Error::InvalidProgram, "constant_buffer index 2 out of range"},
      {"missing named constant",
       [] {
         GraphBuilder g;
         const uint32_t x = g.tensor({2}, kIn, 0);
         const uint32_t c = g.constant({2}, {1.f, 2.f}, "deadbeef");
         g.node_2x1(XNodeUnion::XNNAdd, x, c, g.tensor({2}, kOut, 1));
         return g.blob();
       },
       Error::NotFound, "constant 'deadbeef'"},
      {"constant shorter than its shape",
       [] {
         GraphBuilder g;
         const uint32_t x = g.tensor({4}, kIn, 0);
         const uint32_t c = g.constant({4}, {1.f, 2.f});
         g.node_2x1(XNodeUnion::XNNAdd, x, c, g.tensor({4}, kOut, 1));
         return g.blob();
       },
       Error::InvalidProgram, "constant has 8 bytes, its xnn_datatype_fp32 shape needs 16"},
      {"input never written",
       [] {
         return with([](GraphBuilder& g) {
           const uint32_t t = g.tensor({2});
           g.node_2x1(XNodeUnion::XNNAdd, t, 0, g.tensor({2}));
         });
       },
       Error::InvalidProgram, "node 1 (XNNAdd): input 0 (value 3) is not a constant"},
      {"output written twice",
       [] { return with([](GraphBuilder& g) { g.node_2x1(XNodeUnion::XNNAdd, 0, 1, 2); }); },
       Error::InvalidProgram, "node 1 (XNNAdd): output 0 (value 2)"},
      {"attention without a mask",
       [] { return with([](GraphBuilder& g) { g.sdpa(0, 1, 0, 0, kInternal, g.tensor({2})); }); },
       Error::NotSupported, "node 1 (XNNScaledDotProductAttention): no mask (input 4)"},
      {"fp16 plus fp32",
       [] {
         GraphBuilder g;
         const auto h = XNNDatatype::xnn_datatype_fp16;
         const uint32_t x = g.tensor({2}, kIn, 0, h), y = g.tensor({2}, kIn, 1);
         g.node_2x1(XNodeUnion::XNNAdd, x, y, g.tensor({2}, kOut, 2, h));
         return g.blob();
       },
       Error::NotSupported, "node 0 (XNNAdd): xnn_define_binary failed"},
      {"int4 activation",
       [] {
         GraphBuilder g;
         const uint32_t x = g.tensor({2}, kIn, 0, XNNDatatype::xnn_datatype_qcint4);
         g.node_1x1(XNodeUnion::XNNAbs, x, g.tensor({2}, kOut, 1));
         return g.blob();
       },
       Error::NotSupported, "value 0: defining a xnn_datatype_qcint4 tensor of rank 1 failed"},
      {"int8 without quantization parameters",
       [] {
         GraphBuilder g;
         const auto q = XNNDatatype::xnn_datatype_qint8;
         g.node_1x1(XNodeUnion::XNNTanh, g.tensor({2}, kIn, 0, q), g.tensor({2}, kOut, 1, q));
         return g.blob();
       },
       Error::NotSupported, "defining a xnn_datatype_qint8 tensor of rank 1 failed"},
      {"per-token dynamic quantization of fp32",
       [] {
         GraphBuilder g;
         const uint32_t x = g.tensor({2, 4}, kIn, 0);
         const uint32_t q = g.tensor({2, 4});
         g.graph.xvalues[q]->xvalue_union.Reset();
         fb_xnnpack::XNNQuantizedTensorValueT qv;
         qv.tensor_value = std::make_unique<fb_xnnpack::XNNTensorValueT>();
         qv.tensor_value->datatype = XNNDatatype::xnn_datatype_fp32;
         qv.tensor_value->num_dims = 2;
         qv.tensor_value->dims = {2, 4};
         qv.tensor_value->id_out = q;
         qv.tensor_value->external_id = kInternal;
         fb_xnnpack::PerTokenDynamicQuantT p;
         p.num_nonbatch_dims = 1;
         qv.quant_params.Set(std::move(p));
         g.graph.xvalues[q]->xvalue_union.Set(std::move(qv));
         g.node_1x1(XNodeUnion::XNNConvert, x, q);
         g.node_1x1(XNodeUnion::XNNConvert, q, g.tensor({2, 4}, kOut, 1));
         return g.blob();
       },
       Error::InvalidProgram, "PerTokenDynamicQuant needs a qdint8 tensor"},
      {"transpose perm too short",
       [] {
         GraphBuilder g;
         g.transpose({1, 0}, g.tensor({2, 3, 4}, kIn, 0), g.tensor({4, 3, 2}, kOut, 1));
         return g.blob();
       },
       Error::InvalidArgument, "node 0 (XNNStaticTranspose): input shapes do not fit"},
  };
  for (const BadCase& c : cases) {
    SCOPED_TRACE(c.name);
    const InitResult r = init(c.make());
    EXPECT_EQ(r.error, c.error) << runtime::error_name(r.error) << ": " << r.message;
    EXPECT_NE(r.message.find(c.message_part), std::string::npos) << r.message;
  }
}

TEST(GraphReader, GarbageNeverCrashes) {
  // Every single-byte corruption of a valid blob either loads or fails cleanly.
  const std::vector<uint8_t> good = add_graph().blob();
  for (size_t i = 0; i < good.size(); ++i) {
    std::vector<uint8_t> bad = good;
    bad[i] ^= 0xA5;
    (void)init(bad);
  }
  SUCCEED();
}

// Found by xnnpack_blob_fuzz: a quantized value whose quant_params union has a type but no
// table passes the FlatBuffer verifier; reading its scale dereferenced null.
TEST(GraphReader, QuantParamsTypeWithoutTableIsNamed) {
  flatbuffers::FlatBufferBuilder fbb;
  const auto dims = fbb.CreateVector<uint32_t>({2});
  fb_xnnpack::XNNTensorValueBuilder tb(fbb);
  tb.add_datatype(XNNDatatype::xnn_datatype_qint8);
  tb.add_num_dims(1);
  tb.add_dims(dims);
  tb.add_external_id(0);
  tb.add_flags(kIn);
  const auto tensor = tb.Finish();
  fb_xnnpack::XNNQuantizedTensorValueBuilder qb(fbb);
  qb.add_tensor_value(tensor);
  qb.add_quant_params_type(fb_xnnpack::XNNQuantParams::PerTensorQuant);  // no add_quant_params
  const auto quantized = qb.Finish();
  fb_xnnpack::XValueBuilder vb(fbb);
  vb.add_xvalue_union_type(fb_xnnpack::XValueUnion::XNNQuantizedTensorValue);
  vb.add_xvalue_union(quantized.Union());
  const auto value = vb.Finish();
  const auto values = fbb.CreateVector(std::vector<flatbuffers::Offset<fb_xnnpack::XValue>>{value});
  fb_xnnpack::XNNGraphBuilder gb(fbb);
  gb.add_xvalues(values);
  gb.add_num_externs(1);
  fbb.Finish(gb.Finish(), "XN01");
  const std::vector<uint8_t> blob(fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize());
  const InitResult r = init(blob);
  EXPECT_EQ(r.error, Error::InvalidProgram) << r.message;
  EXPECT_NE(r.message.find("PerTensorQuant quant_params without their table"), std::string::npos)
      << r.message;
}

}  // namespace
}  // namespace ember::backends::xnnpack::testing
