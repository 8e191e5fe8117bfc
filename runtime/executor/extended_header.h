// The optional "eh00" extended header of a .pte file (pte-format.md section
// 2.1): at byte 8, a magic, a length (24 or 32 today; readers accept >= 24)
// and three u64 fields telling where the FlatBuffer ends and the segment data
// begins. Parsing is pure (no FlatBuffers); values are checked by the caller.
#pragma once

#include <cstddef>
#include <cstdint>

#include "runtime/core/result.h"

namespace ember::runtime {

struct ExtendedHeader {
  static constexpr size_t kOffset = 8;         // bytes before the magic
  static constexpr size_t kMinLength = 24;     // magic + length + 2 x u64
  static constexpr size_t kNumHeadBytes = 64;  // how much Program::load reads first

  uint32_t length = 0;
  uint64_t program_size = 0;
  uint64_t segment_base_offset = 0;
  uint64_t segment_data_size = 0;  // 0 when the header is only 24 bytes long

  // Parses the header from the first `size` bytes of a file. NotFound when
  // there is no "eh00" magic (a plain FlatBuffer); InvalidProgram when the
  // magic is there but the header is truncated or its length is below 24.
  static Result<ExtendedHeader> parse(const void* data, size_t size);
};

}  // namespace ember::runtime
