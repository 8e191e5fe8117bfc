// The caller-memory path allocates nothing: with the program handle in caller storage,
// bytes in a caller buffer and the method in a caller arena, loading, creating the
// method, setting inputs (copy and resize), executing and reading outputs and profile call
// malloc/new zero times (//tests/support:allocation_counter; operator new only under ASan).
#include <gtest/gtest.h>

#include <cstddef>
#include <cstring>
#include <fstream>
#include <iterator>
#include <vector>

#include "ember/ember.h"
#include "tests/support/allocation_counter.h"

namespace {

using ember::testing::AllocationCounter;

TEST(CapiZeroAllocTest, CallerMemoryPathAllocatesNothing) {
  std::ifstream in("tests/embedding/mlp_dynamic_batch.pte", std::ios::binary);
  const std::vector<char> file((std::istreambuf_iterator<char>(in)), {});
  ASSERT_FALSE(file.empty());
  std::vector<std::max_align_t> bytes(file.size() / sizeof(std::max_align_t) + 1);
  std::memcpy(bytes.data(), file.data(), file.size());
  std::vector<std::max_align_t> program_storage(
      ember_program_storage_size() / sizeof(std::max_align_t) + 1);
  ember_program_options program_options;
  ember_program_options_init(&program_options);
  program_options.storage = program_storage.data();
  program_options.storage_size = program_storage.size() * sizeof(std::max_align_t);

  // Sizing may allocate (it builds a runtime-owned instance); it is done once, up front.
  ember_program* sizing = nullptr;
  ASSERT_EQ(ember_program_load_buffer(bytes.data(), file.size(), nullptr, &sizing), EMBER_OK);
  ember_method_options options;
  ember_method_options_init(&options);
  options.temp_bytes = 4096;
  options.profiling = 1;
  size_t need = 0;
  ASSERT_EQ(ember_method_memory_size(sizing, "forward", &options, &need), EMBER_OK);
  ember_program_destroy(sizing);
  std::vector<std::max_align_t> arena(need / sizeof(std::max_align_t) + 1);
  options.memory = arena.data();
  options.memory_size = need;
  std::vector<float> input(17 * 16, 0.25f);
  const int64_t sizes[2] = {17, 16};

  AllocationCounter::arm();
  ember_program* program = nullptr;
  ember_method* method = nullptr;
  const ember_status load =
      ember_program_load_buffer(bytes.data(), file.size(), &program_options, &program);
  const ember_status create =
      load == EMBER_OK ? ember_method_create(program, "forward", &options, &method) : load;
  ember_status run = create;
  ember_value out;
  ember_value_init(&out);
  ember_profile_entry entry;
  ember_profile_entry_init(&entry);
  if (run == EMBER_OK) run = ember_method_resize_input(method, 0, sizes, 2);
  if (run == EMBER_OK)
    run = ember_method_set_input(method, 0, EMBER_DTYPE_FLOAT, input.data(), input.size() * 4);
  if (run == EMBER_OK) run = ember_method_execute(method);
  if (run == EMBER_OK) run = ember_method_output(method, 0, &out);
  if (run == EMBER_OK) run = ember_method_profile_entry(method, 0, &entry);
  const ember_status bad =
      method != nullptr ? ember_method_set_input(method, 0, EMBER_DTYPE_FLOAT, input.data(), 3)
                        : EMBER_INTERNAL;
  ember_method_destroy(method);
  ember_program_destroy(program);
  const long allocations = AllocationCounter::disarm();

  ASSERT_EQ(load, EMBER_OK);
  ASSERT_EQ(create, EMBER_OK);
  ASSERT_EQ(run, EMBER_OK);
  EXPECT_EQ(bad, EMBER_INVALID_ARGUMENT);
  EXPECT_EQ(out.sizes[0], 17);
  EXPECT_EQ(entry.calls, 1u);
  EXPECT_EQ(allocations, 0) << (AllocationCounter::counts_malloc() ? "malloc and new" : "new only");
}

}  // namespace
