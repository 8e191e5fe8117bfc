// Two threads, each running its own Method of one shared Program, with
// different inputs for many iterations: results must be exactly a + b.
#include <gtest/gtest.h>

#include <thread>
#include <vector>

#include "runtime/executor/program.h"
#include "runtime/executor/testing/program_builder.h"
#include "runtime/executor/testing/test_kernels.h"
#include "runtime/loader/buffer_data_loader.h"

namespace ember::testing {
namespace {

using runtime::Error;

void run_worker(const runtime::Program* program, const runtime::MethodLoadOptions* options, float base,
                int* failures) {
  std::vector<uint8_t> method_pool(32 << 10), arena(48), temp(1024);
  runtime::Span<uint8_t> spans[1] = {runtime::Span<uint8_t>(arena.data(), arena.size())};
  runtime::HierarchicalAllocator planned(runtime::Span<runtime::Span<uint8_t>>(spans, 1));
  runtime::MemoryAllocator method_allocator(method_pool.data(), method_pool.size());
  runtime::MemoryAllocator temp_allocator(temp.data(), temp.size());
  runtime::MemoryManager memory(&method_allocator, &planned, &temp_allocator);
  auto method = program->load_method("forward", &memory, *options);
  if (!method.ok()) {
    ++*failures;
    return;
  }
  int32_t sizes[2][1] = {{2}, {2}};
  uint8_t order[2][1] = {{0}, {0}};
  int32_t strides[2][1];
  for (int i = 0; i < 20000; ++i) {
    float a_data[2] = {base + float(i), 1.0f}, b_data[2] = {0.5f, base};
    runtime::Tensor a(runtime::ScalarType::Float, 1, sizes[0], order[0], strides[0], a_data);
    runtime::Tensor b(runtime::ScalarType::Float, 1, sizes[1], order[1], strides[1], b_data);
    if (method->set_input(runtime::EValue(&a), 0) != Error::Ok ||
        method->set_input(runtime::EValue(&b), 1) != Error::Ok || method->execute() != Error::Ok) {
      ++*failures;
      return;
    }
    const float* out = method->get_output(0).to_tensor().const_data_ptr<float>();
    if (out[0] != a_data[0] + 0.5f || out[1] != 1.0f + base) ++*failures;
  }
}

TEST(ThreadTest, TwoThreadsTwoMethodsOneProgram) {
  runtime::FixedKernelRegistry<16> kernels;
  ASSERT_EQ(register_test_kernels(kernels), Error::Ok);
  runtime::BackendRegistry backends;
  runtime::MethodLoadOptions options;
  options.kernels = &kernels;
  options.backends = &backends;
  const AlignedBytes bytes(serialize(*make_add_program()));
  runtime::BufferDataLoader loader(bytes.data(), bytes.size());
  auto program = runtime::Program::load(&loader);
  ASSERT_TRUE(program.ok());
  int failures[2] = {0, 0};
  std::thread t1(run_worker, &*program, &options, 100.0f, &failures[0]);
  std::thread t2(run_worker, &*program, &options, -7.0f, &failures[1]);
  t1.join();
  t2.join();
  EXPECT_EQ(failures[0], 0);
  EXPECT_EQ(failures[1], 0);
}

}  // namespace
}  // namespace ember::testing
