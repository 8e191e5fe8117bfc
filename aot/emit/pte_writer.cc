// write_pte: validation, segment layout, FlatBuffer, then the container
// (extended header and segment region). See pte_writer.h for the algorithm.
#include "aot/emit/pte_writer.h"

#include <cstring>

#include "aot/emit/program_flatbuffer.h"
#include "aot/emit/segment_layout.h"

namespace ember::aot {
namespace {

constexpr uint32_t kHeaderLength = 32;   // magic + length + 3 u64 fields
constexpr uint64_t kMaxForceAlign = 16;  // largest force_align in the schema
constexpr uint64_t kMaxInlineBytes = uint64_t{1} << 30;

uint64_t align_up(uint64_t value, uint64_t alignment) {
  return (value + alignment - 1) / alignment * alignment;
}

void put_u32(uint8_t* p, uint32_t v) {
  for (int i = 0; i < 4; ++i) p[i] = static_cast<uint8_t>(v >> (8 * i));
}

void put_u64(uint8_t* p, uint64_t v) {
  for (int i = 0; i < 8; ++i) p[i] = static_cast<uint8_t>(v >> (8 * i));
}

// Inserts the eh00 header after the FlatBuffer's 8-byte preamble and appends the
// segment region at segment_base_offset (pte-format.md 2.2 step 7).
void assemble_with_header(const std::vector<uint8_t>& flatbuffer, const SegmentLayout& layout,
                          uint64_t segment_alignment, std::vector<uint8_t>* out) {
  const uint64_t padded_header = align_up(kHeaderLength, kMaxForceAlign);
  const uint64_t program_size = padded_header + flatbuffer.size();
  const uint64_t segment_base = align_up(program_size, segment_alignment);
  out->assign(segment_base + layout.region.size(), 0);
  uint8_t* p = out->data();
  uint32_t root = 0;
  for (int i = 0; i < 4; ++i) root |= uint32_t{flatbuffer[i]} << (8 * i);
  put_u32(p, root + static_cast<uint32_t>(padded_header));
  std::memcpy(p + 4, flatbuffer.data() + 4, 4);
  std::memcpy(p + 8, "eh00", 4);
  put_u32(p + 12, kHeaderLength);
  put_u64(p + 16, program_size);
  put_u64(p + 24, segment_base);
  put_u64(p + 32, layout.region.size());
  std::memcpy(p + 8 + padded_header, flatbuffer.data() + 8, flatbuffer.size() - 8);
  if (!layout.region.empty()) {
    std::memcpy(p + segment_base, layout.region.data(), layout.region.size());
  }
}

}  // namespace

Error write_pte(const EmitProgram& program, std::vector<uint8_t>* out,
                 const EmitOptions& options) {
  out->clear();
  EMBER_TRY(validate_emit_program(program));
  SegmentLayout layout;
  EMBER_TRY(lay_out_segments(program, options, &layout));
  // FlatBuffers cannot address past 2 GiB; inline blobs are the only large part.
  uint64_t inline_bytes = 0;
  for (const std::vector<uint8_t>* blob : layout.inline_blobs) inline_bytes += blob->size();
  if (inline_bytes > kMaxInlineBytes) {
    return fail(Error::NotSupported,
                  std::to_string(inline_bytes) +
                      " bytes of INLINE delegate data do not fit a FlatBuffer; "
                      "set extract_delegate_segments");
  }
  std::vector<uint8_t> flatbuffer = build_program_flatbuffer(program, layout);
  if (flatbuffer.size() > UINT32_MAX - 64) {
    return fail(Error::NotSupported, "the program FlatBuffer is " +
                                                 std::to_string(flatbuffer.size()) +
                                                 " bytes, more than a 32-bit offset can address");
  }
  if (layout.region.empty()) {
    *out = std::move(flatbuffer);  // no segment data: no extended header
    return Error::Ok;
  }
  assemble_with_header(flatbuffer, layout, options.segment_alignment, out);
  return Error::Ok;
}

}  // namespace ember::aot
