// libFuzzer target for the demo backend's bytecode verifier and interpreter: arbitrary
// bytes as a DemoBackend blob through load_program, twice -- as given, and with the
// total_size and checksum fields repaired so mutations reach the slot and instruction
// checks -- then, when a blob verifies, run_program on zero-filled tensors of the
// declared shapes (bounded). Any crash, leak, timeout or sanitizer report is a bug: bad
// bytecode must produce a named error. The same entry point is driven deterministically
// by demo_bytecode_fuzz_test (seeds + random mutations) in the ordinary test suite.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "backends/demo/runtime/bytecode_format.h"
#include "backends/demo/runtime/bytecode_program.h"
#include "backends/demo/runtime/interpreter.h"
#include "runtime/platform/log.h"

namespace {

using namespace ember::backends::demo;  // NOLINT
using ember::runtime::EValue;
using ember::runtime::MemoryAllocator;
using ember::runtime::Tensor;

constexpr size_t kMaxRunFloats = 1 << 18;
alignas(16) uint8_t g_pool[1 << 22];

void run(const DemoProgram& p) {
  const size_t io = size_t{p.num_inputs} + p.num_outputs;
  size_t total = 0;
  for (size_t i = 0; i < io; ++i) total += p.slots[i].numel;
  if (total > kMaxRunFloats) return;
  std::vector<std::vector<float>> data(io);
  std::vector<std::vector<int32_t>> sizes(io);
  std::vector<std::vector<uint8_t>> order(io);
  std::vector<std::vector<int32_t>> strides(io);
  std::vector<Tensor> tensors(io);
  std::vector<EValue> values(io);
  std::vector<EValue*> args(io);
  for (size_t i = 0; i < io; ++i) {
    const DemoSlot& s = p.slots[i];
    data[i].assign(s.numel + 1, 0.f);
    sizes[i].assign(s.sizes, s.sizes + s.rank);
    order[i].resize(s.rank);
    for (size_t d = 0; d < s.rank; ++d) order[i][d] = static_cast<uint8_t>(d);
    strides[i].resize(s.rank);
    tensors[i] = Tensor(ember::runtime::ScalarType::Float, s.rank, sizes[i].data(),
                        order[i].data(), strides[i].data(), data[i].data());
    values[i] = EValue(&tensors[i]);
    args[i] = &values[i];
  }
  (void)run_program(p, {args.data(), args.size()});
}

void load_and_run(const uint8_t* data, size_t size) {
  MemoryAllocator allocator(g_pool, sizeof(g_pool));
  auto program = load_program(data, size, &allocator);
  if (program.ok()) run(*program.get());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static bool quiet = [] {
    ember::runtime::set_min_log_level(ember::runtime::LogLevel::Fatal);
    return true;
  }();
  (void)quiet;
  std::vector<uint8_t> copy(data, data + size);
  load_and_run(copy.data(), copy.size());
  if (size >= kHeaderSize && size <= 0xFFFFFFFFu) {
    const uint32_t total = static_cast<uint32_t>(size);
    for (int i = 0; i < 4; ++i) copy[kOffTotalSize + i] = static_cast<uint8_t>(total >> (8 * i));
    const uint32_t sum = fnv1a32(copy.data() + kHeaderSize, size - kHeaderSize);
    for (int i = 0; i < 4; ++i) copy[kOffChecksum + i] = static_cast<uint8_t>(sum >> (8 * i));
    load_and_run(copy.data(), copy.size());
  }
  return 0;
}
