// Runs every PyTorch-generated case file in kernels/test/cases against the
// portable kernel library. Fails on any mismatch and on case files whose op
// the library does not register (listed in the failure message).
#include <cstdio>
#include <string>

#include <gtest/gtest.h>

#include "kernels/portable/register_kernels.h"
#include "kernels/portable/util/neon_paths.h"
#include "kernels/test/kernel_case_runner.h"

namespace ember::kernels::testing {
namespace {

// Ops with case files that the portable library does not implement yet. The
// test fails if any other op is missing, and also if one of these becomes
// registered (so the list only shrinks).
const char* const kNotYetImplemented[] = {
    "aten::convolution_backward.out",
};

// Ops whose case files another kernel library runs: the optional FFT library
// (//kernels/fft:fft_cases_test), which links KissFFT.
const char* const kOtherLibraries[] = {
    "aten::_fft_r2c.out",
    "aten::_fft_c2r.out",
    "aten::_fft_c2c.out",
};

bool expected_missing(const std::string& op) {
  for (const char* name : kNotYetImplemented) {
    if (op == name) return true;
  }
  return false;
}

bool in_other_library(const std::string& op) {
  for (const char* name : kOtherLibraries) {
    if (op == name) return true;
  }
  return false;
}

TEST(PortableCasesTest, EveryCaseFilePasses) {
  runtime::FixedKernelRegistry<1024> registry;
  ASSERT_EQ(portable::register_kernels(registry), runtime::Error::Ok);
  const std::vector<std::string> files = list_case_files("kernels/test/cases");
  if (files.empty()) GTEST_SKIP() << "no case files in kernels/test/cases";
  std::string missing;
  size_t total = 0, passed = 0, ops_ok = 0;
  for (const std::string& path : files) {
    CaseFile file;
    const std::string error = read_case_file(path, &file);
    ASSERT_EQ(error, "") << path;
    const FileOutcome o = run_case_file(registry, file);
    if (!o.registered) {
      if (!expected_missing(o.op_key) && !in_other_library(o.op_key)) missing += " " + o.op_key;
      continue;
    }
    EXPECT_FALSE(expected_missing(o.op_key))
        << o.op_key << " is registered now: remove it from kNotYetImplemented";
    total += o.cases;
    passed += o.passed;
    if (o.failures.empty()) ++ops_ok;
    for (size_t i = 0; i < o.failures.size() && i < 3; ++i) {
      ADD_FAILURE() << o.op_key << " case " << o.failures[i];
    }
    if (o.failures.size() > 3) {
      ADD_FAILURE() << o.op_key << ": " << o.failures.size() << " failing cases in all";
    }
  }
  std::printf("portable cases: %zu/%zu passed; %zu of %zu files fully pass\n", passed, total,
              ops_ok, files.size());
  EXPECT_TRUE(missing.empty()) << "case files for unregistered ops:" << missing;
#if defined(__aarch64__)
  // The NEON paths (kernels/portable/util/neon_paths.h) ran for these cases, not only the
  // portable fallback.
  // (3x3 depthwise on wide planes: portable_fast_path_cases_test.)
  for (portable::NeonPath p :
       {portable::NeonPath::VecMath, portable::NeonPath::Binary, portable::NeonPath::MaxPool}) {
    EXPECT_GT(portable::neon_path_calls(p), 0u)
        << "no case ran through the NEON path " << portable::neon_path_name(p);
  }
#endif
}

}  // namespace
}  // namespace ember::kernels::testing
