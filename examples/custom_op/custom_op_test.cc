// The custom operator example end to end: the .pt2 files PyTorch exported with the
// torch.library op mylib::scaled_add (torch 2.6 and 2.14, training IR and core ATen), lowered
// by ember_pte with --custom_ops scaled_add_ops.yaml (portable and XNNPACK recipes), run on
// Ember's runtime with the example's C++ kernel, and compared with eager PyTorch's outputs
// (the .output0.bin files refgen/fixtures/generate_custom_op.py wrote). Without the kernel the
// method does not load: OperatorMissing naming mylib::scaled_add.out.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "backends/xnnpack/runtime/xnnpack_backend.h"
#include "examples/custom_op/scaled_add_kernel.h"
#include "kernels/portable/register_kernels.h"
#include "runtime/backend/backend_registry.h"
#include "runtime/core/diagnostics.h"
#include "runtime/kernel/prim_ops/prim_ops.h"
#include "runtime/module/module.h"

namespace {

using namespace ember::runtime;

constexpr const char* kDir = "examples/custom_op/";

std::vector<float> read_floats(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in.good()) << path;
  std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<float> out(bytes.size() / sizeof(float));
  std::memcpy(out.data(), bytes.data(), out.size() * sizeof(float));
  return out;
}

// The runtime as an app sets it up: prim ops, the portable kernels, the app's own kernels
// (when `with_custom`), and the XNNPACK backend.
struct Runtime {
  FixedKernelRegistry<kDefaultKernelRegistryCapacity> kernels;
  BackendRegistry backends;
  explicit Runtime(bool with_custom) {
    EXPECT_EQ(register_prim_ops(kernels), Error::Ok);
    EXPECT_EQ(ember::kernels::portable::register_kernels(kernels), Error::Ok);
    if (with_custom) {
      EXPECT_EQ(mylib::register_kernels(kernels), Error::Ok);
    }
    EXPECT_EQ(ember::backends::xnnpack::register_backend(backends), Error::Ok);
  }
  Module::Options options() const {
    Module::Options o;
    o.method.kernels = &kernels;
    o.method.backends = &backends;
    return o;
  }
};

struct Case {
  const char* pte;      // ember_pte target in this package
  const char* fixture;  // scaled_add.<dialect>.<torch>
};

class CustomOpTest : public ::testing::TestWithParam<Case> {};

TEST_P(CustomOpTest, MatchesPyTorch) {
  const Case& c = GetParam();
  Runtime rt(/*with_custom=*/true);
  Module module(std::string(kDir) + c.pte + ".pte");
  module.set_options(rt.options());
  const std::string base = std::string(kDir) + c.fixture;
  std::vector<float> x = read_floats(base + ".input0.bin");
  std::vector<float> y = read_floats(base + ".input1.bin");
  const std::vector<float> want = read_floats(base + ".output0.bin");
  ASSERT_EQ(x.size(), 16u);
  ASSERT_EQ(want.size(), 16u);
  int32_t sizes[2][2] = {{2, 8}, {2, 8}};
  uint8_t order[2][2] = {{0, 1}, {0, 1}};
  int32_t strides[2][2];
  Tensor tx(ScalarType::Float, 2, sizes[0], order[0], strides[0], x.data());
  Tensor ty(ScalarType::Float, 2, sizes[1], order[1], strides[1], y.data());
  auto outputs = module.forward({EValue(&tx), EValue(&ty)});
  ASSERT_TRUE(outputs.ok()) << error_name(outputs.error()) << ": " << last_error_message();
  ASSERT_EQ(outputs->size(), 1u);
  const Tensor& got = (*outputs)[0].to_tensor();
  ASSERT_EQ(got.numel(), want.size());
  const float* g = got.const_data_ptr<float>();
  for (size_t i = 0; i < want.size(); ++i) {
    EXPECT_LE(std::fabs(g[i] - want[i]), 1e-5f + 1e-5f * std::fabs(want[i])) << c.pte << " [" << i << "]";
  }
}

INSTANTIATE_TEST_SUITE_P(
    Fixtures, CustomOpTest,
    ::testing::Values(Case{"scaled_add_core_aten_torch2_6", "scaled_add.core_aten.torch2_6"},
                      Case{"scaled_add_training_ir_torch2_6", "scaled_add.training_ir.torch2_6"},
                      Case{"scaled_add_core_aten_torch2_14", "scaled_add.core_aten.torch2_14"},
                      Case{"scaled_add_training_ir_torch2_14", "scaled_add.training_ir.torch2_14"},
                      Case{"scaled_add_xnnpack_torch2_6", "scaled_add.core_aten.torch2_6"},
                      Case{"scaled_add_xnnpack_torch2_14", "scaled_add.training_ir.torch2_14"}),
    [](const ::testing::TestParamInfo<Case>& info) { return std::string(info.param.pte); });

TEST(CustomOpTest, MissingKernelIsOperatorMissingNamingTheOp) {
  Runtime rt(/*with_custom=*/false);
  Module module(std::string(kDir) + "scaled_add_core_aten_torch2_6.pte");
  module.set_options(rt.options());
  auto method = module.load_method("forward");
  ASSERT_FALSE(method.ok());
  EXPECT_EQ(method.error(), Error::OperatorMissing);
  EXPECT_NE(std::string(last_error_message()).find("mylib::scaled_add.out"), std::string::npos)
      << last_error_message();
}

TEST(CustomOpTest, KernelRejectsBadInputWithoutCrashing) {
  float a_data[2] = {1, 2}, b_data[3] = {1, 2, 3}, out_data[2] = {0, 0};
  int32_t sa[1] = {2}, sb[1] = {3}, so[1] = {2};
  uint8_t order[1] = {0};
  int32_t st[3][1];
  Tensor a(ScalarType::Float, 1, sa, order, st[0], a_data);
  Tensor b(ScalarType::Float, 1, sb, order, st[1], b_data);
  Tensor out(ScalarType::Float, 1, so, order, st[2], out_data);
  KernelRuntimeContext ctx;
  mylib::scaled_add_out(ctx, a, b, 2.0, out);
  EXPECT_EQ(ctx.failure_state(), Error::InvalidArgument);
  KernelRuntimeContext ok;
  mylib::scaled_add_out(ok, a, a, 0.5, out);  // 1 + 0.5*1, 2 + 0.5*2
  EXPECT_EQ(ok.failure_state(), Error::Ok);
  EXPECT_EQ(out_data[0], 1.5f);
  EXPECT_EQ(out_data[1], 3.0f);
}

}  // namespace
