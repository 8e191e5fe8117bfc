// GrowingMemoryAllocator: chunks are taken on demand and double, alignment is
// honoured across chunks, the cap holds (nullptr past it, never a partial
// chunk beyond it), bad alignments and overflowing sizes are refused, and
// reset() gives every chunk back. Sizes below are worked out by hand from the
// 64-byte chunk alignment.
#include "runtime/module/growing_memory_allocator.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>

namespace ember::runtime {
namespace {

bool aligned(const void* p, size_t a) { return reinterpret_cast<uintptr_t>(p) % a == 0; }

TEST(GrowingMemoryAllocatorTest, TakesNoMemoryUntilAsked) {
  GrowingMemoryAllocator a(1024, 1 << 20);
  EXPECT_EQ(a.capacity(), 0u);
  EXPECT_EQ(a.used(), 0u);
  EXPECT_EQ(a.num_chunks(), 0u);
}

TEST(GrowingMemoryAllocatorTest, GrowsByDoublingChunks) {
  GrowingMemoryAllocator a(1024, 1 << 20);
  void* p = a.allocate(1000, 8);
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(a.num_chunks(), 1u);
  EXPECT_EQ(a.capacity(), 1024u);
  EXPECT_EQ(a.used(), 1000u);
  std::memset(p, 1, 1000);
  void* q = a.allocate(100, 8);  // 1000 + 100 > 1024: a second chunk of 2048
  ASSERT_NE(q, nullptr);
  std::memset(q, 2, 100);
  EXPECT_EQ(a.num_chunks(), 2u);
  EXPECT_EQ(a.capacity(), 1024u + 2048u);
  EXPECT_EQ(a.used(), 1100u);
  void* big = a.allocate(10000, 8);  // larger than the next doubling (4096): its own size
  ASSERT_NE(big, nullptr);
  std::memset(big, 3, 10000);
  EXPECT_EQ(a.num_chunks(), 3u);
  EXPECT_EQ(a.capacity(), 1024u + 2048u + 10048u);  // 10000 rounded up to 64
  EXPECT_EQ(static_cast<uint8_t*>(p)[999], 1);      // earlier memory is untouched
}

TEST(GrowingMemoryAllocatorTest, HonoursAlignmentInEveryChunk) {
  GrowingMemoryAllocator a(64, 1 << 20);
  for (size_t alignment : {size_t(1), size_t(16), size_t(64), size_t(256), size_t(4096)}) {
    void* p = a.allocate(40, alignment);
    ASSERT_NE(p, nullptr) << alignment;
    EXPECT_TRUE(aligned(p, alignment)) << alignment;
  }
}

TEST(GrowingMemoryAllocatorTest, CapIsNeverExceeded) {
  GrowingMemoryAllocator a(1024, 4096);
  ASSERT_NE(a.allocate(1024), nullptr);  // chunk 1: 1024
  ASSERT_NE(a.allocate(2048), nullptr);  // chunk 2: 2048
  EXPECT_EQ(a.allocate(2048), nullptr);  // would need 2048 more, 1024 left
  ASSERT_NE(a.allocate(1000), nullptr);  // chunk 3: trimmed to the 1024 left
  EXPECT_EQ(a.capacity(), 4096u);
  EXPECT_EQ(a.allocate(64), nullptr);
  EXPECT_EQ(a.capacity(), 4096u);
}

TEST(GrowingMemoryAllocatorTest, RefusesBadAlignmentAndOverflow) {
  GrowingMemoryAllocator a(1024, SIZE_MAX);
  EXPECT_EQ(a.allocate(8, 0), nullptr);
  EXPECT_EQ(a.allocate(8, 3), nullptr);
  EXPECT_EQ(a.allocate(SIZE_MAX, 8), nullptr);
  EXPECT_EQ(a.allocate(SIZE_MAX - 100, 1 << 12), nullptr);
  EXPECT_EQ(a.allocate_list<uint64_t>(SIZE_MAX / 4), nullptr);
  EXPECT_EQ(a.num_chunks(), 0u);
}

TEST(GrowingMemoryAllocatorTest, ResetGivesChunksBack) {
  GrowingMemoryAllocator a(128, 1 << 20);
  ASSERT_NE(a.allocate(100), nullptr);
  ASSERT_NE(a.allocate(200), nullptr);
  EXPECT_EQ(a.num_chunks(), 2u);
  a.reset();
  EXPECT_EQ(a.num_chunks(), 0u);
  EXPECT_EQ(a.capacity(), 0u);
  EXPECT_EQ(a.used(), 0u);
  ASSERT_NE(a.allocate(100), nullptr);
  EXPECT_EQ(a.capacity(), 128u);  // starts over with the first size
}

TEST(GrowingMemoryAllocatorTest, WorksThroughTheBaseInterface) {
  GrowingMemoryAllocator growing(64, 1 << 20);
  MemoryAllocator& a = growing;
  int* values = a.allocate_list<int>(1000);
  ASSERT_NE(values, nullptr);
  for (int i = 0; i < 1000; ++i) values[i] = i;
  EXPECT_EQ(a.used(), 4000u);
  EXPECT_GE(a.capacity(), 4000u);
}

}  // namespace
}  // namespace ember::runtime
