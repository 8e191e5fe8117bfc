// Fixture models lowered with the "xnnpack" recipe -> .pte (pte_check clean) -> Ember's runtime
// with XnnpackBackend + portable kernels -> compared with PyTorch's reference outputs (manifest
// tolerance, |got - ref| <= atol + rtol |ref|). The delegation summaries and max errors are
// printed. Used by xnnpack_e2e_test and xnnpack_classifiers_test.
#pragma once

#include <string>

namespace ember::testing {

// Lowers, runs and compares every fixture whose id starts with `prefix` (an empty prefix: every
// committed fixture, external ones left out); returns how many ran.
// Each must delegate nodes (except the shared corpus), and the summary must give a reason for
// every node left out. `partitions` >= 0: the xnnpack recipe must delegate in exactly that many
// partitions. Fixtures with a known_fixture_gap() are skipped (and must still fail to lower).
int check_fixtures(const std::string& prefix, int partitions = -1);

// A large fixture (../large_fixtures/pt2) from every torch version present, with the partition
// count the xnnpack recipe must reach; skips the test when no file is present.
void check_large_model(const std::string& model, int partitions);

}  // namespace ember::testing
