// The entry point of the pt2_lower_fuzz target (pt2_lower_fuzz.cc), for the in-suite test.
#pragma once

#include <cstddef>
#include <cstdint>

#include "aot/ir/error.h"

namespace ember::fuzz {

// Reads and lowers one fuzz input (pt2_entries.h) with the portable recipe: Ok, or the
// error the pipeline returned (with its message recorded).
aot::Error lower_fuzz_input(const uint8_t* data, size_t size);

// True when an error message is the lowering's self-check failing (check_pte_loads): the
// verifier let through a graph whose .pte Ember's own loader rejects. The fuzz target
// treats it as a crash.
bool is_lowering_bug(const char* message);

}  // namespace ember::fuzz
