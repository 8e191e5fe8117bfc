// Runs the PyTorch-generated cases of kernels/test/cases_fast_paths (shapes the portable
// kernels' vectorised paths special-case: depthwise conv rows/channels paths, grouped convs
// on small planes, 1x1 convs on tiny planes, mm with a transposed B, mean, max pool, softmax,
// layer_norm and the exp-based activations with vector tails; made by
// refgen/kernel_cases/fast_path_cases.py) against the portable kernel library.
#include <cstdio>
#include <string>

#include <gtest/gtest.h>

#include "kernels/portable/register_kernels.h"
#include "kernels/portable/util/neon_paths.h"
#include "kernels/test/kernel_case_runner.h"

namespace ember::kernels::testing {
namespace {

TEST(PortableFastPathCasesTest, EveryCaseFilePasses) {
  runtime::FixedKernelRegistry<1024> registry;
  ASSERT_EQ(portable::register_kernels(registry), runtime::Error::Ok);
  const std::vector<std::string> files = list_case_files("kernels/test/cases_fast_paths");
  ASSERT_FALSE(files.empty()) << "no case files in kernels/test/cases_fast_paths";
  size_t total = 0, passed = 0;
  for (const std::string& path : files) {
    CaseFile file;
    ASSERT_EQ(read_case_file(path, &file), "") << path;
    const FileOutcome o = run_case_file(registry, file);
    EXPECT_TRUE(o.registered) << o.op_key;
    total += o.cases;
    passed += o.passed;
    for (size_t i = 0; i < o.failures.size() && i < 5; ++i) {
      ADD_FAILURE() << o.op_key << " case " << o.failures[i];
    }
  }
  std::printf("fast-path cases: %zu/%zu passed in %zu files\n", passed, total, files.size());
  EXPECT_EQ(passed, total);
#if defined(__aarch64__)
  // The NEON paths (kernels/portable/util/neon_paths.h) ran for these cases, not only the
  // portable fallback.
  for (portable::NeonPath p : {portable::NeonPath::VecMath, portable::NeonPath::Depthwise3x3,
                               portable::NeonPath::MaxPool}) {
    EXPECT_GT(portable::neon_path_calls(p), 0u)
        << "no case ran through the NEON path " << portable::neon_path_name(p);
  }
#endif
}

}  // namespace
}  // namespace ember::kernels::testing
