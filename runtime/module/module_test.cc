// Module: load from bytes, execute, method names and errors; a method is
// loaded exactly once (a counting backend sees one init per load_method, also
// when the method needs far more than a fixed first guess of memory), and a
// failed load returns the runtime's own error and message, not retried.
#include "runtime/module/module.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <thread>

#include "runtime/core/diagnostics.h"
#include "runtime/executor/testing/program_builder.h"
#include "runtime/executor/testing/test_kernels.h"

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

// A backend that counts init() calls, takes `init_bytes` from the method
// allocator (and writes them), or fails with `init_error`.
class CountingBackend final : public BackendInterface {
 public:
  bool is_available() const override { return true; }
  Result<DelegateHandle*> init(BackendInitContext& context, FreeableBuffer*,
                               Span<const CompileSpec>) const override {
    ++inits;
    if (init_error != Error::Ok) return fail(init_error, "CountingBackend: refused on purpose");
    void* p = context.runtime_allocator()->allocate(init_bytes, 16);
    if (p == nullptr) {
      return fail(Error::MemoryAllocationFailed, "CountingBackend: no room for %zu bytes",
                  init_bytes);
    }
    std::memset(p, 0x5a, init_bytes);
    return p;
  }
  Error execute(BackendExecutionContext&, DelegateHandle*, Span<EValue*>) const override {
    return Error::Ok;
  }

  mutable int inits = 0;
  size_t init_bytes = 64;
  Error init_error = Error::Ok;
};

// The add program with one CountingBackend delegate (initialised at load, never
// called) and `extra_values` more Int values in its value table.
std::vector<uint8_t> delegated_add_program(size_t extra_values = 0) {
  auto program = testing::make_add_program();
  auto delegate = std::make_unique<testing::fbs::BackendDelegateT>();
  delegate->id = "CountingBackend";
  delegate->processed = std::make_unique<testing::fbs::BackendDelegateDataReferenceT>();
  delegate->processed->location = testing::fbs::DataLocation::INLINE;
  delegate->processed->index = 0;
  program->execution_plan[0]->delegates.push_back(std::move(delegate));
  program->backend_delegate_data.push_back(
      std::make_unique<testing::fbs::BackendDelegateInlineDataT>());
  for (size_t i = 0; i < extra_values; ++i) {
    program->execution_plan[0]->values.push_back(testing::make_int_value(int64_t(i)));
  }
  return testing::serialize(*program);
}

class ModuleLoadOnceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(testing::register_test_kernels(kernels_), Error::Ok);
    ASSERT_EQ(backends_.register_backend("CountingBackend", &backend_), Error::Ok);
    options_.method.kernels = &kernels_;
    options_.method.backends = &backends_;
  }

  std::unique_ptr<Module> make_module(const std::vector<uint8_t>& bytes) {
    auto module = std::make_unique<Module>(bytes.data(), bytes.size());
    module->set_options(options_);
    return module;
  }

  // Loads "forward" of delegated_add_program(extra_values): on the first try
  // (one init), using more than `min_used` bytes of method allocator.
  void expect_loads_once(size_t extra_values, size_t min_used) {
    auto module = make_module(delegated_add_program(extra_values));
    Result<Method*> method = module->load_method("forward");
    ASSERT_TRUE(method.ok()) << last_error_message();
    EXPECT_EQ(backend_.inits, 1);
    EXPECT_GT(module->method_allocator_used("forward"), min_used);
    EXPECT_EQ((*method)->num_values(), 4 + extra_values);
  }

  // Loading "forward" fails once (one init) with MemoryAllocationFailed and a
  // message that contains `text`.
  void expect_fails_once(const char* text) {
    auto module = make_module(delegated_add_program());
    Result<Method*> method = module->load_method("forward");
    ASSERT_FALSE(method.ok());
    EXPECT_EQ(method.error(), Error::MemoryAllocationFailed);
    EXPECT_NE(std::string(last_error_message()).find(text), std::string::npos)
        << last_error_message();
    EXPECT_EQ(backend_.inits, 1);
    EXPECT_FALSE(module->is_method_loaded("forward"));
  }

  FixedKernelRegistry<8> kernels_;
  BackendRegistry backends_;
  CountingBackend backend_;
  Module::Options options_;
};

TEST_F(ModuleLoadOnceTest, DelegateInitRunsOncePerLoad) {
  auto module = make_module(delegated_add_program());
  Result<Method*> first = module->load_method("forward");
  ASSERT_TRUE(first.ok()) << last_error_message();
  EXPECT_EQ(backend_.inits, 1);
  Result<Method*> again = module->load_method("forward");  // already loaded
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(*again, *first);
  EXPECT_EQ(backend_.inits, 1);
  module->unload_method("forward");
  ASSERT_TRUE(module->load_method("forward").ok());
  EXPECT_EQ(backend_.inits, 2);
}

