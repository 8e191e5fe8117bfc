// write_pte: serializes an EmitProgram into the bytes of an ExecuTorch .pte file
// the way upstream's serializer does (shared/docs/pte-format.md section 2.2):
//
//   1. constants de-duplicated by SHA-256 of their bytes, packed into the
//      constant segment with each tensor padded to constant_tensor_alignment
//      (the last one unpadded); constant_segment.offsets = [0 (placeholder), ...];
//      the constant segment is always the first DataSegment, even when empty;
//   2. mutable initial data concatenated without padding into one segment,
//      referenced as mutable_data_segments = [{segment, [0, ...]}];
//   3. delegate blobs de-duplicated by content; non-empty ones move to their own
//      segment ({SEGMENT, i}), empty ones stay INLINE;
//   4. named data, one segment per unique buffer, aligned to lcm(128, its own);
//   5. segments placed in that order at align(prev_end, lcm(segment_alignment,
//      own alignment)), offsets relative to the segment base;
//   6. the FlatBuffer (identifier ET12), then, only if the segment data is
//      non-empty, the 32-byte "eh00" extended header inserted at byte 8, zero
//      padding to segment_base_offset, and the segment data.
//
// The output is deterministic: the same EmitProgram gives byte-identical bytes.
// The program is validated first (indices, list element kinds and order, memory
// ids and offsets inside the planned buffers, dim_order, ranks); a bad program
// returns an InvalidProgram/NotSupported Error naming the method and value.
#pragma once

#include <cstdint>
#include <vector>

#include "aot/emit/emit_program.h"
#include "aot/ir/error.h"

namespace ember::aot {

struct EmitOptions {
  uint64_t segment_alignment = 128;         // power of two
  uint64_t constant_tensor_alignment = 16;  // power of two
  bool extract_delegate_segments = true;    // false: every blob stays INLINE
};

// Replaces *out with the file bytes. On error *out is left empty.
Error write_pte(const EmitProgram& program, std::vector<uint8_t>* out,
                 const EmitOptions& options = EmitOptions());

// Checks the program description without writing it (write_pte calls this).
Error validate_emit_program(const EmitProgram& program);

}  // namespace ember::aot
