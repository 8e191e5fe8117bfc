// Proves the runtime makes zero heap allocations across Program::load (buffer
// loader), load_method, set_input, execute and get_output. The binary replaces
// malloc/calloc/realloc/free (and operator new/delete) with counting versions
// that are only armed around the measured region. The caller supplies all
// memory: the program bytes, a method pool, the planned arena, a temp pool.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>

#include <nlohmann/json.hpp>

#include "kernels/portable/register_kernels.h"
#include "runtime/executor/program.h"
#include "runtime/executor/testing/program_builder.h"
#include "runtime/executor/testing/test_kernels.h"
#include "runtime/kernel/prim_ops/prim_ops.h"
#include "runtime/loader/buffer_data_loader.h"
#include "tests/runtime/reference_case.h"
#include "tests/support/allocation_counter.h"
#include "tests/support/shared_fixtures.h"

namespace ember::testing {
namespace {

using runtime::Error;

alignas(16) uint8_t g_method_pool[1 << 20];
alignas(16) uint8_t g_temp_pool[1 << 20];
alignas(16) uint8_t g_arena[4 << 10];

// Runs the whole life cycle on `bytes` with armed counting; returns allocations.
long count_allocations(const AlignedBytes& bytes, const runtime::KernelRegistry& kernels, int32_t n, float* out) {
  runtime::BackendRegistry backends;
  runtime::MethodLoadOptions options;
  options.kernels = &kernels;
  options.backends = &backends;
  float a_data[2] = {1.5f, -2.0f}, b_data[2] = {0.25f, 4.0f};
  int32_t sizes[2][1] = {{n}, {n}};
  uint8_t order[2][1] = {{0}, {0}};
  int32_t strides[2][1];
  runtime::Tensor a(runtime::ScalarType::Float, 1, sizes[0], order[0], strides[0], a_data);
  runtime::Tensor b(runtime::ScalarType::Float, 1, sizes[1], order[1], strides[1], b_data);
  AllocationCounter::arm();
  {
    runtime::BufferDataLoader loader(bytes.data(), bytes.size());
    auto program = runtime::Program::load(&loader);
    EXPECT_TRUE(program.ok());
    runtime::Span<uint8_t> spans[1] = {runtime::Span<uint8_t>(g_arena, sizeof(g_arena))};
    runtime::HierarchicalAllocator planned(runtime::Span<runtime::Span<uint8_t>>(spans, 1));
    runtime::MemoryAllocator method_allocator(g_method_pool, sizeof(g_method_pool));
    runtime::MemoryAllocator temp_allocator(g_temp_pool, sizeof(g_temp_pool));
    runtime::MemoryManager memory(&method_allocator, &planned, &temp_allocator);
    auto method = program->load_method("forward", &memory, options);
    EXPECT_TRUE(method.ok());
    EXPECT_EQ(method->set_input(runtime::EValue(&a), 0), Error::Ok);
    EXPECT_EQ(method->set_input(runtime::EValue(&b), 1), Error::Ok);
    EXPECT_EQ(method->execute(), Error::Ok);
    const runtime::EValue& result = method->get_output(0);
    EXPECT_TRUE(result.is_tensor());
    for (int i = 0; i < n; ++i) out[i] = result.to_tensor().const_data_ptr<float>()[i];
  }
  return AllocationCounter::disarm();
}

TEST(ZeroAllocTest, CountingInterposerSeesAllocations) {
  AllocationCounter::arm();
  void* p = std::malloc(16);
  int* q = new int(3);
  const long n = AllocationCounter::disarm();
  std::free(p);
  delete q;
  EXPECT_GE(n, AllocationCounter::counts_malloc() ? 2 : 1);
}

TEST(ZeroAllocTest, LoadAndRunBuiltProgram) {
  runtime::FixedKernelRegistry<64> kernels;
  ASSERT_EQ(register_test_kernels(kernels), Error::Ok);
  ASSERT_EQ(runtime::register_prim_ops(kernels), Error::Ok);
  // With a header and a constant segment so that every load path runs.
  const AlignedBytes bytes(serialize(*make_add_program(), {{0, 0, 0, 0}}));
  float out[2];
  EXPECT_EQ(count_allocations(bytes, kernels, 2, out), 0);
  EXPECT_FLOAT_EQ(out[0], 1.75f);  // 1.5 + 0.25
  EXPECT_FLOAT_EQ(out[1], 2.0f);   // -2 + 4
}

TEST(ZeroAllocTest, LoadAndRunUpstreamAddProgram) {
  if (shared_dir().empty()) GTEST_SKIP() << skip_message();
  std::vector<uint8_t> file;
  ASSERT_TRUE(read_file(shared_dir() + "/fixtures/executorch-pte/pytorch__executorch__add.pte", &file));
  runtime::FixedKernelRegistry<64> kernels;
  ASSERT_EQ(register_test_kernels(kernels), Error::Ok);
  const AlignedBytes bytes(file);
  float out[2];
  // The upstream file takes float[1] inputs.
  EXPECT_EQ(count_allocations(bytes, kernels, 1, out), 0);
  EXPECT_FLOAT_EQ(out[0], 1.75f);
}

// Real upstream programs with the portable kernels: the whole life cycle of
// each listed reference case allocates nothing (outputs are checked too).
TEST(ZeroAllocTest, UpstreamProgramsWithPortableKernels) {
  if (shared_dir().empty()) GTEST_SKIP() << skip_message();
  const std::string dir = shared_dir() + "/fixtures/executorch-pte";
  std::ifstream in(dir + "/reference/manifest.json");
  const nlohmann::json manifest = nlohmann::json::parse(in);
  static runtime::FixedKernelRegistry<512> kernels;
  if (kernels.size() == 0) {
    ASSERT_EQ(runtime::register_prim_ops(kernels), Error::Ok);
    ASSERT_EQ(kernels::portable::register_kernels(kernels), Error::Ok);
  }
  runtime::BackendRegistry backends;
  runtime::MethodLoadOptions options;
  options.kernels = &kernels;
  options.backends = &backends;
  int checked = 0;
  for (const auto& c : manifest["cases"]) {
    const std::string id = c["id"];
    if (id != "pytorch__executorch__arduino_AddModel_model/forward/case1" &&
        id != "berndporr__dnf_executorch__dnf_executorch1/forward/case0" &&
        id != "corey-cole__executorch-numpy-runtime__dtypes/forward/case1" &&
        id != "corey-cole__executorch-numpy-runtime__const_methods/get_tensor/case0") {
      continue;
    }
    std::vector<uint8_t> file;
    ASSERT_TRUE(read_file(dir + "/" + c["fixture"].get<std::string>(), &file));
    const AlignedBytes bytes(file);
    CaseInputs inputs;
    ASSERT_EQ(build_inputs(c, dir, &inputs), "");
    // Unarmed pass: learn the planned buffer sizes and allocate them.
    std::vector<std::vector<uint8_t>> arenas;
    std::vector<runtime::Span<uint8_t>> spans;
    {
      runtime::BufferDataLoader loader(bytes.data(), bytes.size());
      auto program = runtime::Program::load(&loader);
      ASSERT_TRUE(program.ok());
      auto meta = program->method_meta(c["method"].get<std::string>().c_str());
      ASSERT_TRUE(meta.ok());
      for (size_t i = 0; i < meta->num_memory_planned_buffers(); ++i) {
        arenas.emplace_back(size_t(*meta->memory_planned_buffer_size(i)));
      }
      for (auto& a : arenas) spans.emplace_back(a.data(), a.size());
    }
    std::vector<std::string> diffs;
    AllocationCounter::arm();
    {
      runtime::BufferDataLoader loader(bytes.data(), bytes.size());
      auto program = runtime::Program::load(&loader);
      runtime::HierarchicalAllocator planned(runtime::Span<runtime::Span<uint8_t>>(spans.data(), spans.size()));
      runtime::MemoryAllocator method_allocator(g_method_pool, sizeof(g_method_pool));
      runtime::MemoryAllocator temp_allocator(g_temp_pool, sizeof(g_temp_pool));
      runtime::MemoryManager memory(&method_allocator, &planned, &temp_allocator);
      auto method = program->load_method(c["method"].get<std::string>().c_str(), &memory, options);
      EXPECT_TRUE(method.ok()) << id << ": " << runtime::last_error_message();
      if (method.ok()) {
        for (size_t i = 0; i < inputs.values.size(); ++i) EXPECT_EQ(method->set_input(inputs.values[i], i), Error::Ok);
        EXPECT_EQ(method->execute(), Error::Ok) << id << ": " << runtime::last_error_message();
        AllocationCounter::disarm();  // comparing outputs may allocate (strings)
        for (const auto& o : c["outputs"]) {
          EXPECT_EQ(compare_output(o, method->get_output(o["index"].get<size_t>()), dir), "") << id;
        }
      }
    }
    EXPECT_EQ(AllocationCounter::disarm(), 0) << id;
    ++checked;
  }
  EXPECT_EQ(checked, 4);
}

}  // namespace
}  // namespace ember::testing
