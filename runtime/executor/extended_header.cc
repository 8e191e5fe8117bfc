#include "runtime/executor/extended_header.h"

#include <cstring>

#include "runtime/core/diagnostics.h"

namespace ember::runtime {
namespace {

uint32_t read_u32(const uint8_t* p) {
  return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
}

uint64_t read_u64(const uint8_t* p) { return uint64_t(read_u32(p)) | uint64_t(read_u32(p + 4)) << 32; }

}  // namespace

Result<ExtendedHeader> ExtendedHeader::parse(const void* data, size_t size) {
  const uint8_t* bytes = static_cast<const uint8_t*>(data);
  if (size < kOffset + 4 || std::memcmp(bytes + kOffset, "eh00", 4) != 0) {
    return Error::NotFound;
  }
  if (size < kOffset + kMinLength) {
    return fail(Error::InvalidProgram, "extended header truncated: %zu bytes, need %zu", size,
                kOffset + kMinLength);
  }
  ExtendedHeader header;
  header.length = read_u32(bytes + kOffset + 4);
  if (header.length < kMinLength) {
    return fail(Error::InvalidProgram, "extended header length %u is below the minimum %zu",
                header.length, kMinLength);
  }
  header.program_size = read_u64(bytes + kOffset + 8);
  header.segment_base_offset = read_u64(bytes + kOffset + 16);
  if (header.length >= 32) {
    if (size < kOffset + 32) {
      return fail(Error::InvalidProgram, "extended header of length %u truncated at %zu bytes",
                  header.length, size);
    }
    header.segment_data_size = read_u64(bytes + kOffset + 24);
  }
  return header;
}

}  // namespace ember::runtime
