// What the lowered-decoder tests of tests/llm share: module options with every linked kernel and
// backend registered once, and a fixture's prompt as token ids.
#pragma once

#include <cstdint>
#include <vector>

#include "runtime/module/module.h"
#include "tests/e2e/fixture_corpus.h"

namespace ember::testing {

// Options whose kernel and backend registries hold everything linked into the test (registered
// on first use; a failure is a test failure).
runtime::Module::Options registered();

// The fixture's first case's input 0 (int64 token ids) as int32 ids.
std::vector<int32_t> prompt_of(const Fixture& f);

}  // namespace ember::testing
