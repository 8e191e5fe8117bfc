// The entry point of the pt2_read_fuzz target (pt2_read_fuzz.cc), for the in-suite test.
#pragma once

#include <cstddef>
#include <cstdint>

#include "aot/ir/error.h"

namespace ember::fuzz {

// Reads one fuzz input (pt2_entries.h) as a .pt2 with weights: Ok, or the reader's error
// (with its message recorded).
aot::Error read_fuzz_input(const uint8_t* data, size_t size);

}  // namespace ember::fuzz
