// XnnpackGraphBuilder (see xnnpack_graph_builder.h): value/node bookkeeping and the XH00 blob.
#include "backends/xnnpack/aot/xnnpack_graph_builder.h"

#include <cstring>

#include "aot/emit/sha256.h"

namespace ember::backends::xnnpack {

namespace fb = fb_xnnpack;

namespace {

constexpr size_t kHeaderSize = 32;  // 30 bytes of fields, padded to 16
constexpr uint16_t kHeaderFieldsSize = 30;

size_t align16(size_t n) { return (n + 15) & ~size_t(15); }

template <typename T>
void put_le(std::vector<uint8_t>& out, size_t at, T v) {
  for (size_t i = 0; i < sizeof(T); ++i) out[at + i] = static_cast<uint8_t>(uint64_t(v) >> (8 * i));
}

template <typename T>
T get_le(const std::vector<uint8_t>& in, size_t at) {
  uint64_t v = 0;
  for (size_t i = 0; i < sizeof(T); ++i) v |= uint64_t(in[at + i]) << (8 * i);
  return static_cast<T>(v);
}

// A plain XNNTensorValue, or an XNNQuantizedTensorValue wrapping it with its parameters.
std::unique_ptr<fb::XValueT> make_xvalue(std::unique_ptr<fb::XNNTensorValueT> tv, const ValueType& t) {
  auto xv = std::make_unique<fb::XValueT>();
  if (t.quant == ValueType::Quant::None) {
    xv->xvalue_union.Set(std::move(*tv));
    return xv;
  }
  fb::XNNQuantizedTensorValueT q;
  q.tensor_value = std::move(tv);
  if (t.quant == ValueType::Quant::PerTensor) {
    fb::PerTensorQuantT p;
    p.scale = t.scale;
    p.zero_point = t.zero_point;
    q.quant_params.Set(std::move(p));
  } else if (t.quant == ValueType::Quant::PerChannel) {
    fb::PerChannelQuantT p;
    p.scale = t.scales;
    p.channel_dim = t.channel_dim;
    q.quant_params.Set(std::move(p));
  } else if (t.quant == ValueType::Quant::PerChannelGroup) {
    fb::PerChannelGroupQuantT p;
    p.scale = t.scales;
    p.channel_dim = t.channel_dim;
    p.group_size = t.group_size;
    q.quant_params.Set(std::move(p));
  } else {
    fb::PerTokenDynamicQuantT p;
    p.num_nonbatch_dims = t.num_nonbatch_dims;
    q.quant_params.Set(std::move(p));
  }
  xv->xvalue_union.Set(std::move(q));
  return xv;
}

}  // namespace

ValueType ValueType::per_tensor(fb::XNNDatatype t, float scale, int32_t zero_point) {
  ValueType v;
  v.datatype = t;
  v.quant = Quant::PerTensor;
  v.scale = scale;
  v.zero_point = zero_point;
  return v;
}

ValueType ValueType::per_channel(fb::XNNDatatype t, std::vector<float> scales, int32_t channel_dim) {
  ValueType v;
  v.datatype = t;
  v.quant = Quant::PerChannel;
  v.scales = std::move(scales);
  v.channel_dim = channel_dim;
  return v;
}

ValueType ValueType::per_channel_group(fb::XNNDatatype t, std::vector<float> scales,
                                       int32_t channel_dim, int32_t group_size) {
  ValueType v = per_channel(t, std::move(scales), channel_dim);
  v.quant = Quant::PerChannelGroup;
  v.group_size = group_size;
  return v;
}

ValueType ValueType::per_token_dynamic(int32_t num_nonbatch_dims) {
  ValueType v;
  v.datatype = fb::XNNDatatype::xnn_datatype_qdint8;
  v.quant = Quant::PerTokenDynamic;
  v.num_nonbatch_dims = num_nonbatch_dims;
  return v;
}

uint32_t XnnpackGraphBuilder::add_value(std::vector<uint32_t> dims, ValueType type) {
  values_.push_back({std::move(dims), -1, kXnnInvalidId, 0, std::move(type)});
  return static_cast<uint32_t>(values_.size() - 1);
}

uint32_t XnnpackGraphBuilder::add_constant(std::vector<uint32_t> dims, std::vector<uint8_t> bytes,
                                           ValueType type) {
  constants_.push_back(std::move(bytes));
  values_.push_back({std::move(dims), static_cast<int32_t>(constants_.size() - 1), kXnnInvalidId, 0,
                     std::move(type)});
  return static_cast<uint32_t>(values_.size() - 1);
}

void XnnpackGraphBuilder::set_external(uint32_t id, uint32_t external_id, uint32_t flag) {
  values_[id].external_id = external_id;
  values_[id].flags = flag;
}

size_t XnnpackGraphBuilder::add_node(fb::XNodeUnion type, void* union_value) {
  auto n = std::make_unique<fb::XNodeT>();
  n->xnode_union.type = type;
  n->xnode_union.value = union_value;
  n->debug_handle = static_cast<uint32_t>(nodes_.size());
  nodes_.push_back(std::move(n));
  return nodes_.size() - 1;
}

void XnnpackGraphBuilder::set_output_min_max(size_t node, float lo, float hi) {
  auto mm = std::make_unique<fb::OutputMinMaxT>();
  mm->output_min = lo;
  mm->output_max = hi;
  nodes_[node]->output_min_max = std::move(mm);
}

size_t XnnpackGraphBuilder::unary(fb::XNodeUnion type, uint32_t in, uint32_t out) {
  auto* t = new fb::_XNNNode1x1T();
  t->input_id = in;
  t->output_id = out;
  return add_node(type, t);
}

size_t XnnpackGraphBuilder::binary(fb::XNodeUnion type, uint32_t a, uint32_t b, uint32_t out) {
  auto* t = new fb::_XNNNode2x1T();
  t->input1_id = a;
  t->input2_id = b;
  t->output_id = out;
  return add_node(type, t);
}

size_t XnnpackGraphBuilder::transpose(const std::vector<uint32_t>& perm, uint32_t in, uint32_t out) {
  auto* t = new fb::XNNStaticTransposeT();
  t->num_dims = static_cast<uint32_t>(perm.size());
  t->perm = perm;
  t->input_id = in;
  t->output_id = out;
  return add_node(fb::XNodeUnion::XNNStaticTranspose, t);
}

size_t XnnpackGraphBuilder::reshape(const std::vector<uint32_t>& shape, uint32_t in, uint32_t out) {
  auto* t = new fb::XNNStaticReshapeT();
  t->num_dims = static_cast<uint32_t>(shape.size());
  t->new_shape = shape;
  t->input_id = in;
  t->output_id = out;
  return add_node(fb::XNodeUnion::XNNStaticReshape, t);
}

aot::Result<XnnpackBlob> XnnpackGraphBuilder::serialize(ConstantPlacement placement) const {
  fb::XNNGraphT g;
  g.version = "0";
  XnnpackBlob blob;
  std::vector<uint8_t> region;
  g.constant_data.push_back(std::make_unique<fb::ConstantDataOffsetT>());  // reserved entry 0
  std::vector<uint32_t> buffer_idx(constants_.size(), 0);
  for (size_t c = 0; c < constants_.size(); ++c) {
    auto cd = std::make_unique<fb::ConstantDataOffsetT>();
    cd->size = constants_[c].size();
    if (placement == ConstantPlacement::NamedData) {
      cd->offset = UINT64_MAX;
      cd->named_key = aot::sha256_hex(constants_[c]);
      bool have = false;
      for (const auto& nd : blob.named_data) have = have || nd.first == cd->named_key;
      if (!have) blob.named_data.emplace_back(cd->named_key, constants_[c]);
    } else {
      cd->offset = region.size();
      region.insert(region.end(), constants_[c].begin(), constants_[c].end());
      region.resize(align16(region.size()), 0);
    }
    buffer_idx[c] = static_cast<uint32_t>(g.constant_data.size());
    g.constant_data.push_back(std::move(cd));
  }
  std::vector<int64_t> seen;
  for (uint32_t id = 0; id < values_.size(); ++id) {
    const ValueRec& v = values_[id];
    auto tv = std::make_unique<fb::XNNTensorValueT>();
    tv->datatype = v.type.datatype;
    tv->num_dims = static_cast<uint32_t>(v.dims.size());
    tv->dims = v.dims;
    tv->constant_buffer_idx = v.constant >= 0 ? buffer_idx[static_cast<size_t>(v.constant)] : 0;
    tv->external_id = v.external_id;
    tv->flags = v.flags;
    tv->id_out = id;
    if (v.flags != 0) {
      if (v.external_id >= seen.size()) seen.resize(v.external_id + 1, -1);
      if (seen[v.external_id] >= 0) {
        return aot::invalid_argument("XNNPACK graph: external id " + std::to_string(v.external_id) +
                                     " used by values " + std::to_string(seen[v.external_id]) +
                                     " and " + std::to_string(id));
      }
      seen[v.external_id] = id;
      (v.flags == kFlagExternalInput ? g.input_ids : g.output_ids).push_back(id);
    }
    g.xvalues.push_back(make_xvalue(std::move(tv), v.type));
  }
  for (size_t e = 0; e < seen.size(); ++e) {
    if (seen[e] < 0) return aot::invalid_argument("XNNPACK graph: no value has external id " + std::to_string(e));
  }
  g.num_externs = static_cast<uint32_t>(seen.size());
  for (const auto& n : nodes_) g.xnodes.push_back(std::make_unique<fb::XNodeT>(*n));

  flatbuffers::FlatBufferBuilder fbb;
  fb::FinishXNNGraphBuffer(fbb, fb::XNNGraph::Pack(fbb, &g));
  const size_t fb_size = fbb.GetSize();
  const size_t constant_offset = kHeaderSize + align16(fb_size);
  blob.bytes.assign(constant_offset + region.size(), 0);
  std::memcpy(blob.bytes.data() + 4, "XH00", 4);
  put_le<uint16_t>(blob.bytes, 8, kHeaderFieldsSize);
  put_le<uint32_t>(blob.bytes, 10, static_cast<uint32_t>(kHeaderSize));
  put_le<uint32_t>(blob.bytes, 14, static_cast<uint32_t>(fb_size));
  put_le<uint32_t>(blob.bytes, 18, static_cast<uint32_t>(constant_offset));
  put_le<uint64_t>(blob.bytes, 22, region.size());
  std::memcpy(blob.bytes.data() + kHeaderSize, fbb.GetBufferPointer(), fb_size);
  if (!region.empty()) std::memcpy(blob.bytes.data() + constant_offset, region.data(), region.size());
  return blob;
}

aot::Result<XnnpackHeaderView> parse_xnnpack_header(const std::vector<uint8_t>& blob) {
  if (blob.size() < kHeaderFieldsSize) {
    return aot::invalid_data("XNNPACK blob: " + std::to_string(blob.size()) +
                             " bytes, need at least 30 for the XH00 header");
  }
  if (std::memcmp(blob.data() + 4, "XH00", 4) != 0) return aot::invalid_data("XNNPACK blob: no XH00 magic");
  XnnpackHeaderView h;
  h.flatbuffer_offset = get_le<uint32_t>(blob, 10);
  h.flatbuffer_size = get_le<uint32_t>(blob, 14);
  h.constant_data_offset = get_le<uint32_t>(blob, 18);
  h.constant_data_size = get_le<uint64_t>(blob, 22);
  if (uint64_t(h.flatbuffer_offset) + h.flatbuffer_size > blob.size() ||
      uint64_t(h.constant_data_offset) + h.constant_data_size > blob.size()) {
    return aot::invalid_data("XNNPACK blob: header regions exceed the blob's " +
                             std::to_string(blob.size()) + " bytes");
  }
  return h;
}

}  // namespace ember::backends::xnnpack
