// Input guards keep the runtime allocation-free: loading a method whose program has a
// guard table, set_input (min checked) and execute (equality checked, then the add) make
// no heap allocation, and a rejected input allocates nothing either. The binary counts
// allocations only while armed (//tests/support:allocation_counter); the table lives in
// the caller's method allocator.
#include <gtest/gtest.h>

#include "runtime/core/diagnostics.h"
#include "runtime/executor/program.h"
#include "runtime/executor/testing/program_builder.h"
#include "runtime/executor/testing/test_kernels.h"
#include "runtime/loader/buffer_data_loader.h"
#include "tests/support/allocation_counter.h"

namespace ember::testing {
namespace {

using runtime::EValue;
using runtime::Error;

TEST(GuardZeroAllocTest, LoadSetInputExecuteWithGuards) {
  // out = a + b on float[2] DYNAMIC_BOUND inputs; guards: a dim 0 >= 1, b dim 0 == a dim 0.
  auto program = make_add_program();
  for (int v : {0, 1, 3}) {
    program->execution_plan[0]->values[size_t(v)]->val.AsTensor()->shape_dynamism =
        fbs::TensorShapeDynamism::DYNAMIC_BOUND;
  }
  auto guards = std::make_unique<fbs::ExecutionPlanT>();
  guards->name = "__ember_guards__forward";
  for (int64_t v : {1, 2, 1, 0, 0, 1, 0, 2, 1, 0, 0, 0}) {
    guards->values.push_back(make_int_value(v));
    guards->outputs.push_back(int32_t(guards->values.size() - 1));
  }
  guards->non_const_buffer_sizes = {0};
  program->execution_plan.push_back(std::move(guards));
  AlignedBytes bytes(serialize(*program));
  runtime::FixedKernelRegistry<16> kernels;
  ASSERT_EQ(register_test_kernels(kernels), Error::Ok);
  runtime::BackendRegistry backends;
  runtime::MethodLoadOptions options;
  options.kernels = &kernels;
  options.backends = &backends;
  alignas(16) static uint8_t arena[256], pool[16384];
  runtime::Span<uint8_t> spans[1] = {runtime::Span<uint8_t>(arena, sizeof(arena))};
  runtime::HierarchicalAllocator planned(runtime::Span<runtime::Span<uint8_t>>(spans, 1));
  runtime::MemoryAllocator method_allocator(pool, sizeof(pool));
  runtime::MemoryManager memory(&method_allocator, &planned);
  int32_t one = 1, two = 2;
  uint8_t order = 0;
  int32_t stride = 1;
  float data[2] = {1, 2};
  runtime::Tensor t1(runtime::ScalarType::Float, 1, &one, &order, &stride, data);
  runtime::Tensor t2(runtime::ScalarType::Float, 1, &two, &order, &stride, data);
  runtime::BufferDataLoader loader(bytes.data(), bytes.size());

  AllocationCounter::arm();
  auto p = runtime::Program::load(&loader);
  Error load_error = p.ok() ? Error::Ok : p.error();
  Error set0 = Error::Internal, set1 = Error::Internal, bad = Error::Internal, run = Error::Internal;
  size_t num_guards = 0;
  if (p.ok()) {
    auto method = p->load_method("forward", &memory, options);
    load_error = method.ok() ? Error::Ok : method.error();
    if (method.ok()) {
      num_guards = method->input_guards().size();
      set0 = method->set_input(EValue(&t2), 0);
      set1 = method->set_input(EValue(&t1), 1);
      bad = method->execute();  // b dim 0 is 1, a dim 0 is 2
      set1 = method->set_input(EValue(&t2), 1);
      run = method->execute();
    }
  }
  const long news = AllocationCounter::disarm();
  ASSERT_EQ(load_error, Error::Ok) << runtime::last_error_message();
  EXPECT_EQ(num_guards, 2u);
  EXPECT_EQ(set0, Error::Ok);
  EXPECT_EQ(set1, Error::Ok);
  EXPECT_EQ(bad, Error::InvalidArgument);
  EXPECT_EQ(run, Error::Ok);
  EXPECT_EQ(news, 0) << "heap allocations while loading/running a method with guards";
}

// The counter must see an allocation, or the test above proves nothing.
TEST(GuardZeroAllocTest, CounterSeesOperatorNew) {
  AllocationCounter::arm();
  int* q = new int(3);
  const long n = AllocationCounter::disarm();
  delete q;
  EXPECT_GE(n, 1);
}

}  // namespace
}  // namespace ember::testing
