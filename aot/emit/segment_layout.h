// Internal to the writer: lays out the data that goes after the FlatBuffer
// (constant, mutable, delegate and named-data segments) and records how the
// FlatBuffer must refer to it. Kept separate from the FlatBuffer building so that
// each half stays one screen of logic. See pte_writer.h for the rules.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "aot/emit/emit_program.h"
#include "aot/ir/error.h"

namespace ember::aot {

struct EmitOptions;

struct LaidOutSegment {
  uint64_t offset = 0;  // relative to the segment base
  uint64_t size = 0;    // unpadded
};

// Where a delegate's processed blob went: INLINE (index into
// backend_delegate_data) or SEGMENT (index into segments).
struct DelegateRef {
  bool in_segment = false;
  uint32_t index = 0;
};

struct NamedDataRef {
  std::string key;
  uint32_t segment_index = 0;
};

struct SegmentLayout {
  std::vector<LaidOutSegment> segments;
  std::vector<uint8_t> region;  // segment bytes from the base, no trailing padding
  // constant_segment
  uint32_t constant_segment_index = 0;
  std::vector<uint64_t> constant_offsets;     // [0, ...]
  std::vector<uint32_t> constant_buffer_idx;  // per EmitProgram::constants entry
  // mutable_data_segments[0], present when has_mutable
  bool has_mutable = false;
  uint32_t mutable_segment_index = 0;
  std::vector<uint64_t> mutable_offsets;     // [0, ...]
  std::vector<uint32_t> mutable_buffer_idx;  // per EmitProgram::mutable_data entry
  // delegates: per method, per delegate
  std::vector<std::vector<DelegateRef>> delegate_refs;
  std::vector<const std::vector<uint8_t>*> inline_blobs;  // backend_delegate_data
  std::vector<NamedDataRef> named_data;
  // EXTERNAL tensors: 0-based index per distinct fully_qualified_name, in order of
  // first appearance (upstream writes such indices; the runtime ignores them).
  std::map<std::string, uint32_t> external_index;
};

// Fills *layout from the program. Fails on conflicting named-data keys or bad
// alignments.
Error lay_out_segments(const EmitProgram& program, const EmitOptions& options,
                        SegmentLayout* layout);

}  // namespace ember::aot
