// Parser of the XH00 delegate-blob header; see xnnpack_header.h.
#include "backends/xnnpack/runtime/xnnpack_header.h"

#include <cstring>

#include "runtime/core/diagnostics.h"

namespace ember::backends::xnnpack {
namespace {

using runtime::Error;
using runtime::fail;

uint64_t read_le(const uint8_t* p, size_t n) {
  uint64_t v = 0;
  for (size_t i = 0; i < n; ++i) v |= uint64_t(p[i]) << (8 * i);
  return v;
}

}  // namespace

bool has_xnnpack_header(const void* data, size_t size) {
  if (data == nullptr || size < XnnpackHeader::kMinSize) return false;
  return std::memcmp(static_cast<const uint8_t*>(data) + XnnpackHeader::kMagicOffset, "XH00", 4) == 0;
}

runtime::Result<XnnpackHeader> parse_xnnpack_header(const void* data, size_t size) {
  if (data == nullptr || size < XnnpackHeader::kMinSize) {
    return fail(Error::InvalidProgram, "XNNPACK blob: %zu bytes, the XH00 header needs %zu",
                size, XnnpackHeader::kMinSize);
  }
  const uint8_t* p = static_cast<const uint8_t*>(data);
  if (std::memcmp(p + XnnpackHeader::kMagicOffset, "XH00", 4) != 0) {
    return fail(Error::InvalidProgram, "XNNPACK blob: no XH00 magic at offset 4");
  }
  XnnpackHeader h;
  h.flatbuffer_offset = static_cast<uint32_t>(read_le(p + 10, 4));
  h.flatbuffer_size = static_cast<uint32_t>(read_le(p + 14, 4));
  h.constant_data_offset = static_cast<uint32_t>(read_le(p + 18, 4));
  h.constant_data_size = read_le(p + 22, 8);
  const uint64_t fb_end = uint64_t(h.flatbuffer_offset) + h.flatbuffer_size;
  if (h.flatbuffer_size < XnnpackHeader::kMinFlatbufferSize) {
    return fail(Error::InvalidProgram, "XNNPACK blob: flatbuffer_size %u, expected at least %zu",
                h.flatbuffer_size, XnnpackHeader::kMinFlatbufferSize);
  }
  if (fb_end > size) {
    return fail(Error::InvalidProgram,
                "XNNPACK blob: flatbuffer [%u, +%u) runs past the blob end %zu",
                h.flatbuffer_offset, h.flatbuffer_size, size);
  }
  if (h.constant_data_offset < fb_end) {
    return fail(Error::InvalidProgram,
                "XNNPACK blob: constant_data_offset %u is inside the flatbuffer (ends at %llu)",
                h.constant_data_offset, static_cast<unsigned long long>(fb_end));
  }
  if (h.constant_data_offset > size || h.constant_data_size > size - h.constant_data_offset) {
    return fail(Error::InvalidProgram,
                "XNNPACK blob: constant data [%u, +%llu) runs past the blob end %zu",
                h.constant_data_offset, static_cast<unsigned long long>(h.constant_data_size),
                size);
  }
  return h;
}

}  // namespace ember::backends::xnnpack
