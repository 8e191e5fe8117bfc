// Builds small .pte programs in memory for runtime tests, with the FlatBuffers
// object API: a known-good base program (out = a + alpha * b on float[2],
// inputs memory-planned) that tests mutate into bad files, and serialization
// with an optional "eh00" extended header and segment data appended the way
// upstream's writer lays it out (pte-format.md 2.2).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "schema/program_generated.h"

namespace ember::testing {

namespace fbs = ::executorch_flatbuffer;

// values: 0 = a (float[2], planned at 0), 1 = b (float[2], planned at 16),
// 2 = alpha (Int 1), 3 = out (float[2], planned at 32); one KernelCall
// aten::add.out [0, 1, 2, 3, 3]; non_const_buffer_sizes [0, 48].
std::unique_ptr<fbs::ProgramT> make_add_program();

// A float tensor value of `sizes`, planned in buffer `memory_id` at `offset` (memory_id 0 = unplanned).
std::unique_ptr<fbs::EValueT> make_tensor_value(std::vector<int32_t> sizes, uint32_t memory_id,
                                                uint32_t offset);
std::unique_ptr<fbs::EValueT> make_int_value(int64_t v);

// Serializes `program`; when `segments` is non-empty, program->segments is
// rewritten to describe them and an extended header is inserted.
// `header_length` 24 writes the pre-Sep-2025 header (no segment_data_size).
std::vector<uint8_t> serialize(const fbs::ProgramT& program,
                               const std::vector<std::vector<uint8_t>>& segments = {},
                               uint32_t header_length = 32);

// Serializes `program` with its segments exactly as given (even out of range)
// behind an extended header, and appends `region` as the segment data.
std::vector<uint8_t> serialize_with_region(const fbs::ProgramT& program,
                                           const std::vector<uint8_t>& region,
                                           uint32_t header_length = 32);

// Copies bytes into storage aligned for Program::load.
class AlignedBytes {
 public:
  explicit AlignedBytes(const std::vector<uint8_t>& bytes);
  const uint8_t* data() const { return reinterpret_cast<const uint8_t*>(storage_.data()); }
  uint8_t* data() { return reinterpret_cast<uint8_t*>(storage_.data()); }
  size_t size() const { return size_; }

 private:
  std::vector<std::max_align_t> storage_;
  size_t size_;
};

}  // namespace ember::testing
