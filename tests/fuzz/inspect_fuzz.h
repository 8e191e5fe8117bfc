// The entry point of the inspect_fuzz target (inspect_fuzz.cc), for the in-suite test.
#pragma once

#include <cstddef>
#include <cstdint>

#include "aot/ir/error.h"

namespace ember::fuzz {

// Summarizes one fuzz input as `inspect` would (a .pte, or a .pt2 per pt2_entries.h): Ok,
// or the error the reader returned (with its message recorded).
aot::Error inspect_fuzz_input(const uint8_t* data, size_t size);

}  // namespace ember::fuzz
