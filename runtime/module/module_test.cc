// Module: load from bytes, execute, method names and errors.
#include "runtime/module/module.h"

#include <gtest/gtest.h>

#include "tests/runtime/program_builder.h"
#include "tests/runtime/test_kernels.h"

namespace ember::runtime {
namespace {

TEST(ModuleTest, ExecutesFromBytes) {
  FixedKernelRegistry<8> kernels;
  ASSERT_EQ(testing::register_test_kernels(kernels), Error::Ok);
  BackendRegistry backends;
  const std::vector<uint8_t> bytes = testing::serialize(*testing::make_add_program());
  Module module(bytes.data(), bytes.size());
  Module::Options options;
  options.method.kernels = &kernels;
  options.method.backends = &backends;
  module.set_options(options);
  auto names = module.method_names();
  ASSERT_TRUE(names.ok());
  ASSERT_EQ(names->size(), 1u);
  EXPECT_EQ((*names)[0], "forward");
  float a_data[2] = {1, 2}, b_data[2] = {10, 20};
  int32_t sizes[2][1] = {{2}, {2}};
  uint8_t order[2][1] = {{0}, {0}};
  int32_t strides[2][1];
  Tensor a(ScalarType::Float, 1, sizes[0], order[0], strides[0], a_data);
  Tensor b(ScalarType::Float, 1, sizes[1], order[1], strides[1], b_data);
  auto outputs = module.forward({EValue(&a), EValue(&b)});
  ASSERT_TRUE(outputs.ok());
  const float* out = (*outputs)[0].to_tensor().const_data_ptr<float>();
  EXPECT_EQ(out[0], 11.0f);
  EXPECT_EQ(out[1], 22.0f);
  EXPECT_TRUE(module.is_method_loaded("forward"));
  EXPECT_EQ(module.execute("nope", {}).error(), Error::NotFound);
  EXPECT_EQ(module.forward({EValue(&a)}).error(), Error::InvalidArgument);
}

TEST(ModuleTest, MissingFileIsNotFound) {
  Module module("/nonexistent/model.pte");
  EXPECT_EQ(module.load(), Error::NotFound);
}

}  // namespace
}  // namespace ember::runtime
