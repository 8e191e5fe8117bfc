// File-level checks: the eh00 extended header against the file size, rule by rule, then
// the identifier and the FlatBuffers verifier (pte-format.md 2.1, 2.3), all read through
// the runtime's container reader (runtime/executor/pte_container.h).
#include <string>

#include "aot/ir/error.h"
#include "apps/pte_check/check_context.h"
#include "runtime/executor/pte_container.h"

namespace ember::aot::pte_check_internal {
namespace {

constexpr uint64_t kSegmentAlignment = 128;

// Reads the extended header through the shared container reader and classifies what is
// wrong with it by rule; returns false if the file cannot be read further.
bool check_header(CheckContext* ctx) {
  Result<runtime::PteExtendedHeader> header = runtime::PteExtendedHeader::parse(ctx->data, ctx->size);
  if (!header.ok() && header.error() == Error::NotFound) {  // a plain FlatBuffer
    ctx->program_size = ctx->size;
    return true;
  }
  ctx->has_header = true;
  if (!header.ok()) {
    ctx->error("header.length", "header", last_error_message());
    return false;
  }
  ctx->header_length = header->length;
  ctx->program_size = header->program_size;
  ctx->segment_base = header->segment_base_offset;
  ctx->segment_data_size = header->segment_data_size;
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
  if (ctx->size < runtime::PteLayout::kHeadBytes) {
    ctx->error("file.size", "file",
               "file of " + str(ctx->size) + " bytes; the runtime reads the first 64");
  }
  if (!check_header(ctx)) return;
  // The layout facts are checked rule by rule above; open the program itself (identifier and
  // the FlatBuffers verifier) with the runtime's reader.
  runtime::PteLayout layout;
  layout.file_size = ctx->size;
  layout.program_size = ctx->program_size;
  if (runtime::PteContainer::check_identifier(ctx->data, ctx->size) != Error::Ok) {
    ctx->error("file.identifier", "file", last_error_message());
    return;
  }
  Result<runtime::PteContainer> container =
      runtime::PteContainer::open_program(layout, ctx->data, ctx->size);
  if (!container.ok()) {
    ctx->error("flatbuffer.verify", "program", last_error_message());
    return;
  }
  ctx->program = static_cast<const fb::Program*>(container->program_root());
}

}  // namespace ember::aot::pte_check_internal
