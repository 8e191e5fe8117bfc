// Constant lookup for XNNPACK values; see constant_data.h.
#include "backends/xnnpack/runtime/constant_data.h"

#include <string_view>

#include "runtime/core/diagnostics.h"

namespace ember::backends::xnnpack {

using runtime::Error;
using runtime::fail;

// Finds buffer `idx`; for named data the FreeableBuffer goes to `held` (if any).
Error lookup_constant(const ConstantSource& src, uint32_t idx, uint32_t id,
                      runtime::FreeableBuffer* held, const void** data, size_t* size) {
  if (!src.has_header) {
    const auto* bufs = src.graph->constant_buffer();
    if (bufs == nullptr || idx >= bufs->size() || bufs->Get(idx)->storage() == nullptr) {
      return fail(Error::InvalidProgram,
                  "XNNPACK value %u: constant_buffer index %u out of range (%u buffers)", id,
                  idx, bufs == nullptr ? 0u : bufs->size());
    }
    *data = bufs->Get(idx)->storage()->data();
    *size = bufs->Get(idx)->storage()->size();
    return Error::Ok;
  }
  const auto* table = src.graph->constant_data();
  if (table == nullptr || idx >= table->size()) {
    return fail(Error::InvalidProgram,
                "XNNPACK value %u: constant_data index %u out of range (%u entries)", id, idx,
                table == nullptr ? 0u : table->size());
  }
  const auto* entry = table->Get(idx);
  if (entry->named_key() != nullptr && entry->named_key()->size() > 0) {
    const std::string_view key(entry->named_key()->c_str(), entry->named_key()->size());
    if (src.named_data == nullptr) {
      return fail(Error::NotFound,
                  "XNNPACK value %u: constant '%.*s' needs named data, but the method has no "
                  "NamedDataMap", id, int(key.size()), key.data());
    }
    auto buffer = src.named_data->get_data(key);
    if (!buffer.ok()) {
      return fail(buffer.error(), "XNNPACK value %u: constant '%.*s' not found in named data", id,
                  int(key.size()), key.data());
    }
    *data = buffer->data();
    *size = buffer->size();
    *held = std::move(buffer.get());
    return Error::Ok;
  }
  if (entry->offset() > src.region_size || entry->size() > src.region_size - entry->offset()) {
    return fail(Error::InvalidProgram,
                "XNNPACK value %u: constant [%llu, +%llu) outside the %llu-byte constant region",
                id, static_cast<unsigned long long>(entry->offset()),
                static_cast<unsigned long long>(entry->size()),
                static_cast<unsigned long long>(src.region_size));
  }
  *data = src.region + entry->offset();
  *size = entry->size();
  return Error::Ok;
}

Error resolve_constant(const ConstantSource& src, uint32_t idx, uint32_t id, GraphModel* m,
                       ValueInfo* v) {
  runtime::FreeableBuffer* held = &m->held[m->num_held];
  new (held) runtime::FreeableBuffer();
  ++m->num_held;
  EMBER_TRY(lookup_constant(src, idx, id, held, &v->data, &v->data_size));
  // 4-bit weights: two per byte, each innermost row padded to a whole byte.
  const bool int4 = is_int4(v->datatype);
  size_t need = int4 ? 1 : datatype_size(v->datatype);
  for (uint32_t d = 0; d < v->rank; ++d) {
    const size_t n = int4 && d + 1 == v->rank ? (v->dims[d] + 1) / 2 : v->dims[d];
    if (n != 0 && need > SIZE_MAX / n) {
      return fail(Error::InvalidProgram, "XNNPACK value %u: shape overflows", id);
    }
    need *= n;
  }
  if (v->data_size < need) {
    return fail(Error::InvalidProgram,
                "XNNPACK value %u: constant has %zu bytes, its %s shape needs %zu", id,
                v->data_size, datatype_name(v->datatype), need);
  }
  return Error::Ok;
}

Error resolve_scales(const ConstantSource& src, const flatbuffers::Vector<float>* inline_scales,
                     uint32_t idx, uint32_t num_scales, uint32_t id, GraphModel* m, ValueInfo* v) {
  const size_t channels = v->dims[v->channel_dim];
  if (idx == 0) {
    const size_t n = inline_scales == nullptr ? 0 : inline_scales->size();
    if (n != channels) {
      return fail(Error::InvalidProgram, "XNNPACK value %u: %zu scales for %zu channels", id, n,
                  channels);
    }
    v->channel_scales = n == 0 ? nullptr : inline_scales->data();
    v->num_scales = uint32_t(n);
    return Error::Ok;
  }
  runtime::FreeableBuffer* held = &m->held[m->num_held];
  new (held) runtime::FreeableBuffer();
  ++m->num_held;
  const void* data = nullptr;
  size_t size = 0;
  EMBER_TRY(lookup_constant(src, idx, id, held, &data, &size));
  if (num_scales != channels || size < channels * sizeof(float) ||
      reinterpret_cast<uintptr_t>(data) % alignof(float) != 0) {
    return fail(Error::InvalidProgram,
                "XNNPACK value %u: scale buffer %u has %zu bytes for num_scales %u, expected "
                "%zu aligned floats", id, idx, size, num_scales, channels);
  }
  v->channel_scales = static_cast<const float*>(data);
  v->num_scales = num_scales;
  return Error::Ok;
}

}  // namespace ember::backends::xnnpack
