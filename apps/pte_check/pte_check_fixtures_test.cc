// Every upstream-written .pte in shared/fixtures/executorch-pte passes the
// checker with no errors, with KernelCall arg counts checked for the ATen ops
// whose schemas are known (pte-format.md section 0 item 9 and section 4.2).
// The only warnings are the four files written before constant_segment existed
// (deprecated constant_buffer); they are listed here so that a new warning fails.
#include <gtest/gtest.h>

#include <set>

#include "apps/pte_check/pte_check.h"
#include "tests/support/shared_fixtures.h"

namespace ember::aot {
namespace {

// Written with the inline constant_buffer (pre-0.7 exporters); accepted by the
// runtime on its deprecated path only.
const std::set<std::string> kDeprecatedConstantBuffer{
    "pytorch__executorch__ModuleLinear-no-constant-segment.pte",
    "pytorch__executorch__module_test_model_2024-01.pte",
    "barakugav__executorch-rs__no_std_model.pte",
    "mybigday__node-executorch__mul.pte",
};

TEST(PteCheckFixtures, UpstreamFilesHaveNoErrors) {
  // Schema argument count + 1 return slot: add.out(self, other, *, alpha, out),
  // mul.out(self, other, *, out), addmm.out(self, mat1, mat2, *, beta, alpha, out),
  // permute_copy.out(self, dims, *, out), _softmax.out(self, dim, half_to_float, *, out).
  PteCheckOptions options;
  options.kernel_arg_counts = {{"aten::add.out", 5},
                               {"aten::mul.out", 4},
                               {"aten::addmm.out", 7},
                               {"aten::permute_copy.out", 4},
                               {"aten::_softmax.out", 5}};
  std::string shared = ember::testing::shared_dir();
  if (shared.empty()) GTEST_SKIP() << ember::testing::skip_message();
  std::string dir = shared + "/fixtures/executorch-pte";
  std::vector<std::string> files = ember::testing::list_files(dir, ".pte");
  ASSERT_GE(files.size(), 40u);
  for (const std::string& name : files) {
    std::vector<uint8_t> bytes;
    ASSERT_TRUE(ember::testing::read_file(dir + "/" + name, &bytes)) << name;
    std::vector<PteViolation> violations = check_pte(bytes, options);
    for (const PteViolation& v : violations) {
      std::printf("%s: %s\n", name.c_str(), v.to_string().c_str());
      if (v.severity == PteSeverity::Warning) {
        EXPECT_TRUE(kDeprecatedConstantBuffer.count(name) &&
                    (v.rule == "constant.segment_missing" ||
                     v.rule == "constant.deprecated_buffer"))
            << name << ": unexpected " << v.to_string();
      }
    }
    EXPECT_EQ(count_errors(violations), 0u) << name;
  }
}

}  // namespace
}  // namespace ember::aot
