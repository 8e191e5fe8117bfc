// Program-level checks: segments, constant_segment / constant_buffer, mutable
// data segments, named data (pte-format.md 1.4 "Data", 2.2, 2.3, 3.4).
#include "apps/pte_check/check_context.h"

namespace ember::aot::pte_check_internal {
namespace {

constexpr uint64_t kSegmentAlignment = 128;
constexpr uint64_t kTensorAlignment = 16;

void check_segments(CheckContext* ctx) {
  const auto* segments = ctx->program->segments();
  if (segments == nullptr) return;
  uint64_t prev_offset = 0;
  for (size_t i = 0; i < segments->size(); ++i) {
    const fb::DataSegment* s = segments->Get(i);
    std::string where = "segment " + str(i);
    uint64_t offset = s->offset(), size = s->size();
    if (offset % kSegmentAlignment != 0) {
      ctx->warn("segment.alignment", where, "offset " + str(offset) + " is not a multiple of 128");
    }
    if (i > 0 && offset < prev_offset) {
      ctx->warn(
          "segment.order", where,
          "offset " + str(offset) + " is before the previous " + "segment's " + str(prev_offset));
    }
    prev_offset = offset;
    if (size == 0) continue;
    if (!ctx->has_header || ctx->segment_base == 0) {
      ctx->error("segment.no_header", where,
                 str(size) + " bytes of segment data but no eh00 header locates them");
      continue;
    }
    uint64_t available = ctx->size - ctx->segment_base;
    if (offset > available || size > available - offset) {
      ctx->error("segment.bounds", where,
                 "[" + str(offset) + ", +" + str(size) + ") past the file's " + str(available) +
                     " bytes of segment data");
    } else if (ctx->segment_data_size != 0 && offset + size > ctx->segment_data_size) {
      ctx->error("segment.bounds", where,
                 "ends at " + str(offset + size) + ", past segment_data_size " +
                     str(ctx->segment_data_size));
    }
  }
}

uint64_t segment_size(const CheckContext& ctx, uint32_t index) {
  return ctx.program->segments()->Get(index)->size();
}

bool segment_index_ok(CheckContext* ctx, uint32_t index, const std::string& rule,
                      const std::string& where) {
  size_t count = ctx->program->segments() ? ctx->program->segments()->size() : 0;
  if (index < count) return true;
  ctx->error(rule, where,
             "segment_index " + str(index) + " out of range, the program has " + str(count));
  return false;
}

void check_constants(CheckContext* ctx) {
  const fb::SubsegmentOffsets* cs = ctx->program->constant_segment();
  const auto* cb = ctx->program->constant_buffer();
  if (cb != nullptr && cb->size() > 0) {
    ctx->warn("constant.deprecated_buffer", "constant_buffer",
              str(cb->size()) + " inline constant Buffer(s): the deprecated path");
  }
  if (cs == nullptr || cs->offsets() == nullptr || cs->offsets()->size() == 0) {
    ctx->warn("constant.segment_missing", "constant_segment",
              "absent or without offsets: the runtime takes the deprecated constant_buffer path");
    return;
  }
  const auto* offsets = cs->offsets();
  const uint64_t first = schema::load_element(offsets, 0);
  if (first != 0) {
    ctx->warn("constant.placeholder", "constant_segment",
              "offsets[0] is " + str(first) + ", the placeholder is written as 0");
  }
  if (offsets->size() == 1) return;  // no constants: the segment is never loaded
  if (cb != nullptr && cb->size() > 0) {
    ctx->error("constant.both", "constant_buffer",
               "must be empty when constant_segment has " + str(offsets->size()) + " offsets");
  }
  if (!segment_index_ok(ctx, cs->segment_index(), "constant.segment_index", "constant_segment")) {
    return;
  }
  uint64_t seg_size = segment_size(*ctx, cs->segment_index());
  for (size_t i = 1; i < offsets->size(); ++i) {
    std::string where = "constant_segment offset " + str(i);
    const uint64_t offset = schema::load_element(offsets, i);
    if (offset > seg_size) {
      ctx->error("constant.bounds", where, str(offset) + " past the segment's " + str(seg_size) + " bytes");
    }
    if (offset % kTensorAlignment != 0) {
      ctx->warn("constant.alignment", where, str(offset) + " is not a multiple of 16");
    }
  }
}

void check_subsegments(CheckContext* ctx) {
  const auto* mds = ctx->program->mutable_data_segments();
  if (mds == nullptr) return;
  for (size_t i = 0; i < mds->size(); ++i) {
    const fb::SubsegmentOffsets* m = mds->Get(i);
    std::string where = "mutable_data_segments " + str(i);
    if (m->offsets() == nullptr) {
      ctx->error("mutable.offsets", where, "offsets are missing");
      continue;
    }
    if (!segment_index_ok(ctx, m->segment_index(), "mutable.segment_index", where)) continue;
    uint64_t seg_size = segment_size(*ctx, m->segment_index());
    for (size_t k = 0; k < m->offsets()->size(); ++k) {
      const uint64_t offset = schema::load_element(m->offsets(), k);
      if (offset > seg_size) {
        ctx->error("mutable.bounds", where + " offset " + str(k),
                   str(offset) + " past the segment's " + str(seg_size) + " bytes");
      }
    }
  }
}

void check_named_data(CheckContext* ctx) {
  const auto* named = ctx->program->named_data();
  if (named == nullptr) return;
  for (size_t i = 0; i < named->size(); ++i) {
    std::string where = "named_data " + str(i);
    if (named->Get(i)->key() == nullptr) ctx->error("named_data.key", where, "key is missing");
    segment_index_ok(ctx, named->Get(i)->segment_index(), "named_data.segment_index", where);
  }
}

}  // namespace

void check_program_tables(CheckContext* ctx) {
  check_segments(ctx);
  check_constants(ctx);
  check_subsegments(ctx);
  check_named_data(ctx);
  const auto* inline_data = ctx->program->backend_delegate_data();
  if (inline_data != nullptr) {
    for (size_t i = 0; i < inline_data->size(); ++i) {
      if (inline_data->Get(i)->data() == nullptr) {
        ctx->error("delegate.inline_data", "backend_delegate_data " + str(i), "data is missing");
      }
    }
  }
  bool segment_data = false;
  if (ctx->program->segments() != nullptr) {
    for (const fb::DataSegment* s : *ctx->program->segments()) segment_data |= s->size() > 0;
  }
  if (ctx->has_header && !segment_data) {
    ctx->warn("header.without_segments", "header",
              "eh00 header present but no segment has data; the writer omits it then");
  }
}

}  // namespace ember::aot::pte_check_internal
