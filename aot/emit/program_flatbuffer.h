// Internal to the writer: builds the ET12 Program FlatBuffer from an
// EmitProgram whose segment data has already been laid out (segment_layout.h).
// Only aot/emit includes the generated schema header.
#pragma once

#include <cstdint>
#include <vector>

#include "aot/emit/emit_program.h"
#include "aot/emit/segment_layout.h"

namespace ember::aot {

// Returns the finished FlatBuffer (root offset, "ET12", tables), with no
// extended header. The program must have passed validate_emit_program.
std::vector<uint8_t> build_program_flatbuffer(const EmitProgram& program,
                                              const SegmentLayout& layout);

}  // namespace ember::aot
