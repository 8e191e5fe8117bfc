// A checker for .pte files: reads the bytes of an ExecuTorch program (ours or
// upstream's) and reports every place where it breaks a format rule of
// shared/docs/pte-format.md that the upstream runtime relies on, plus the places
// where it differs from what today's upstream writer produces.
//
// Rules checked, by id prefix:
//   file.*          size, "ET12" identifier
//   header.*        eh00 extended header: length, program_size, segment base and
//                   data size against the file size, header only with segment data
//   flatbuffer.*    the FlatBuffers verifier over [0, program_size)
//   segment.*       DataSegment bounds (inside the file and segment_data_size),
//                   128-byte alignment, sorted offsets
//   constant.*      constant_segment present with offsets [0, ...], offsets 16-aligned
//                   and inside the segment, deprecated constant_buffer
//   mutable.*, named_data.*, delegate.*   indices into segments/inline data
//   plan.*          required fields, non_const_buffer_sizes[0] == 0, inputs/outputs
//   value.*         EValue payloads, Tensor rules (rank <= 16, dim_order, storage
//                   offset, dynamism, dtype), constant/mutable data in bounds,
//                   memory_id >= 1 and planned bytes inside their buffer, list
//                   items pointing at Int/Tensor values and preceding the list
//   instruction.*   indices in range, KernelCall arg count against a provided schema
//
// Each violation has a severity: kError means the upstream runtime would reject
// the file or read out of bounds; kWarning means it is accepted (possibly on a
// deprecated path) but today's upstream writer would not produce it. The checker
// never crashes on malformed input: it stops at the first structural failure
// (e.g. the FlatBuffers verifier) and reports it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace ember::aot {

enum class PteSeverity : uint8_t { Error, Warning };

struct PteViolation {
  PteSeverity severity = PteSeverity::Error;
  std::string rule;      // e.g. "value.memory_id"
  std::string location;  // e.g. "plan 'forward' value 3"
  std::string message;   // expected versus actual
  // "error value.memory_id at plan 'forward' value 3: memory_id 0, must be >= 1"
  std::string to_string() const;
};

struct PteCheckOptions {
  // Expected KernelCall.args length per operator key "name.overload" (or name
  // alone for an empty overload): the number of schema arguments + 1 return slot.
  // Operators not listed are not checked.
  std::map<std::string, size_t> kernel_arg_counts;
};

std::vector<PteViolation> check_pte(const uint8_t* data, size_t size,
                                    const PteCheckOptions& options = PteCheckOptions());
inline std::vector<PteViolation> check_pte(const std::vector<uint8_t>& bytes,
                                           const PteCheckOptions& options = PteCheckOptions()) {
  return check_pte(bytes.data(), bytes.size(), options);
}

// Number of violations with severity kError.
size_t count_errors(const std::vector<PteViolation>& violations);

}  // namespace ember::aot