// The old Module tried 256 KiB first and retried 4x larger after each
// MemoryAllocationFailed (so this delegate's init ran three times: at 256 KiB,
// 1 MiB and 4 MiB); this method needs a 1 MiB delegate state on top of a
// 2,004-value table.
TEST_F(ModuleLoadOnceTest, LargeMethodLoadsInOneGo) {
  backend_.init_bytes = size_t(1) << 20;
  expect_loads_once(2000, size_t(1) << 20);
}

// A value table far beyond any fixed first guess (40,004 EValues).
TEST_F(ModuleLoadOnceTest, LargeValueTableLoads) { expect_loads_once(40000, size_t(256) << 10); }

// MemoryAllocationFailed is the error the old loop retried on: now the first
// failure is the answer, with the backend's own message.
TEST_F(ModuleLoadOnceTest, FailedLoadIsReportedOnceWithItsError) {
  backend_.init_error = Error::MemoryAllocationFailed;
  expect_fails_once("CountingBackend: refused on purpose");
}

TEST_F(ModuleLoadOnceTest, MethodAllocatorCapHolds) {
  backend_.init_bytes = size_t(2) << 20;
  options_.max_method_allocator_bytes = size_t(1) << 20;
  expect_fails_once("CountingBackend: no room for 2097152 bytes");
}

// Issue #33: a program under 1 KiB planning 15 GB ran; Module now checks the plan against
// max_planned_memory_bytes before reserving anything, and a raised budget lets a trusted
// program through.
TEST(ModuleTest, PlanOverTheBudgetIsRefusedBeforeAnythingIsReserved) {
  FixedKernelRegistry<8> kernels;
  ASSERT_EQ(testing::register_test_kernels(kernels), Error::Ok);
  BackendRegistry backends;
  auto program = testing::make_add_program();
  const int64_t fifteen_gb = int64_t{15} * 1000 * 1000 * 1000;
  std::vector<int64_t> planned = program->execution_plan[0]->non_const_buffer_sizes;
  program->execution_plan[0]->non_const_buffer_sizes.push_back(fifteen_gb);
  const std::vector<uint8_t> huge = testing::serialize(*program);
  EXPECT_LT(huge.size(), 1024u);
  Module module(huge.data(), huge.size());
  Module::Options options;
  options.method.kernels = &kernels;
  options.method.backends = &backends;
  module.set_options(options);
  Result<Method*> m = module.load_method("forward");
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.error(), Error::MemoryAllocationFailed);
  EXPECT_NE(std::string(last_error_message()).find("over the planned-memory budget of 8589934592 bytes"),
            std::string::npos)
      << last_error_message();
  // The plain program with a budget below its plan is refused; with its plan as budget it loads.
  program->execution_plan[0]->non_const_buffer_sizes = planned;
  planned.push_back(4096);
  program->execution_plan[0]->non_const_buffer_sizes = planned;
  const std::vector<uint8_t> bytes = testing::serialize(*program);
  Module small(bytes.data(), bytes.size());
  options.max_planned_memory_bytes = 4095;
  small.set_options(options);
  EXPECT_EQ(small.load_method("forward").error(), Error::MemoryAllocationFailed);
  Module raised(bytes.data(), bytes.size());
  options.max_planned_memory_bytes = uint64_t(1) << 20;
  raised.set_options(options);
  EXPECT_TRUE(raised.load_method("forward").ok()) << last_error_message();
}

TEST(ModuleTest, MissingFileIsNotFound) {
  Module module("/nonexistent/model.pte");
  EXPECT_EQ(module.load(), Error::NotFound);
}

