// Selective build by (operator, dtype) end to end (ember_selective_kernels dtype_selective):
// the MLP's library is compiled for float32 only, so it runs the MLP against PyTorch's output,
// and its relu kernel refuses an int32 tensor (the instantiation is not in the binary) with an
// error instead of computing, where the full kernel library computes it.
#include <gtest/gtest.h>

#include <cstdint>
#include <set>
#include <string>

#include "kernels/portable/ops/activation.h"
#include "runtime/kernel/kernel_runtime_context.h"
#include "runtime/kernel/prim_ops/prim_ops.h"
#include "tests/baremetal/mlp_dtype_kernels.h"
#include "tests/baremetal/mlp_dtype_kernels_dtypes.h"
#include "tests/baremetal/mlp_expected.h"
#include "tests/baremetal/mlp_input.h"
#include "tests/baremetal/mlp_program.h"
#include "tests/baremetal/model_check.h"

namespace ember::baremetal {
namespace {

using runtime::Error;
using runtime::ScalarType;

alignas(16) uint8_t g_arena[256 * 1024];

TEST(DtypeSelectiveTest, TheMaskIsTheMlpsDtypes) {
  // addmm and relu, all float32 tensors: bit 6 (ScalarType::Float) only.
  EXPECT_EQ(EMBER_SELECTED_DTYPES, 1ull << static_cast<unsigned>(ScalarType::Float));
  std::set<std::string> names;
  for (const runtime::Kernel& k : ember_selected::mlp_dtype_kernels::kernels()) names.insert(k.name);
  EXPECT_EQ(names, (std::set<std::string>{"aten::addmm.out", "aten::relu.out"}));
}

TEST(DtypeSelectiveTest, MlpRunsWithItsSelection) {
  runtime::FixedKernelRegistry<64> registry;
  ASSERT_EQ(runtime::register_prim_ops(registry), Error::Ok);
  ASSERT_EQ(ember_selected::mlp_dtype_kernels::register_kernels(registry), Error::Ok);
  const ModelCheck mlp{ember_program_mlp_program, ember_program_mlp_program_size, mlp_input,
                       mlp_input_size, mlp_expected, mlp_expected_size, 1e-5f, 1e-4f};
  CheckResult r = run_model_check(mlp, registry, {g_arena, sizeof(g_arena)});
  ASSERT_EQ(r.error, Error::Ok) << runtime::error_name(r.error);
  EXPECT_EQ(r.elements, 40u);
  EXPECT_EQ(r.mismatches, 0u) << "max abs error " << r.max_abs_error;
}

// relu over 4 elements of `type`; returns the kernel's failure state.
template <typename T>
Error relu4(ScalarType type, T (&in)[4], T (&out)[4]) {
  runtime::SizesType sizes[1] = {4};
  runtime::DimOrderType order[1] = {0};
  runtime::StridesType in_strides[1], out_strides[1];
  runtime::Tensor a(type, 1, sizes, order, in_strides, in);
  runtime::Tensor b(type, 1, sizes, order, out_strides, out);
  runtime::KernelRuntimeContext ctx;
  kernels::portable::relu_out(ctx, a, b);
  return ctx.failure_state();
}

TEST(DtypeSelectiveTest, AnUnselectedDtypeIsRefused) {
  float fin[4] = {-1.5f, 2.0f, -0.0f, 3.0f}, fout[4] = {9, 9, 9, 9};
  ASSERT_EQ(relu4(ScalarType::Float, fin, fout), Error::Ok);
  EXPECT_EQ(fout[0], 0.0f);
  EXPECT_EQ(fout[1], 2.0f);
  int32_t iin[4] = {-3, 4, -5, 6}, iout[4] = {9, 9, 9, 9};
  EXPECT_NE(relu4(ScalarType::Int, iin, iout), Error::Ok);
  EXPECT_EQ(iout[1], 9) << "int32 relu ran: the int32 instantiation was compiled in";
}

}  // namespace
}  // namespace ember::baremetal
