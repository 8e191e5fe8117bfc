// Hand-built programs and byte readers for the emitter tests (see test_programs.h).
#include "aot/emit/testing/test_programs.h"

#include <algorithm>
#include <cstddef>

namespace ember::aot::emit_test {

EmitTensor float_2x2(int64_t offset) {
  EmitTensor t;
  t.scalar_type = 6;
  t.sizes = {2, 2};
  t.dim_order = {0, 1};
  if (offset >= 0) {
    t.memory_id = 1;
    t.memory_offset = static_cast<uint64_t>(offset);
  }
  return t;
}

EmitMethod add_method(const std::string& name) {
  EmitMethod m;
  m.name = name;
  m.values = {EmitValue::of_tensor(float_2x2(0)), EmitValue::of_tensor(float_2x2(16)),
              EmitValue::of_int(1), EmitValue::of_tensor(float_2x2(32))};
  m.inputs = {0, 1};
  m.outputs = {3};
  m.operators = {{"aten::add", "out"}};
  m.instructions = {EmitInstruction::kernel(0, {0, 1, 2, 3, 3})};
  m.non_const_buffer_sizes = {0, 48};
  return m;
}

uint32_t u32_at(const std::vector<uint8_t>& b, size_t offset) {
  uint32_t v = 0;
  for (int i = 0; i < 4; ++i) v |= uint32_t{b.at(offset + i)} << (8 * i);
  return v;
}

uint64_t u64_at(const std::vector<uint8_t>& b, size_t offset) {
  uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v |= uint64_t{b.at(offset + i)} << (8 * i);
  return v;
}

std::vector<uint8_t> strip_header(const std::vector<uint8_t>& file, size_t header_bytes,
                                  size_t program_size) {
  // Sized once (root offset + magic, then the program after the header) instead of growing an
  // 8-byte vector by insert(): GCC 12 at -O2 misreads that reallocation as a memcpy past the
  // 8 bytes (-Werror=array-bounds), and the sizes are checked here instead of assumed.
  const size_t body = 8 + header_bytes;
  if (program_size < body || program_size > file.size()) return {};
  std::vector<uint8_t> out(8 + (program_size - body));
  std::copy(file.begin(), file.begin() + 8, out.begin());
  std::copy(file.begin() + static_cast<std::ptrdiff_t>(body),
            file.begin() + static_cast<std::ptrdiff_t>(program_size), out.begin() + 8);
  uint32_t root = u32_at(file, 0) - static_cast<uint32_t>(header_bytes);
  for (int i = 0; i < 4; ++i) out[i] = static_cast<uint8_t>(root >> (8 * i));
  return out;
}

}  // namespace ember::aot::emit_test
