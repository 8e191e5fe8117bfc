// File-level checks: identifier, eh00 extended header against the file size,
// then the FlatBuffers verifier over the program bytes (pte-format.md 2.1, 2.3).
#include <cstring>

#include "aot/tools/pte_check/check_context.h"

namespace ember::aot::pte_check_internal {
namespace {

constexpr size_t kHeadBytes = 64;  // the runtime reads this much to find the header
constexpr uint64_t kSegmentAlignment = 128;

uint64_t get_u64(const uint8_t* p) {
  uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v |= uint64_t{p[i]} << (8 * i);
  return v;
}

uint32_t get_u32(const uint8_t* p) {
  uint32_t v = 0;
  for (int i = 0; i < 4; ++i) v |= uint32_t{p[i]} << (8 * i);
  return v;
}

// Reads the extended header; returns false if the file cannot be read further.
bool check_header(CheckContext* ctx) {
  if (ctx->size < 12 || std::memcmp(ctx->data + 8, "eh00", 4) != 0) {
    ctx->program_size = ctx->size;
    return true;
  }
  ctx->has_header = true;
  if (ctx->size < 32) {
    ctx->error("header.length", "header",
               "file of " + str(ctx->size) + " bytes is too short for its eh00 header");
    return false;
  }
  ctx->header_length = get_u32(ctx->data + 12);
  if (ctx->header_length < 24) {
    ctx->error("header.length", "header",
               "header_length " + str(ctx->header_length) + ", readers need >= 24");
    return false;
  }
  ctx->program_size = get_u64(ctx->data + 16);
  ctx->segment_base = get_u64(ctx->data + 24);
  if (ctx->header_length >= 32 && ctx->size >= 40) ctx->segment_data_size = get_u64(ctx->data + 32);
  if (ctx->program_size > ctx->size || ctx->program_size < 8 + uint64_t{ctx->header_length}) {
    ctx->error("header.program_size", "header",
               "program_size " + str(ctx->program_size) + " outside [" +
                   str(8 + uint64_t{ctx->header_length}) + ", file size " + str(ctx->size) + "]");
    return false;
  }
  if (ctx->segment_base != 0) {
    if (ctx->segment_base < ctx->program_size) {
      ctx->error("header.segment_base", "header",
                 "segment_base_offset " + str(ctx->segment_base) + " is inside the program (" +
                     str(ctx->program_size) + " bytes)");
    }
    if (ctx->segment_base % kSegmentAlignment != 0) {
      ctx->warn("segment.alignment", "header",
                "segment_base_offset " + str(ctx->segment_base) + " is not a multiple of 128");
    }
    if (ctx->segment_data_size > ctx->size ||
        ctx->segment_base > ctx->size - ctx->segment_data_size) {
      ctx->error("header.segment_data_size", "header",
                 "segments end at " + str(ctx->segment_base) + " + " + str(ctx->segment_data_size) +
                     ", past the file size " + str(ctx->size));
    }
  }
  return true;
}

}  // namespace

void check_container(CheckContext* ctx) {
  if (ctx->size < 8) {
    ctx->error("file.size", "file", "file of " + str(ctx->size) + " bytes, need at least 8");
    return;
  }
  if (std::memcmp(ctx->data + 4, "ET12", 4) != 0) {
    std::string id(reinterpret_cast<const char*>(ctx->data + 4), 4);
    for (char& c : id)
      if (c < 32 || c > 126) c = '?';
    ctx->error("file.identifier", "file", "identifier '" + id + "', expected 'ET12'");
    return;
  }
  if (ctx->size < kHeadBytes) {
    ctx->error("file.size", "file",
               "file of " + str(ctx->size) + " bytes; the runtime reads the first 64");
  }
  if (!check_header(ctx)) return;
  flatbuffers::Verifier verifier(ctx->data, ctx->program_size);
  if (!fb::VerifyProgramBuffer(verifier)) {
    ctx->error("flatbuffer.verify", "program",
               "the FlatBuffers verifier rejects bytes [0, " + str(ctx->program_size) + ")");
    return;
  }
  ctx->program = fb::GetProgram(ctx->data);
}

}  // namespace ember::aot::pte_check_internal
