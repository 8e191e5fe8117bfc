// Test-only graph builder; see test_graphs.h.
#include "backends/xnnpack/runtime/test_graphs.h"

#include <cstring>

#include "runtime/core/diagnostics.h"

namespace ember::backends::xnnpack::testing {

GraphBuilder::GraphBuilder() {
  graph.version = "0";
  graph.constant_data.push_back(std::make_unique<fb_xnnpack::ConstantDataOffsetT>());
}

uint32_t GraphBuilder::tensor(std::vector<uint32_t> dims, uint32_t flags, uint32_t external_id,
                              XNNDatatype type) {
  fb_xnnpack::XNNTensorValueT t;
  t.datatype = type;
  t.num_dims = uint32_t(dims.size());
  t.dims = std::move(dims);
  t.external_id = external_id;
  t.flags = flags;
  t.id_out = uint32_t(graph.xvalues.size());
  if (flags != 0) graph.num_externs = std::max(graph.num_externs, external_id + 1);
  auto v = std::make_unique<fb_xnnpack::XValueT>();
  v->xvalue_union.Set(std::move(t));
  graph.xvalues.push_back(std::move(v));
  return uint32_t(graph.xvalues.size() - 1);
}

uint32_t GraphBuilder::constant(std::vector<uint32_t> dims, const std::vector<float>& values,
                                const std::string& named_key) {
  const uint32_t id = tensor(std::move(dims));
  auto entry = std::make_unique<fb_xnnpack::ConstantDataOffsetT>();
  entry->size = values.size() * sizeof(float);
  if (named_key.empty()) {
    while (constants.size() % 16 != 0) constants.push_back(0);
    entry->offset = constants.size();
    const auto* p = reinterpret_cast<const uint8_t*>(values.data());
    constants.insert(constants.end(), p, p + entry->size);
  } else {
    entry->offset = ~0ull;
    entry->named_key = named_key;
  }
  graph.xvalues.back()->xvalue_union.AsXNNTensorValue()->constant_buffer_idx =
      uint32_t(graph.constant_data.size());
  graph.constant_data.push_back(std::move(entry));
  return id;
}

uint32_t GraphBuilder::quantized(std::vector<uint32_t> dims, XNNDatatype type, float scale,
                                int32_t zero_point, uint32_t flags, uint32_t external_id) {
  const uint32_t id = tensor(std::move(dims), flags, external_id, type);
  auto& u = graph.xvalues.back()->xvalue_union;
  fb_xnnpack::XNNQuantizedTensorValueT q;
  q.tensor_value = std::make_unique<fb_xnnpack::XNNTensorValueT>(*u.AsXNNTensorValue());
  fb_xnnpack::PerTensorQuantT p;
  p.scale = scale;
  p.zero_point = zero_point;
  q.quant_params.Set(std::move(p));
  u.Set(std::move(q));
  return id;
}

uint32_t GraphBuilder::per_channel_constant(std::vector<uint32_t> dims, XNNDatatype type,
                                            const std::vector<uint8_t>& bytes,
                                            const std::string& scale_key, uint32_t num_scales) {
  const uint32_t id = tensor(std::move(dims), 0, kInternal, type);
  while (constants.size() % 16 != 0) constants.push_back(0);
  auto data = std::make_unique<fb_xnnpack::ConstantDataOffsetT>();
  data->offset = constants.size();
  data->size = bytes.size();
  constants.insert(constants.end(), bytes.begin(), bytes.end());
  auto scales = std::make_unique<fb_xnnpack::ConstantDataOffsetT>();
  scales->offset = ~0ull;
  scales->size = num_scales * sizeof(float);
  scales->named_key = scale_key;
  auto& u = graph.xvalues.back()->xvalue_union;
  fb_xnnpack::XNNQuantizedTensorValueT q;
  q.tensor_value = std::make_unique<fb_xnnpack::XNNTensorValueT>(*u.AsXNNTensorValue());
  q.tensor_value->constant_buffer_idx = uint32_t(graph.constant_data.size());
  fb_xnnpack::PerChannelQuantT p;
  p.channel_dim = 0;
  p.scale_buffer_idx = uint32_t(graph.constant_data.size() + 1);
  p.num_scales = num_scales;
  q.quant_params.Set(std::move(p));
  u.Set(std::move(q));
  graph.constant_data.push_back(std::move(data));
  graph.constant_data.push_back(std::move(scales));
  return id;
}

namespace {
template <typename T>
void add_node(fb_xnnpack::XNNGraphT& g, XNodeUnion type, T table) {
  auto n = std::make_unique<fb_xnnpack::XNodeT>();
  // Aliased members share a table type, so the generated union has no Set().
  n->xnode_union.type = type;
  n->xnode_union.value = new T(std::move(table));
  g.xnodes.push_back(std::move(n));
}
}  // namespace

void GraphBuilder::node_2x1(XNodeUnion type, uint32_t a, uint32_t b, uint32_t out) {
  fb_xnnpack::_XNNNode2x1T t;
  t.input1_id = a;
  t.input2_id = b;
  t.output_id = out;
  add_node(graph, type, std::move(t));
}

void GraphBuilder::node_1x1(XNodeUnion type, uint32_t in, uint32_t out) {
  fb_xnnpack::_XNNNode1x1T t;
  t.input_id = in;
  t.output_id = out;
  add_node(graph, type, std::move(t));
}

void GraphBuilder::transpose(std::vector<uint32_t> perm, uint32_t in, uint32_t out) {
  fb_xnnpack::XNNStaticTransposeT t;
  t.num_dims = uint32_t(perm.size());
  t.perm = std::move(perm);
  t.input_id = in;
  t.output_id = out;
  add_node(graph, XNodeUnion::XNNStaticTranspose, std::move(t));
}

void GraphBuilder::reshape(std::vector<uint32_t> new_shape, uint32_t in, uint32_t out) {
  fb_xnnpack::XNNStaticReshapeT t;
  t.num_dims = uint32_t(new_shape.size());
  t.new_shape = std::move(new_shape);
  t.input_id = in;
  t.output_id = out;
  add_node(graph, XNodeUnion::XNNStaticReshape, std::move(t));
}

void GraphBuilder::concat(uint32_t axis, std::vector<uint32_t> in, uint32_t out) {
  fb_xnnpack::_XNNCatT t;
  t.axis = axis;
  t.input1_id = in[0];
  t.input2_id = in[1];
  t.input3_id = in.size() > 2 ? in[2] : kInternal;
  t.input4_id = in.size() > 3 ? in[3] : kInternal;
  t.input5_id = in.size() > 4 ? in[4] : kInternal;
  t.output_id = out;
  add_node(graph, XNodeUnion(uint8_t(XNodeUnion::XNNConcatenate2) + in.size() - 2), std::move(t));
  if (in.size() == 5) graph.xnodes.back()->xnode_union.type = XNodeUnion::XNNConcatenate5;
}

void GraphBuilder::slice(std::vector<uint32_t> offsets, std::vector<uint32_t> sizes, uint32_t in,
                         uint32_t out) {
  fb_xnnpack::XNNStaticSliceT t;
  t.num_dims = uint32_t(offsets.size());
  t.offsets = std::move(offsets);
  t.sizes = std::move(sizes);
  t.input_id = in;
  t.output_id = out;
  add_node(graph, XNodeUnion::XNNStaticSlice, std::move(t));
}

void GraphBuilder::fully_connected(uint32_t in, uint32_t filter, uint32_t bias, uint32_t out) {
  fb_xnnpack::XNNFullyConnectedT t;
  t.input1_id = in;
  t.filter_id = filter;
  t.bias_id = bias;
  t.output_id = out;
  add_node(graph, XNodeUnion::XNNFullyConnected, std::move(t));
}

void GraphBuilder::sdpa(uint32_t q, uint32_t k, uint32_t v, uint32_t scale, uint32_t mask,
                        uint32_t out) {
  fb_xnnpack::XNNScaledDotProductAttentionT t;
  t.query_id = q;
  t.key_id = k;
  t.value_id = v;
  t.scale_id = scale;
  t.mask_id = mask;
  t.output_id = out;
  add_node(graph, XNodeUnion::XNNScaledDotProductAttention, std::move(t));
}

void GraphBuilder::conv2d(uint32_t kernel, uint32_t pad, uint32_t in_channels,
                          uint32_t out_channels, uint32_t in, uint32_t filter, uint32_t bias,
                          uint32_t out) {
  fb_xnnpack::_XNNNodeConvT t;
  t.padding_top = t.padding_right = t.padding_bottom = t.padding_left = pad;
  t.kernel_height = t.kernel_width = kernel;
  t.subsampling_height = t.subsampling_width = 1;
  t.dilation_height = t.dilation_width = 1;
  t.group_input_channels = in_channels;
  t.group_output_channels = out_channels;
  t.groups = 1;
  t.input1_id = in;
  t.filter_id = filter;
  t.bias_id = bias;
  t.output_id = out;
  add_node(graph, XNodeUnion::XNNConv2d, std::move(t));
}

void GraphBuilder::clamp_last(float min, float max) {
  auto mm = std::make_unique<fb_xnnpack::OutputMinMaxT>();
  mm->output_min = min;
  mm->output_max = max;
  graph.xnodes.back()->output_min_max = std::move(mm);
}

std::vector<uint8_t> GraphBuilder::blob(bool header, const char* id) const {
  flatbuffers::FlatBufferBuilder fbb;
  fbb.Finish(fb_xnnpack::XNNGraph::Pack(fbb, &graph), id);
  std::vector<uint8_t> fb(fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize());
  if (!header) return fb;
  const size_t fb_padded = (fb.size() + 15) / 16 * 16;
  std::vector<uint8_t> out(32 + fb_padded + constants.size(), 0);
  std::memcpy(out.data() + 4, "XH00", 4);
  const auto put = [&](size_t at, uint64_t v, size_t n) {
    for (size_t i = 0; i < n; ++i) out[at + i] = uint8_t(v >> (8 * i));
  };
  put(8, 30, 2);
  put(10, 32, 4);
  put(14, fb.size(), 4);
  put(18, 32 + fb_padded, 4);
  put(22, constants.size(), 8);
  std::memcpy(out.data() + 32, fb.data(), fb.size());
  if (!constants.empty()) std::memcpy(out.data() + 32 + fb_padded, constants.data(), constants.size());
  return out;
}

runtime::Result<runtime::FreeableBuffer> MapDataMap::get_data(std::string_view key) const {
  auto it = entries.find(std::string(key));
  if (it == entries.end()) {
    return runtime::fail(runtime::Error::NotFound, "no key '%.*s'", int(key.size()), key.data());
  }
  return runtime::FreeableBuffer(it->second.data(), it->second.size());
}

runtime::Result<std::string_view> MapDataMap::key_at(size_t i) const {
  if (i >= entries.size()) return runtime::Error::InvalidArgument;
  auto it = entries.begin();
  std::advance(it, i);
  return std::string_view(it->first);
}

HeapTensor::HeapTensor(std::vector<int32_t> s, std::vector<float> values, std::vector<uint8_t> order)
    : sizes(std::move(s)), dim_order(std::move(order)) {
  if (dim_order.empty()) {
    for (size_t i = 0; i < sizes.size(); ++i) dim_order.push_back(uint8_t(i));
  }
  strides.resize(sizes.size());
  size_t n = 1;
  for (int32_t d : sizes) n *= size_t(d);
  data.assign(n + 16, 0.f);
  std::copy(values.begin(), values.end(), data.begin());
  tensor = runtime::Tensor(runtime::ScalarType::Float, sizes.size(), sizes.data(), dim_order.data(),
                           strides.data(), data.data(), runtime::ShapeDynamism::DynamicBound);
  value = runtime::EValue(&tensor);
}

GraphBuilder internal_chain_graph() {
  GraphBuilder g;
  const uint32_t x = g.tensor({2, 3}, kIn, 0);
  const uint32_t a = g.tensor({2, 3}), t = g.tensor({3, 2}), cat = g.tensor({3, 4});
  const uint32_t s = g.tensor({2, 3}), u = g.tensor({2, 3});
  g.node_2x1(XNodeUnion::XNNAdd, x, x, a);
  g.transpose({1, 0}, a, t);
  g.concat(1, {t, t}, cat);
  g.slice({1, 1}, {2, 3}, cat, s);
  g.node_1x1(XNodeUnion::XNNTanh, s, u);
  g.node_2x1(XNodeUnion::XNNMultiply, u, u, g.tensor({2, 3}, kOut, 1));
  return g;
}

}  // namespace ember::backends::xnnpack::testing
