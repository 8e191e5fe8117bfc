// The entry points of the runner_inputs_fuzz target (runner_inputs_fuzz.cc), for the
// in-suite test.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "runtime/core/error.h"

namespace ember::fuzz {

// One fuzz input (format in runner_inputs_fuzz.cc): Ok, or the runner's error.
runtime::Error runner_inputs_fuzz_input(const uint8_t* data, size_t size);

// What executor_runner does with --input_shapes `shapes_text` and --inputs `files` on the
// target's fixed program (out = a + b, float[<=2] each): parse, load, build the inputs,
// execute. Ok, or a named error with its message recorded.
runtime::Error run_with_runner_inputs(const std::string& shapes_text, const std::vector<std::string>& files);

}  // namespace ember::fuzz
