// Runs the PyTorch-generated cases of the three FFT ops (kernels/test/cases/aten___fft_*.case,
// written by refgen/kernel_cases/ops_fft.py from torch.fft's own kernels) against the FFT
// library, and checks that every op it registers has a case file.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "kernels/fft/register_kernels.h"
#include "kernels/test/kernel_case_runner.h"

namespace ember::kernels::testing {
namespace {

TEST(FftCasesTest, EveryFftCaseFilePasses) {
  runtime::FixedKernelRegistry<8> registry;
  ASSERT_EQ(fft::register_kernels(registry), runtime::Error::Ok);
  std::set<std::string> unchecked;
  for (const runtime::Kernel& k : fft::fft_kernels()) unchecked.insert(k.name);
  size_t cases = 0;
  for (const std::string& path : list_case_files("kernels/test/cases")) {
    if (path.find("aten___fft_") == std::string::npos) continue;
    CaseFile file;
    ASSERT_EQ(read_case_file(path, &file), "") << path;
    const FileOutcome o = run_case_file(registry, file);
    ASSERT_TRUE(o.registered) << o.op_key;
    unchecked.erase(o.op_key);
    cases += o.cases;
    for (const std::string& f : o.failures) ADD_FAILURE() << o.op_key << " case " << f;
  }
  EXPECT_TRUE(unchecked.empty()) << "no case file for " << *unchecked.begin();
  EXPECT_GE(cases, 16u);
}

}  // namespace
}  // namespace ember::kernels::testing
