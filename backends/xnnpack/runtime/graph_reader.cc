// read_graph(): verifies an untrusted XNNPACK delegate blob and flattens it into
// a GraphModel (see graph_model.h). Constants are resolved in constant_data.cc.
#include <cstring>
#include <new>

#include "backends/xnnpack/runtime/constant_data.h"
#include "backends/xnnpack/runtime/graph_model.h"
#include "backends/xnnpack/runtime/node_io.h"
#include "backends/xnnpack/runtime/xnnpack_header.h"
#include "runtime/core/diagnostics.h"

namespace ember::backends::xnnpack {
namespace {

using fb_xnnpack::XNNDatatype;
using runtime::Error;
using runtime::fail;

constexpr uint32_t kAllowedFlags = 0x3;  // EXTERNAL_INPUT | EXTERNAL_OUTPUT

// FlatBuffers checks its fields' alignment relative to the buffer's start and then reads them
// in place, so the buffer itself must start at an address aligned for its widest scalar (8
// bytes). A header whose flatbuffer offset is not a multiple of 8, or a blob at such an address,
// gets an aligned copy from the method's allocator (kept, like the blob, for the method's life).
// Found by xnnpack_blob_fuzz (UBSan: member call on a misaligned Vector).
runtime::Error align_flatbuffer(runtime::MemoryAllocator* allocator, const uint8_t** fb,
                                size_t size) {
  constexpr size_t kAlign = 8;
  if (reinterpret_cast<uintptr_t>(*fb) % kAlign == 0) return runtime::Error::Ok;
  void* copy = allocator == nullptr ? nullptr : allocator->allocate(size, kAlign);
  if (copy == nullptr) {
    return fail(runtime::Error::MemoryAllocationFailed,
                "XNNPACK blob: no memory for an aligned copy of the misaligned XNNGraph flatbuffer "
                "(%zu bytes)", size);
  }
  std::memcpy(copy, *fb, size);
  *fb = static_cast<const uint8_t*>(copy);
  return runtime::Error::Ok;
}

Error locate_flatbuffer(const uint8_t* blob, size_t size, ConstantSource* src,
                        const uint8_t** fb, size_t* fb_size) {
  if (has_xnnpack_header(blob, size)) {
    auto header = parse_xnnpack_header(blob, size);
    if (!header.ok()) return header.error();
    *fb = blob + header->flatbuffer_offset;
    *fb_size = header->flatbuffer_size;
    src->has_header = true;
    src->region = blob + header->constant_data_offset;
    src->region_size = header->constant_data_size;
    return Error::Ok;
  }
  *fb = blob;  // legacy: the whole blob is the FlatBuffer
  *fb_size = size;
  return Error::Ok;
}

Error check_identifier(const uint8_t* fb, size_t fb_size) {
  if (fb_size < 8) {
    return fail(Error::InvalidProgram, "XNNPACK blob: flatbuffer of %zu bytes is too short",
                fb_size);
  }
  if (std::memcmp(fb + 4, "XN01", 4) != 0 && std::memcmp(fb + 4, "XN00", 4) != 0) {
    char id[5] = {};
    for (int i = 0; i < 4; ++i) {
      const char c = static_cast<char>(fb[4 + i]);
      id[i] = (c >= 32 && c < 127) ? c : '?';
    }
    return fail(Error::DelegateInvalidCompatibility,
                "XNNPACK blob: flatbuffer identifier '%s', expected 'XN01' or 'XN00'", id);
  }
  return Error::Ok;
}

// fp32 -> bf16, rounding to nearest even (scales are finite and positive).
uint16_t to_bf16(float f) {
  uint32_t u;
  std::memcpy(&u, &f, sizeof(u));
  u += 0x7FFFu + ((u >> 16) & 1u);
  return uint16_t(u >> 16);
}

// The bf16 block scales of a PerChannelGroupQuant weight: scale_bf16, else the fp32 `scale`
// list or a scale buffer (bf16 or fp32 by its size) converted into the method allocator.
Error read_block_scales(const fb_xnnpack::PerChannelGroupQuant* p, uint32_t id,
                        const ConstantSource& src, GraphModel* m,
                        runtime::MemoryAllocator* allocator, ValueInfo* v) {
  const size_t channels = v->dims[v->channel_dim];
  const size_t n = channels * (v->dims[v->rank - 1] / v->block_size);
  const float* f32 = nullptr;
  if (p->scale_bf16() != nullptr && p->scale_bf16()->size() > 0) {
    if (p->scale_bf16()->size() != n) {
      return fail(Error::InvalidProgram, "XNNPACK value %u: %u bf16 block scales, expected %zu", id,
                  p->scale_bf16()->size(), n);
    }
    v->block_scales = p->scale_bf16()->data();
    return Error::Ok;
  }
  if (p->scale_buffer_idx() != 0) {
    runtime::FreeableBuffer* held = &m->held[m->num_held];
    new (held) runtime::FreeableBuffer();
    ++m->num_held;
    const void* data = nullptr;
    size_t size = 0;
    EMBER_TRY(lookup_constant(src, p->scale_buffer_idx(), id, held, &data, &size));
    if (p->num_scales() != n || (size != n * 2 && size != n * 4) ||
        reinterpret_cast<uintptr_t>(data) % (size == n * 2 ? 2 : 4) != 0) {
      return fail(Error::InvalidProgram,
                  "XNNPACK value %u: block scale buffer of %zu bytes for num_scales %u, expected "
                  "%zu aligned bf16 or fp32 scales",
                  id, size, p->num_scales(), n);
    }
    if (size == n * 2) {
      v->block_scales = static_cast<const uint16_t*>(data);
      return Error::Ok;
    }
    f32 = static_cast<const float*>(data);
  } else {
    if (p->scale() == nullptr || p->scale()->size() != n) {
      return fail(Error::InvalidProgram, "XNNPACK value %u: %u block scales, expected %zu", id,
                  p->scale() == nullptr ? 0u : p->scale()->size(), n);
    }
    f32 = p->scale()->data();
  }
  uint16_t* out = allocator->allocate_list<uint16_t>(n == 0 ? 1 : n);
  if (out == nullptr) {
    return fail(Error::MemoryAllocationFailed, "XNNPACK value %u: no memory for %zu bf16 scales",
                id, n);
  }
  for (size_t i = 0; i < n; ++i) out[i] = to_bf16(f32[i]);
  v->block_scales = out;
  return Error::Ok;
}

Error read_quant(const fb_xnnpack::XNNQuantizedTensorValue* q, uint32_t id,
                 const ConstantSource& src, GraphModel* m, runtime::MemoryAllocator* allocator,
                 ValueInfo* v) {
  // The verifier accepts a union whose type is set but whose table is absent.
  if (q->quant_params_type() != fb_xnnpack::XNNQuantParams::NONE && q->quant_params() == nullptr) {
    return fail(Error::InvalidProgram, "XNNPACK value %u: %s quant_params without their table", id,
                fb_xnnpack::EnumNameXNNQuantParams(q->quant_params_type()));
  }
  switch (q->quant_params_type()) {
    case fb_xnnpack::XNNQuantParams::PerTensorQuant: {
      const auto* p = q->quant_params_as_PerTensorQuant();
      v->quant = QuantKind::PerTensor;
      v->scale = p->scale();
      v->zero_point = p->zero_point();
      return Error::Ok;
    }
    case fb_xnnpack::XNNQuantParams::PerChannelQuant: {
      const auto* p = q->quant_params_as_PerChannelQuant();
      v->quant = QuantKind::PerChannel;
      if (p->channel_dim() < 0 || uint32_t(p->channel_dim()) >= v->rank) {
        return fail(Error::InvalidProgram, "XNNPACK value %u: channel_dim %d out of range for rank %u",
                    id, p->channel_dim(), v->rank);
      }
      v->channel_dim = uint32_t(p->channel_dim());
      return resolve_scales(src, p->scale(), p->scale_buffer_idx(), p->num_scales(), id, m, v);
    }
    case fb_xnnpack::XNNQuantParams::PerTokenDynamicQuant: {
      const int32_t n = q->quant_params_as_PerTokenDynamicQuant()->num_nonbatch_dims();
      if (v->datatype != XNNDatatype::xnn_datatype_qdint8 || n < 1 || uint32_t(n) > v->rank) {
        return fail(Error::InvalidProgram,
                    "XNNPACK value %u: PerTokenDynamicQuant needs a qdint8 tensor with 1..rank "
                    "non-batch dims (got %s, num_nonbatch_dims %d, rank %u)",
                    id, datatype_name(v->datatype), n, v->rank);
      }
      v->quant = QuantKind::PerTokenDynamic;
      v->num_nonbatch_dims = uint32_t(n);
      return Error::Ok;
    }
    case fb_xnnpack::XNNQuantParams::PerChannelGroupQuant: {
      const auto* p = q->quant_params_as_PerChannelGroupQuant();
      // XNNPACK's blockwise weights: fully-connected filters [output channels, input
      // channels], blocks along the input channels.
      if (v->datatype != XNNDatatype::xnn_datatype_qbint4 || v->rank != 2 ||
          p->channel_dim() != 0 || p->group_size() <= 0 ||
          v->dims[1] % uint32_t(p->group_size()) != 0) {
        return fail(Error::InvalidProgram,
                    "XNNPACK value %u: PerChannelGroupQuant needs a 2-D qbint4 tensor with "
                    "channel_dim 0 and a group size dividing its %zu input channels (got %s, "
                    "rank %u, channel_dim %d, group_size %d)",
                    id, v->rank == 2 ? v->dims[1] : 0, datatype_name(v->datatype), v->rank,
                    p->channel_dim(), p->group_size());
      }
      v->quant = QuantKind::Blockwise;
      v->channel_dim = 0;
      v->block_size = uint32_t(p->group_size());
      return read_block_scales(p, id, src, m, allocator, v);
    }
    default:
      v->quant = QuantKind::Unsupported;
      v->quant_name = fb_xnnpack::EnumNameXNNQuantParams(q->quant_params_type());
      return Error::Ok;
  }
}

Error read_value(const fb_xnnpack::XValue* xv, uint32_t index, const ConstantSource& src,
                 GraphModel* m, runtime::MemoryAllocator* allocator) {
  const fb_xnnpack::XNNTensorValue* t = nullptr;
  const fb_xnnpack::XNNQuantizedTensorValue* q = nullptr;
  if (xv != nullptr && xv->xvalue_union_type() == fb_xnnpack::XValueUnion::XNNTensorValue) {
    t = xv->xvalue_union_as_XNNTensorValue();
  } else if (xv != nullptr &&
             xv->xvalue_union_type() == fb_xnnpack::XValueUnion::XNNQuantizedTensorValue) {
    q = xv->xvalue_union_as_XNNQuantizedTensorValue();
    t = q == nullptr ? nullptr : q->tensor_value();
  }
  if (t == nullptr) {
    return fail(Error::InvalidProgram, "XNNPACK xvalues[%u]: missing tensor value", index);
  }
  const uint32_t id = t->id_out();
  if (id >= m->num_values) {
    return fail(Error::InvalidProgram, "XNNPACK xvalues[%u]: id_out %u out of range (%u values)",
                index, id, m->num_values);
  }
  ValueInfo* v = &m->values[id];
  if (v->defined) {
    return fail(Error::InvalidProgram, "XNNPACK xvalues[%u]: id_out %u defined twice", index, id);
  }
  const auto* dims = t->dims();
  const uint32_t rank = dims == nullptr ? 0 : dims->size();
  if (rank != t->num_dims() || rank > kMaxDims) {
    return fail(Error::InvalidProgram,
                "XNNPACK value %u: num_dims %u, %u dims given, at most %zu supported", id,
                t->num_dims(), rank, kMaxDims);
  }
  v->rank = rank;
  for (uint32_t d = 0; d < rank; ++d) v->dims[d] = dims->Get(d);
  v->datatype = t->datatype();
  if (t->flags() & ~kAllowedFlags) {
    return fail(Error::InvalidProgram, "XNNPACK value %u: flags 0x%x, only 0x1|0x2 allowed", id,
                t->flags());
  }
  v->flags = t->flags();
  v->external_id = t->external_id();
  if (v->flags != 0 && v->external_id >= m->num_externs) {
    return fail(Error::InvalidProgram, "XNNPACK value %u: external_id %u, num_externs is %u", id,
                v->external_id, m->num_externs);
  }
  v->defined = true;
  if (q != nullptr) EMBER_TRY(read_quant(q, id, src, m, allocator, v));
  if (t->constant_buffer_idx() != 0) {
    if (v->flags != 0) {
      return fail(Error::InvalidProgram, "XNNPACK value %u: constant with external flags", id);
    }
    EMBER_TRY(resolve_constant(src, t->constant_buffer_idx(), id, m, v));
  }
  return Error::Ok;
}

Error read_nodes(GraphModel* m, runtime::MemoryAllocator* allocator) {
  const auto* xnodes = m->graph->xnodes();
  m->num_nodes = xnodes == nullptr ? 0 : xnodes->size();
  m->nodes = allocator->allocate_list<NodeDesc>(m->num_nodes == 0 ? 1 : m->num_nodes);
  if (m->nodes == nullptr) {
    return fail(Error::MemoryAllocationFailed, "XNNPACK: no memory for %u node records",
                m->num_nodes);
  }
  for (uint32_t i = 0; i < m->num_nodes; ++i) {
    NodeDesc* d = new (&m->nodes[i]) NodeDesc();
    EMBER_TRY(describe_node(xnodes->Get(i), i, d));
    const char* name = node_type_name(d->type);
    for (uint32_t k = 0; k < d->num_inputs + d->num_outputs; ++k) {
      const bool is_in = k < d->num_inputs;
      const uint32_t vid = is_in ? d->inputs[k] : d->outputs[k - d->num_inputs];
      if (vid == kInvalidId && is_in && input_is_optional(d->type, k)) continue;
      if (vid == kInvalidId && d->type == fb_xnnpack::XNodeUnion::XNNScaledDotProductAttention &&
          k == 4) {
        return fail(Error::NotSupported,
                    "XNNPACK node %u (%s): no mask (input 4); this XNNPACK's attention needs a "
                    "[query tokens, key tokens] mask (all zeros for none)",
                    i, name);
      }
      if (vid >= m->num_values || !m->values[vid].defined) {
        return fail(Error::InvalidProgram,
                    "XNNPACK node %u (%s): %s %u refers to value id %u, the graph has %u values",
                    i, name, is_in ? "input" : "output", is_in ? k : k - d->num_inputs, vid,
                    m->num_values);
      }
    }
  }
  return Error::Ok;
}

}  // namespace

Error read_graph(const void* blob, size_t size, const runtime::NamedDataMap* named_data,
                 runtime::MemoryAllocator* allocator, GraphModel* m) {
  *m = GraphModel();
  if (blob == nullptr) return fail(Error::InvalidProgram, "XNNPACK blob: null");
  ConstantSource src;
  src.named_data = named_data;
  const uint8_t* fb = nullptr;
  size_t fb_size = 0;
  EMBER_TRY(locate_flatbuffer(static_cast<const uint8_t*>(blob), size, &src, &fb, &fb_size));
  EMBER_TRY(check_identifier(fb, fb_size));
  EMBER_TRY(align_flatbuffer(allocator, &fb, fb_size));
  flatbuffers::Verifier verifier(fb, fb_size);
  if (!verifier.VerifyBuffer<fb_xnnpack::XNNGraph>(nullptr)) {
    return fail(Error::InvalidProgram, "XNNPACK blob: the XNNGraph flatbuffer (%zu bytes) fails "
                "verification", fb_size);
  }
  m->graph = fb_xnnpack::GetXNNGraph(fb);
  src.graph = m->graph;
  m->num_externs = m->graph->num_externs();
  if (m->num_externs > kMaxExterns) {
    return fail(Error::InvalidProgram, "XNNPACK graph: num_externs %u, at most %zu",
                m->num_externs, kMaxExterns);
  }
  const auto* xvalues = m->graph->xvalues();
  m->num_values = xvalues == nullptr ? 0 : xvalues->size();
  m->values = allocator->allocate_list<ValueInfo>(m->num_values == 0 ? 1 : m->num_values);
  // Each value holds at most a constant and a scale buffer.
  m->held = allocator->allocate_list<runtime::FreeableBuffer>(2 * size_t(m->num_values) + 1);
  if (m->values == nullptr || m->held == nullptr) {
    return fail(Error::MemoryAllocationFailed, "XNNPACK: no memory for %u value records",
                m->num_values);
  }
  for (uint32_t i = 0; i < m->num_values; ++i) new (&m->values[i]) ValueInfo();
  for (uint32_t i = 0; i < m->num_values; ++i) {
    const Error e = read_value(xvalues->Get(i), i, src, m, allocator);
    if (e != Error::Ok) {
      release_graph(m);
      return e;
    }
  }
  const Error e = read_nodes(m, allocator);
  if (e != Error::Ok) release_graph(m);
  return e;
}

void release_graph(GraphModel* m) {
  for (size_t i = 0; i < m->num_held; ++i) m->held[i].~FreeableBuffer();
  m->num_held = 0;
}

const char* node_type_name(fb_xnnpack::XNodeUnion type) {
  const char* n = fb_xnnpack::EnumNameXNodeUnion(type);
  return (n == nullptr || *n == '\0') ? "unknown" : n;
}

const char* datatype_name(XNNDatatype type) {
  const char* n = fb_xnnpack::EnumNameXNNDatatype(type);
  return (n == nullptr || *n == '\0') ? "unknown" : n;
}

bool is_int4(XNNDatatype type) {
  return type == XNNDatatype::xnn_datatype_qcint4 || type == XNNDatatype::xnn_datatype_qbint4;
}

size_t datatype_size(XNNDatatype type) {
  switch (type) {
    case XNNDatatype::xnn_datatype_fp32:
    case XNNDatatype::xnn_datatype_qint32:
    case XNNDatatype::xnn_datatype_qcint32:
    case XNNDatatype::xnn_datatype_int32:
    case XNNDatatype::xnn_datatype_pfp32:
      return 4;
    case XNNDatatype::xnn_datatype_fp16:
    case XNNDatatype::xnn_datatype_bf16:
      return 2;
    case XNNDatatype::xnn_datatype_qint8:
    case XNNDatatype::xnn_datatype_quint8:
    case XNNDatatype::xnn_datatype_qcint8:
    case XNNDatatype::xnn_datatype_qdint8:
    case XNNDatatype::xnn_datatype_qpint8:
      return 1;
    default:
      return 0;
  }
}

}  // namespace ember::backends::xnnpack
