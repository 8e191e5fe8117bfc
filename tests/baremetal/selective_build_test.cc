// ember_selective_kernels end to end: each fixture program (lowered with the portable recipe)
// runs against PyTorch's reference with only the kernels its selection registered; the MLP's
// selection holds exactly the operators the MLP calls and cannot load the CNN.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "runtime/kernel/prim_ops/prim_ops.h"
#include "tests/baremetal/cnn_expected.h"
#include "tests/baremetal/cnn_input.h"
#include "tests/baremetal/cnn_kernels.h"
#include "tests/baremetal/cnn_program.h"
#include "tests/baremetal/mlp_expected.h"
#include "tests/baremetal/mlp_input.h"
#include "tests/baremetal/mlp_kernels.h"
#include "tests/baremetal/mlp_program.h"
#include "tests/baremetal/model_check.h"

namespace ember::baremetal {
namespace {

using runtime::Error;

alignas(16) uint8_t g_arena[256 * 1024];

// The fixture manifest's tolerance for both models.
const ModelCheck kMlp{ember_program_mlp_program, ember_program_mlp_program_size, mlp_input,
                      mlp_input_size, mlp_expected, mlp_expected_size, 1e-5f, 1e-4f};
const ModelCheck kCnn{ember_program_cnn_program, ember_program_cnn_program_size, cnn_input,
                      cnn_input_size, cnn_expected, cnn_expected_size, 1e-5f, 1e-4f};

std::set<std::string> names(runtime::Span<const runtime::Kernel> kernels) {
  std::set<std::string> s;
  for (const runtime::Kernel& k : kernels) s.insert(k.name);
  return s;
}

TEST(SelectiveBuildTest, MlpSelectionIsExactlyTheMlpsOperators) {
  // mlp.core_aten (manifest: addmm x3, permute x3, relu x2) lowered to out variants; the
  // permutes of the constant weights are folded at lowering, so no permute_copy remains.
  EXPECT_EQ(names(ember_selected::mlp_kernels::kernels()),
            (std::set<std::string>{"aten::addmm.out", "aten::relu.out"}));
}

TEST(SelectiveBuildTest, MlpRunsWithItsSelection) {
  runtime::FixedKernelRegistry<64> registry;
  ASSERT_EQ(runtime::register_prim_ops(registry), Error::Ok);
  ASSERT_EQ(ember_selected::mlp_kernels::register_kernels(registry), Error::Ok);
  CheckResult r = run_model_check(kMlp, registry, {g_arena, sizeof(g_arena)});
  ASSERT_EQ(r.error, Error::Ok) << runtime::error_name(r.error);
  EXPECT_EQ(r.elements, 40u);
  EXPECT_EQ(r.mismatches, 0u) << "max abs error " << r.max_abs_error;
}

TEST(SelectiveBuildTest, CnnRunsWithItsSelection) {
  EXPECT_TRUE(names(ember_selected::cnn_kernels::kernels()).count("aten::convolution.out"));
  runtime::FixedKernelRegistry<64> registry;
  ASSERT_EQ(runtime::register_prim_ops(registry), Error::Ok);
  ASSERT_EQ(ember_selected::cnn_kernels::register_kernels(registry), Error::Ok);
  CheckResult r = run_model_check(kCnn, registry, {g_arena, sizeof(g_arena)});
  ASSERT_EQ(r.error, Error::Ok) << runtime::error_name(r.error);
  EXPECT_EQ(r.elements, 10u);
  EXPECT_EQ(r.mismatches, 0u) << "max abs error " << r.max_abs_error;
}

TEST(SelectiveBuildTest, MissingKernelIsANamedLoadError) {
  runtime::FixedKernelRegistry<64> registry;
  ASSERT_EQ(runtime::register_prim_ops(registry), Error::Ok);
  ASSERT_EQ(ember_selected::mlp_kernels::register_kernels(registry), Error::Ok);
  CheckResult r = run_model_check(kCnn, registry, {g_arena, sizeof(g_arena)});
  EXPECT_EQ(r.error, Error::OperatorMissing) << runtime::error_name(r.error);
}

}  // namespace
}  // namespace ember::baremetal
