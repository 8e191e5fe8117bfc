#include "runtime/core/memory_allocator.h"

#include <gtest/gtest.h>

namespace ember::runtime {
namespace {

TEST(MemoryAllocator, BumpsAlignsAndResets) {
  alignas(64) uint8_t buffer[128];
  MemoryAllocator a(buffer, sizeof(buffer));
  void* p1 = a.allocate(3, 1);
  EXPECT_EQ(p1, buffer);
  void* p2 = a.allocate(8, 16);
  EXPECT_EQ(p2, buffer + 16);
  EXPECT_EQ(a.used(), 24u);
  EXPECT_EQ(a.allocate(200), nullptr);
  EXPECT_EQ(a.allocate(8, 3), nullptr);  // not a power of two
  EXPECT_EQ(a.allocate_list<uint64_t>(SIZE_MAX / 4), nullptr);  // overflow
  a.reset();
  EXPECT_EQ(a.allocate(128, 1), buffer);
  EXPECT_EQ(a.allocate(1, 1), nullptr);
}

TEST(MemoryAllocator, EmptyAllocator) {
  MemoryAllocator a;
  EXPECT_EQ(a.allocate(1), nullptr);
  EXPECT_EQ(a.capacity(), 0u);
}

}  // namespace
}  // namespace ember::runtime