// b (value 1) is a mutable buffer: planned, with initial contents {1.5, 2.5} from the mutable
// segment. method_state() exposes its 8 bytes (a write is seen by the next execute), and a
// second instance of the method has its own copy, untouched by the first's write. A program
// that marks no mutable buffer exposes its planned buffers whole.
TEST(ModuleTest, MethodStateAndInstances) {
  FixedKernelRegistry<8> kernels;
  ASSERT_EQ(testing::register_test_kernels(kernels), Error::Ok);
  BackendRegistry backends;
  Module::Options options;
  options.method.kernels = &kernels;
  options.method.backends = &backends;
  auto program = testing::make_add_program();
  program->execution_plan[0]->values[1]->val.AsTensor()->data_buffer_idx = 1;
  program->execution_plan[0]->inputs = {0};
  auto segment = std::make_unique<testing::fbs::SubsegmentOffsetsT>();
  segment->segment_index = 1;
  segment->offsets = {0, 8};
  program->mutable_data_segments.push_back(std::move(segment));
  const float initial[4] = {0, 0, 1.5f, 2.5f};
  std::vector<uint8_t> mutable_bytes(sizeof(initial));
  std::memcpy(mutable_bytes.data(), initial, sizeof(initial));
  const std::vector<uint8_t> bytes = testing::serialize(*program, {{0, 0, 0, 0}, mutable_bytes});
  Module module(bytes.data(), bytes.size());
  module.set_options(options);
  auto meta = module.method_meta("forward");
  ASSERT_TRUE(meta.ok());
  EXPECT_TRUE(meta->is_mutable_buffer(1));
  EXPECT_FALSE(meta->is_mutable_buffer(0));
  EXPECT_EQ(*meta->mutable_buffer_bytes(), 8u);

  auto first = module.load_method("forward");
  ASSERT_TRUE(first.ok()) << last_error_message();
  auto state = module.method_state(**first);
  ASSERT_TRUE(state.ok()) << last_error_message();
  ASSERT_EQ(state->size(), 1u);
  EXPECT_EQ((*state)[0].kind, Module::StateRange::Kind::MutableBuffer);
  EXPECT_EQ((*state)[0].index, 1u);
  ASSERT_EQ((*state)[0].bytes.size(), 8u);
  float b[2];
  std::memcpy(b, (*state)[0].bytes.data(), 8);
  EXPECT_EQ(b[0], 1.5f);
  const float written[2] = {100, 200};
  std::memcpy((*state)[0].bytes.data(), written, 8);
  EXPECT_EQ((*first)->mutable_buffer(0).error(), Error::InvalidArgument);

  auto second = module.load_method_instance("forward");
  ASSERT_TRUE(second.ok()) << last_error_message();
  ASSERT_NE(*second, *first);
  float a_data[2] = {10, 20};
  int32_t sizes[1] = {2};
  uint8_t order[1] = {0};
  int32_t strides[1];
  Tensor a(ScalarType::Float, 1, sizes, order, strides, a_data);
  for (Method* m : {*first, *second}) {
    ASSERT_EQ(m->set_input(EValue(&a), 0), Error::Ok);
    ASSERT_EQ(m->execute(), Error::Ok) << last_error_message();
  }
  EXPECT_EQ((*first)->get_output(0).to_tensor().const_data_ptr<float>()[1], 220.0f);
  EXPECT_EQ((*second)->get_output(0).to_tensor().const_data_ptr<float>()[1], 22.5f);
  module.unload_method_instance(*second);
  EXPECT_EQ(module.method_state(**second).error(), Error::InvalidArgument);

  const std::vector<uint8_t> plain = testing::serialize(*testing::make_add_program());
  Module other(plain.data(), plain.size());
  other.set_options(options);
  auto method = other.load_method("forward");
  ASSERT_TRUE(method.ok());
  auto whole = other.method_state(**method);
  ASSERT_TRUE(whole.ok());
  ASSERT_EQ(whole->size(), 1u);
  EXPECT_EQ((*whole)[0].kind, Module::StateRange::Kind::PlannedBuffer);
  EXPECT_EQ((*whole)[0].bytes.size(), 48u);
}

// Two instances of one method execute on two threads at once, each on its own planned memory
// (run under --config=tsan: tag "threads").
TEST(ModuleTest, InstancesExecuteOnTwoThreads) {
  FixedKernelRegistry<8> kernels;
  ASSERT_EQ(testing::register_test_kernels(kernels), Error::Ok);
  BackendRegistry backends;
  Module::Options options;
  options.method.kernels = &kernels;
  options.method.backends = &backends;
  const std::vector<uint8_t> bytes = testing::serialize(*testing::make_add_program());
  Module module(bytes.data(), bytes.size());
  module.set_options(options);
  auto first = module.load_method("forward");
  auto second = module.load_method_instance("forward");
  ASSERT_TRUE(first.ok() && second.ok()) << last_error_message();
  float results[2] = {0, 0};
  auto run = [](Method* m, float base, float* result) {
    for (int i = 0; i < 200; ++i) {
      float a_data[2] = {base, base}, b_data[2] = {float(i), float(i)};
      int32_t sizes[2][1] = {{2}, {2}};
      uint8_t order[2][1] = {{0}, {0}};
      int32_t strides[2][1];
      Tensor a(ScalarType::Float, 1, sizes[0], order[0], strides[0], a_data);
      Tensor b(ScalarType::Float, 1, sizes[1], order[1], strides[1], b_data);
      if (m->set_input(EValue(&a), 0) != Error::Ok || m->set_input(EValue(&b), 1) != Error::Ok ||
          m->execute() != Error::Ok) {
        return;
      }
      *result = m->get_output(0).to_tensor().const_data_ptr<float>()[0];
    }
  };
  std::thread t1(run, *first, 1000.0f, &results[0]);
  std::thread t2(run, *second, 2000.0f, &results[1]);
  t1.join();
  t2.join();
  EXPECT_EQ(results[0], 1199.0f);
  EXPECT_EQ(results[1], 2199.0f);
}

}  // namespace
}  // namespace ember::runtime
