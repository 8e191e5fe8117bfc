// The training IR end to end (issue #13): a fixture exported with torch.export.export and
// saved without run_decompositions() is lowered with a recipe ("portable" or "xnnpack"),
// checked with pte_check, run on Ember's runtime (portable kernels, XnnpackBackend for
// delegate calls) and compared with PyTorch's reference outputs (manifest tolerance). Used by
// training_ir_test (committed fixtures) and training_ir_large_test (external ones).
#pragma once

#include <string>

#include "tests/e2e/fixture_corpus.h"

namespace ember::testing {

// Lowers, checks, runs and compares `f` with `recipe`; adds a test failure for anything
// wrong (lowering error, pte_check violation, missing kernel, mismatch). Returns a summary
// line for the test's table.
std::string check_training_ir_fixture(const Fixture& f, const std::string& recipe);

// The training-IR fixtures of list_fixtures() that are external (true) or committed (false).
std::vector<Fixture> training_ir_fixtures(bool external);

}  // namespace ember::testing
