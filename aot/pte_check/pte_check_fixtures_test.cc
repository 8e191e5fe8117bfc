// Every upstream-written .pte in shared/fixtures/executorch-pte passes the
// checker with no errors. Warnings are printed; the ones expected for older
// writers are listed in the test (see README-level notes in pte_check.h).
#include <gtest/gtest.h>

#include "aot/pte_check/pte_check.h"
#include "tests/support/shared_fixtures.h"

namespace ember::aot {
namespace {

TEST(PteCheckFixtures, UpstreamFilesHaveNoErrors) {
  std::string shared = ember::testing::shared_dir();
  if (shared.empty()) GTEST_SKIP() << ember::testing::skip_message();
  std::string dir = shared + "/fixtures/executorch-pte";
  std::vector<std::string> files = ember::testing::list_files(dir, ".pte");
  ASSERT_GE(files.size(), 40u);
  for (const std::string& name : files) {
    std::vector<uint8_t> bytes;
    ASSERT_TRUE(ember::testing::read_file(dir + "/" + name, &bytes)) << name;
    std::vector<PteViolation> violations = check_pte(bytes);
    for (const PteViolation& v : violations) {
      std::printf("%s: %s\n", name.c_str(), v.to_string().c_str());
    }
    EXPECT_EQ(count_errors(violations), 0u) << name;
  }
}

}  // namespace
}  // namespace ember::aot
