// The XH00 header that prefixes an XnnpackBackend delegate blob (pte-format.md
// section 6.2): 4 reserved bytes, the magic "XH00", a u16 header length, then the
// offset and size of the XNNGraph FlatBuffer and of the constant-data region, all
// little-endian. A blob without the magic is a legacy bare FlatBuffer.
#pragma once

#include <cstddef>
#include <cstdint>

#include "runtime/core/result.h"

namespace ember::backends::xnnpack {

struct XnnpackHeader {
  static constexpr size_t kMagicOffset = 4;
  static constexpr size_t kMinSize = 30;  // bytes the fields occupy
  static constexpr size_t kMinFlatbufferSize = 8;

  uint32_t flatbuffer_offset = 0;
  uint32_t flatbuffer_size = 0;
  uint32_t constant_data_offset = 0;
  uint64_t constant_data_size = 0;
};

// True when `data` carries the XH00 magic at offset 4 (and is long enough).
bool has_xnnpack_header(const void* data, size_t size);

// Parses and bounds-checks the header of a blob that has_xnnpack_header(). Errors:
// InvalidProgram (with a message) when the blob is too short, the FlatBuffer is
// shorter than 8 bytes, a region runs past the blob, or the constant region starts
// before the FlatBuffer ends.
runtime::Result<XnnpackHeader> parse_xnnpack_header(const void* data, size_t size);

}  // namespace ember::backends::xnnpack
