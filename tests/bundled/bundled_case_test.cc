// Bundled test cases run on the core runtime: a .bpte Ember writes (a + b on float[2,2],
// expected outputs derived by hand) and upstream's corpus .bpte (skipped without
// ../shared) pass, with zero heap allocations from BundledProgram::open through
// set_bundled_inputs, execute and check_bundled_outputs; a wrong expected output fails
// the case and names its output and element; the float tolerance rule, the exact integer
// rule and the "cannot compare" reasons behave as bundled_case.h says.
#include "runtime/bundled/bundled_case.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <memory>

#include "aot/emit/bundled_program_writer.h"
#include "aot/emit/pte_writer.h"
#include "aot/emit/testing/test_programs.h"
#include "kernels/portable/register_kernels.h"
#include "runtime/backend/backend_registry.h"
#include "runtime/bundled/bundled_program.h"
#include "runtime/core/diagnostics.h"
#include "runtime/executor/program.h"
#include "runtime/kernel/prim_ops/prim_ops.h"
#include "runtime/loader/buffer_data_loader.h"
#include "tests/support/allocation_counter.h"
#include "tests/support/shared_fixtures.h"

namespace ember::testing {
namespace {

using runtime::Error;

alignas(16) uint8_t g_method_pool[1 << 20];
alignas(16) uint8_t g_temp_pool[1 << 16];
alignas(16) uint8_t g_arena[1 << 16];
runtime::BundledInputStorage g_inputs;

// File bytes at a 32-aligned address (the alignment the format gives its parts).
struct Aligned {
  explicit Aligned(const std::vector<uint8_t>& bytes)
      : data(static_cast<uint8_t*>(std::aligned_alloc(32, (bytes.size() + 31) / 32 * 32))),
        size(bytes.size()) {
    std::memcpy(data.get(), bytes.data(), size);
  }
  struct Free {
    void operator()(uint8_t* p) const { std::free(p); }
  };
  std::unique_ptr<uint8_t, Free> data;
  size_t size;
};

const runtime::KernelRegistry& kernels() {
  static runtime::FixedKernelRegistry<runtime::kDefaultKernelRegistryCapacity> registry;
  static bool done = false;
  if (!done) {
    EXPECT_EQ(kernels::portable::register_kernels(registry), Error::Ok);
    EXPECT_EQ(runtime::register_prim_ops(registry), Error::Ok);
    done = true;
  }
  return registry;
}

struct CaseRun {
  long allocations = 0;
  size_t cases = 0;
  std::vector<runtime::BundledCaseResult> results;
};

// Opens the .bpte, loads suite 0's method from the inner program and runs every case,
// counting heap allocations over all of it (caller-provided memory only).
CaseRun run_all(const Aligned& file, const runtime::BundledTolerance& tol = {}) {
  CaseRun run;
  runtime::BackendRegistry backends;
  runtime::MethodLoadOptions options;
  options.kernels = &kernels();
  options.backends = &backends;
  runtime::BundledCaseResult results[16];
  AllocationCounter::arm();
  {
    auto bundled = runtime::BundledProgram::open(file.data.get(), file.size);
    EXPECT_TRUE(bundled.ok()) << runtime::last_error_message();
    if (!bundled.ok()) return run;
    runtime::BufferDataLoader loader(bundled->program().data(), bundled->program().size());
    auto program = runtime::Program::load(&loader);
    EXPECT_TRUE(program.ok()) << runtime::last_error_message();
    runtime::Span<uint8_t> spans[1] = {runtime::Span<uint8_t>(g_arena, sizeof(g_arena))};
    runtime::HierarchicalAllocator planned(runtime::Span<runtime::Span<uint8_t>>(spans, 1));
    runtime::MemoryAllocator method_allocator(g_method_pool, sizeof(g_method_pool));
    runtime::MemoryAllocator temp_allocator(g_temp_pool, sizeof(g_temp_pool));
    runtime::MemoryManager memory(&method_allocator, &planned, &temp_allocator);
    auto method = program->load_method(bundled->method_name(0), &memory, options);
    EXPECT_TRUE(method.ok()) << runtime::last_error_message();
    run.cases = bundled->num_cases(0);
    for (size_t c = 0; c < run.cases && c < 16; ++c) {
      EXPECT_EQ(runtime::set_bundled_inputs(*method, *bundled, 0, c, &g_inputs), Error::Ok)
          << runtime::last_error_message();
      EXPECT_EQ(method->execute(), Error::Ok) << runtime::last_error_message();
      results[c] = runtime::check_bundled_outputs(*method, *bundled, 0, c, tol);
    }
  }
  run.allocations = AllocationCounter::disarm();
  run.results.assign(results, results + (run.cases < 16 ? run.cases : 16));
  return run;
}

aot::BundledIoValue floats(std::vector<float> v,
                           runtime::ScalarType dtype = runtime::ScalarType::Float) {
  aot::BundledIoValue out;
  out.dtype = dtype;
  out.sizes = {2, 2};
  out.data.resize(v.size() * 4);
  std::memcpy(out.data.data(), v.data(), out.data.size());
  return out;
}

// forward(a, b) = a + b on float[2,2], one case per expected output given, each with
// `inputs` (default: a = [1, 2, 3, 4], b = [10, 20, 30, 40]).
Aligned ember_bpte(const std::vector<aot::BundledIoValue>& expected,
                   const std::vector<aot::BundledIoValue>& inputs = {floats({1, 2, 3, 4}),
                                                                     floats({10, 20, 30, 40})}) {
  aot::EmitProgram program;
  program.methods.push_back(aot::emit_test::add_method());
  std::vector<uint8_t> pte;
  EXPECT_EQ(aot::write_pte(program, &pte), Error::Ok);
  aot::BundledTestSuite suite{"forward", {}};
  for (const aot::BundledIoValue& e : expected) suite.cases.push_back({inputs, {e}});
  auto bytes = aot::write_bundled_program(pte, {suite});
  EXPECT_TRUE(bytes.ok());
  return Aligned(*bytes);
}

TEST(BundledCase, EmberWrittenBundlePassesWithoutAllocating) {
  CaseRun run = run_all(ember_bpte({floats({11, 22, 33, 44}), floats({11, 22, 33, 44})}));
  ASSERT_EQ(run.results.size(), 2u);
  for (const auto& r : run.results) {
    EXPECT_TRUE(r.passed) << r.reason;
    EXPECT_EQ(r.max_abs_error, 0.0);
  }
  EXPECT_EQ(run.allocations, 0) << "heap allocations while opening and running bundled cases";
}

TEST(BundledCase, WrongExpectedOutputFailsAndSaysWhere) {
  // Case 1's element 2 is off by 0.5; case 0 is right.
  CaseRun run = run_all(ember_bpte({floats({11, 22, 33, 44}), floats({11, 22, 33.5f, 44})}));
  ASSERT_EQ(run.results.size(), 2u);
  EXPECT_TRUE(run.results[0].passed);
  EXPECT_FALSE(run.results[1].passed);
  EXPECT_EQ(run.results[1].max_abs_error, 0.5);
  EXPECT_EQ(run.results[1].worst_output, 0u);
  EXPECT_EQ(run.results[1].worst_element, 2u);
  EXPECT_EQ(run.results[1].mismatched, 1u);
}

TEST(BundledCase, FloatToleranceIsAtolPlusRtolTimesExpected) {
  // |44 - 44.3| = 0.3: outside 0.01 + 0.001 * 44.3, inside 0.01 + 0.01 * 44.3 (0.453).
  runtime::BundledTolerance tight{0.01, 0.001}, loose{0.01, 0.01};
  EXPECT_FALSE(run_all(ember_bpte({floats({11, 22, 33, 44.3f})}), tight).results.at(0).passed);
  EXPECT_TRUE(run_all(ember_bpte({floats({11, 22, 33, 44.3f})}), loose).results.at(0).passed);
  // NaN is never close to a number.
  CaseRun nan = run_all(ember_bpte({floats({11, 22, 33, NAN})}));
  EXPECT_FALSE(nan.results.at(0).passed);
  EXPECT_TRUE(std::isinf(nan.results.at(0).max_abs_error));
}

TEST(BundledCase, OutputsThatCannotBeComparedAreNamed) {
  aot::BundledIoValue ints = floats({11, 22, 33, 44}, runtime::ScalarType::Int);
  CaseRun dtype = run_all(ember_bpte({ints}));
  EXPECT_FALSE(dtype.results.at(0).passed);
  EXPECT_STREQ(dtype.results.at(0).reason, "output 0: dtype float32, expected int32");
  aot::BundledIoValue flat = floats({11, 22, 33, 44});
  flat.sizes = {4};
  CaseRun shape = run_all(ember_bpte({flat}));
  EXPECT_FALSE(shape.results.at(0).passed);
  EXPECT_STREQ(shape.results.at(0).reason,
               "output 0: rank 2 shape differs from the expected rank 1 shape");
}

// The first error set_bundled_inputs meets for `file`'s case 0, as "Name: message".
std::string input_error(const Aligned& file) {
  auto bundled = runtime::BundledProgram::open(file.data.get(), file.size);
  EXPECT_TRUE(bundled.ok());
  runtime::BufferDataLoader loader(bundled->program().data(), bundled->program().size());
  auto program = runtime::Program::load(&loader);
  EXPECT_TRUE(program.ok());
  runtime::Span<uint8_t> spans[1] = {runtime::Span<uint8_t>(g_arena, sizeof(g_arena))};
  runtime::HierarchicalAllocator planned(runtime::Span<runtime::Span<uint8_t>>(spans, 1));
  runtime::MemoryAllocator method_allocator(g_method_pool, sizeof(g_method_pool));
  runtime::MemoryAllocator temp_allocator(g_temp_pool, sizeof(g_temp_pool));
  runtime::MemoryManager memory(&method_allocator, &planned, &temp_allocator);
  runtime::BackendRegistry backends;
  runtime::MethodLoadOptions options;
  options.kernels = &kernels();
  options.backends = &backends;
  auto method = program->load_method("forward", &memory, options);
  EXPECT_TRUE(method.ok());
  const Error err = runtime::set_bundled_inputs(*method, *bundled, 0, 0, &g_inputs);
  return err == Error::Ok
             ? "Ok"
             : std::string(runtime::error_name(err)) + ": " + runtime::last_error_message();
}

TEST(BundledCase, InputsThatDoNotFitTheMethodAreNamed) {
  const aot::BundledIoValue out = floats({11, 22, 33, 44});
  EXPECT_EQ(
      input_error(ember_bpte({out}, {floats({1, 2, 3, 4})})),
      "InvalidArgument: bundled case 0 of method 'forward' has 1 input(s), the method takes 2");
  const std::string dtype = input_error(ember_bpte(
      {out}, {floats({1, 2, 3, 4}), floats({10, 20, 30, 40}, runtime::ScalarType::Int)}));
  EXPECT_EQ(dtype.rfind("InvalidArgument: bundled case 0 of method 'forward' input 1: ", 0), 0u)
      << dtype;
}

// shared/fixtures/executorch-pte/CATALOG.md: 10 cases, all passing under upstream's rule;
// INT outputs are compared exactly.
TEST(BundledCase, CorpusBundlePassesWithoutAllocating) {
  const std::string dir = shared_dir();
  if (dir.empty()) GTEST_SKIP() << skip_message();
  std::vector<uint8_t> bytes;
  ASSERT_TRUE(read_file(dir + "/fixtures/executorch-pte/pytorch__executorch__bundled_program.bpte",
                        &bytes));
  CaseRun run = run_all(Aligned(bytes));
  ASSERT_EQ(run.cases, 10u);
  for (const auto& r : run.results) EXPECT_TRUE(r.passed) << r.reason;
  EXPECT_EQ(run.allocations, 0);
  // The same file with expected output element 3 of every case changed from 2 to 3 (found
  // through the reader; the 16 bytes also occur elsewhere, e.g. as the program's constant b).
  Aligned file(bytes);
  auto view = runtime::BundledProgram::open(file.data.get(), file.size);
  ASSERT_TRUE(view.ok());
  for (size_t c = 0; c < 10; ++c) {
    const size_t at = size_t(view->expected_output(0, c, 0).data.data() - file.data.get());
    ASSERT_EQ(bytes[at + 12], 2);
    bytes[at + 12] = 3;
  }
  CaseRun bad = run_all(Aligned(bytes));
  for (const auto& r : bad.results) {
    EXPECT_FALSE(r.passed);
    EXPECT_EQ(r.max_abs_error, 1.0);
    EXPECT_EQ(r.worst_element, 3u);
  }
}

}  // namespace
}  // namespace ember::testing
