// check_planned_memory on hand-built programs (testing/program_builder.h): issue #33's tiny
// program that plans 15 GB is refused by the default budget before anything is reserved;
// sums, the largest buffer and overflow are worked out by hand.
#include "runtime/executor/memory_budget.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "runtime/core/diagnostics.h"
#include "runtime/executor/program.h"
#include "runtime/executor/testing/program_builder.h"
#include "runtime/loader/buffer_data_loader.h"

namespace ember::runtime {
namespace {

using testing::AlignedBytes;
using testing::make_add_program;
using testing::serialize;

// Loads `sizes` as the add program's non_const_buffer_sizes and checks its plan.
Result<PlannedMemory> check(const std::vector<int64_t>& sizes, uint64_t budget,
                            size_t* file_bytes = nullptr) {
  auto program = make_add_program();
  program->execution_plan[0]->non_const_buffer_sizes = sizes;
  const std::vector<uint8_t> bytes = serialize(*program);
  if (file_bytes != nullptr) *file_bytes = bytes.size();
  AlignedBytes aligned(bytes);
  BufferDataLoader loader(aligned.data(), aligned.size());
  Result<Program> loaded = Program::load(&loader);
  EXPECT_TRUE(loaded.ok()) << last_error_message();
  if (!loaded.ok()) return loaded.error();
  Result<MethodMeta> meta = loaded->method_meta("forward");
  EXPECT_TRUE(meta.ok());
  if (!meta.ok()) return meta.error();
  return check_planned_memory(*meta, budget);
}

std::string message() { return last_error_message(); }

TEST(MemoryBudgetTest, TinyProgramPlanning15GBIsRefusedByTheDefaultBudget) {
  size_t file_bytes = 0;
  const int64_t fifteen_gb = int64_t{15} * 1000 * 1000 * 1000;
  Result<PlannedMemory> plan = check({0, fifteen_gb}, kDefaultPlannedMemoryBudget, &file_bytes);
  EXPECT_LT(file_bytes, 1024u);
  ASSERT_FALSE(plan.ok());
  EXPECT_EQ(plan.error(), Error::MemoryAllocationFailed);
  EXPECT_EQ(message(),
            "method 'forward' plans 15000000000 bytes in 1 buffer(s) (buffer 0: 15000000000 "
            "bytes), over the planned-memory budget of 8589934592 bytes; if the program is "
            "trusted, raise the budget");
}

TEST(MemoryBudgetTest, PlansWithinTheBudgetReportTotalAndLargest) {
  Result<PlannedMemory> plan = check({0, 48, 4096, 16}, 4160);  // 48 + 4096 + 16 = 4160
  ASSERT_TRUE(plan.ok()) << message();
  EXPECT_EQ(plan->total_bytes, 4160u);
  EXPECT_EQ(plan->largest_bytes, 4096u);
  EXPECT_EQ(plan->num_buffers, 3u);
  // One byte less of budget refuses the same plan, naming buffer 1 (the 4096 bytes).
  Result<PlannedMemory> over = check({0, 48, 4096, 16}, 4159);
  ASSERT_FALSE(over.ok());
  EXPECT_EQ(over.error(), Error::MemoryAllocationFailed);
  EXPECT_NE(message().find("plans 4160 bytes in 3 buffer(s) (buffer 1: 4096 bytes)"),
            std::string::npos)
      << message();
}

TEST(MemoryBudgetTest, SumsThatOverflowAreRefusedWhateverTheBudget) {
  const int64_t big = INT64_MAX;  // two of them exceed 2^64 - 1
  Result<PlannedMemory> plan = check({0, big, big, big}, UINT64_MAX);
  ASSERT_FALSE(plan.ok());
  EXPECT_EQ(plan.error(), Error::MemoryAllocationFailed);
  EXPECT_NE(message().find("add up to more than 2^64 bytes"), std::string::npos) << message();
}

TEST(MemoryBudgetTest, NegativeBufferSizeIsAnInvalidProgram) {
  Result<PlannedMemory> plan = check({0, 48, -1}, UINT64_MAX);
  ASSERT_FALSE(plan.ok());
  EXPECT_EQ(plan.error(), Error::InvalidProgram);
  EXPECT_NE(message().find("method 'forward': planned buffer 1 has negative size -1"),
            std::string::npos)
      << message();
}

}  // namespace
}  // namespace ember::runtime
