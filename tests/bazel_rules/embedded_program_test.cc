// ember_embedded_program end to end: //tests/fixtures' mlp .pt2 lowered by ember_pte (recipe
// xnnpack and portable), embedded as a const array, loaded with BufferDataLoader (no copy, no
// file) and run; the outputs must match PyTorch's reference (mlp...output0.bin, written by
// torch 2.6 in the fixture generator) within the manifest's tolerance. Also: the array is
// aligned as declared and holds exactly the bytes of the .pte the rule wrote.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "backends/xnnpack/runtime/xnnpack_backend.h"
#include "kernels/portable/register_kernels.h"
#include "runtime/backend/backend_registry.h"
#include "runtime/core/hierarchical_allocator.h"
#include "runtime/core/memory_allocator.h"
#include "runtime/core/memory_manager.h"
#include "runtime/executor/program.h"
#include "runtime/kernel/kernel_registry.h"
#include "runtime/kernel/prim_ops/prim_ops.h"
#include "runtime/loader/buffer_data_loader.h"
#include "tests/bazel_rules/mlp_portable_program.h"
#include "tests/bazel_rules/mlp_xnnpack_program.h"
#include "tests/bazel_rules/two_methods_program.h"

namespace ember::runtime {
namespace {

const char kFixture[] = "tests/fixtures/pt2/mlp.core_aten.torch2_6";

std::vector<uint8_t> read_bytes(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
}

// Loads the program at `data` through BufferDataLoader, runs "forward" on the fixture's
// input and compares output 0 with the PyTorch reference.
void run_and_compare(const uint8_t* data, size_t size) {
  FixedKernelRegistry<kDefaultKernelRegistryCapacity> registry;
  ASSERT_EQ(register_prim_ops(registry), Error::Ok);
  ASSERT_EQ(kernels::portable::register_kernels(registry), Error::Ok);
  BackendRegistry backends;
  ASSERT_EQ(backends::xnnpack::register_backend(backends), Error::Ok);

  BufferDataLoader loader(data, size);
  Result<Program> program = Program::load(&loader);
  ASSERT_TRUE(program.ok()) << error_name(program.error());
  Result<MethodMeta> meta = program->method_meta("forward");
  ASSERT_TRUE(meta.ok());
  std::vector<std::vector<uint8_t>> arenas;
  std::vector<Span<uint8_t>> spans;
  for (size_t i = 0; i < meta->num_memory_planned_buffers(); ++i) {
    arenas.emplace_back(static_cast<size_t>(*meta->memory_planned_buffer_size(i)));
  }
  for (auto& a : arenas) spans.push_back({a.data(), a.size()});
  HierarchicalAllocator planned({spans.data(), spans.size()});
  std::vector<uint8_t> method_pool(1 << 20), temp_pool(1 << 20);
  MemoryAllocator method_allocator(method_pool.data(), method_pool.size());
  MemoryAllocator temp_allocator(temp_pool.data(), temp_pool.size());
  MemoryManager memory(&method_allocator, &planned, &temp_allocator);
  MethodLoadOptions options;
  options.kernels = &registry;
  options.backends = &backends;
  Result<Method> method = program->load_method("forward", &memory, options);
  ASSERT_TRUE(method.ok()) << error_name(method.error());

  Result<TensorInfo> in_info = meta->input_tensor_meta(0);
  ASSERT_TRUE(in_info.ok());
  std::vector<uint8_t> input = read_bytes(std::string(kFixture) + ".input0.bin");
  ASSERT_EQ(input.size(), in_info->nbytes());
  std::vector<int32_t> sizes(in_info->sizes().begin(), in_info->sizes().end());
  std::vector<uint8_t> order(in_info->dim_order().begin(), in_info->dim_order().end());
  std::vector<int32_t> strides(sizes.size());
  Tensor in(in_info->scalar_type(), sizes.size(), sizes.data(), order.data(), strides.data(), input.data());
  ASSERT_EQ(method->set_input(EValue(&in), 0), Error::Ok);
  ASSERT_EQ(method->execute(), Error::Ok);

  const Tensor& out = method->get_output(0).to_tensor();
  std::vector<uint8_t> ref = read_bytes(std::string(kFixture) + ".output0.bin");
  ASSERT_EQ(out.nbytes(), ref.size());
  const float* got = out.const_data_ptr<float>();
  const float* want = reinterpret_cast<const float*>(ref.data());
  for (size_t i = 0; i < out.numel(); ++i) {
    // The fixture manifest's tolerance: |got - ref| <= atol + rtol * |ref|.
    EXPECT_LE(std::fabs(got[i] - want[i]), 1e-5f + 1e-4f * std::fabs(want[i])) << "element " << i;
  }
}

TEST(EmbeddedProgramTest, XnnpackProgramRunsFromReadOnlyData) {
  run_and_compare(ember_program_mlp_xnnpack_program, ember_program_mlp_xnnpack_program_size);
}

TEST(EmbeddedProgramTest, PortableProgramRunsFromReadOnlyData) {
  run_and_compare(ember_program_mlp_portable_program, ember_program_mlp_portable_program_size);
}

TEST(EmbeddedProgramTest, ArrayIsAlignedAndEqualsThePte) {
  EXPECT_EQ(reinterpret_cast<uintptr_t>(ember_program_mlp_xnnpack_program) % 128, 0u);
  EXPECT_EQ(ember_program_mlp_xnnpack_program_alignment, 128);
  const std::vector<uint8_t> pte = read_bytes("tests/bazel_rules/mlp_xnnpack.pte");
  ASSERT_FALSE(pte.empty());
  ASSERT_EQ(pte.size(), ember_program_mlp_xnnpack_program_size);
  EXPECT_EQ(std::vector<uint8_t>(ember_program_mlp_xnnpack_program,
                                 ember_program_mlp_xnnpack_program + ember_program_mlp_xnnpack_program_size),
            pte);
}

// ember_pte(methods = {...}) and a chosen symbol and alignment.
TEST(EmbeddedProgramTest, MultiMethodProgramWithOwnSymbol) {
  EXPECT_EQ(reinterpret_cast<uintptr_t>(two_methods_bytes) % 64, 0u);
  EXPECT_EQ(two_methods_bytes_alignment, 64);
  BufferDataLoader loader(two_methods_bytes, two_methods_bytes_size);
  Result<Program> program = Program::load(&loader);
  ASSERT_TRUE(program.ok()) << error_name(program.error());
  std::vector<std::string> names;
  for (size_t i = 0; i < program->num_methods(); ++i) names.push_back(*program->get_method_name(i));
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names, (std::vector<std::string>{"conv", "forward"}));
}

}  // namespace
}  // namespace ember::runtime
