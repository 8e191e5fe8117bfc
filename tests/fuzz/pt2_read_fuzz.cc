// libFuzzer target: the .pt2 reader alone (zip, JSON, pickle, weights) on arbitrary input
// (pt2_entries.h: a raw zip, or entries re-packed with valid CRCs). pt2_lower_fuzz covers the
// same reader plus the whole lowering, but at a few inputs per second; this target runs the
// reader at thousands per second, so the campaign can give it millions of inputs
// (docs/fuzzing.md). pt2_read_fuzz_test drives the same entry point in `bazel test`.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "aot/frontend/pt2_reader.h"
#include "runtime/platform/log.h"
#include "tests/fuzz/pt2_entries.h"
#include "tests/fuzz/pt2_read_fuzz.h"

namespace ember::fuzz {

aot::Error read_fuzz_input(const uint8_t* data, size_t size) {
  const std::vector<uint8_t> pt2 = pt2_bytes(data, size);
  aot::Result<aot::Graph> graph = aot::read_pt2_buffer(pt2.data(), pt2.size(), "fuzz.pt2", aot::Pt2ReadOptions{});
  return graph.ok() ? aot::Error::Ok : graph.error();
}

}  // namespace ember::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  ember::runtime::set_min_log_level(ember::runtime::LogLevel::Fatal);
  (void)ember::fuzz::read_fuzz_input(data, size);
  return 0;
}
