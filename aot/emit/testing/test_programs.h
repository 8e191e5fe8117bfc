// Hand-built EmitPrograms shared by the emitter tests, and little helpers to read
// a .pte's container fields by hand (little-endian, pte-format.md 2.1) so that
// the tests check bytes without going through the code under test.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "aot/emit/emit_program.h"
#include "aot/ir/testing/graph_builder.h"

namespace ember::aot::emit_test {

// float[2,2] tensor, contiguous; planned in buffer 1 at `offset` if offset >= 0.
EmitTensor float_2x2(int64_t offset);

// forward(a, b) = a + b for float[2,2], IO planned: values [a@0, b@16, Int 1, out@32],
// aten::add.out args [0, 1, 2, 3, 3], non_const_buffer_sizes [0, 48].
EmitMethod add_method(const std::string& name = "forward");

// Little-endian readers over a byte vector.
uint32_t u32_at(const std::vector<uint8_t>& b, size_t offset);
uint64_t u64_at(const std::vector<uint8_t>& b, size_t offset);

using testing::float_bytes;  // little-endian float32 bytes (aot/ir/testing/graph_builder.h)

// Removes the extended header: bytes [0,8) with the root offset reduced by
// `header_bytes`, then bytes [8 + header_bytes, program_size).
std::vector<uint8_t> strip_header(const std::vector<uint8_t>& file, size_t header_bytes,
                                  size_t program_size);

}  // namespace ember::aot::emit_test
