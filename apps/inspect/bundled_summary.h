// What a bundled program (.bpte) contains, for `inspect`: the format version, the inner
// program's size, and per method suite every test case's inputs and expected outputs
// (dtype and shape, or the scalar's value). The inner program is summarized like any
// .pte (pte_summary.h). Reads untrusted bytes through runtime/bundled's reader, so a
// malformed file gives its named error.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "aot/ir/error.h"

namespace ember::aot {

// Text: a "bundled program" block, then the inner program's summary.
Result<std::string> bundled_summary_text(const std::vector<uint8_t>& bytes);
// JSON: {"bundled": {"version", "program_bytes", "suites": [{"method", "cases": [{"inputs": [..],
// "expected_outputs": [..]}]}]}, "program": <the .pte summary>}; each value is a string:
// "float32[1, 8]", "Int 3", "Bool true", "Double 0.500000".
Result<std::string> bundled_summary_json(const std::vector<uint8_t>& bytes);
// The inner program's bytes (a complete .pte), for inspect --extract_program.
Result<std::vector<uint8_t>> bundled_inner_program(const std::vector<uint8_t>& bytes);

}  // namespace ember::aot
