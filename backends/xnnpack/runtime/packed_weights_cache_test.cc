// PackedWeightsCache's placement of packed weights: the first 2 MiB in blocks of their own,
// later ones one after another in 2 MiB-aligned huge-page slabs; abandoned reservations are
// reused; every entry keeps its bytes. Driven through the xnn_weights_cache_provider functions
// the way XNNPACK calls them (reserve_space, write, look_up_or_insert).
#include "backends/xnnpack/runtime/packed_weights_cache.h"

#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "backends/xnnpack/runtime/test_delegate.h"
#include "backends/xnnpack/runtime/xnn_allocator.h"
#include "runtime/core/diagnostics.h"

namespace ember::backends::xnnpack {
namespace {

// One packed weight: reserves `bytes`, fills them with `fill`, inserts under a key made of
// `tag` (a distinct fake raw-weight address). Returns the address XNNPACK would pack into.
struct Inserted {
  unsigned char* data;
  size_t index;
};

char g_tags[64];  // distinct addresses to serve as raw-weight keys

Inserted insert(PackedWeightsCache& cache, int tag, size_t bytes, unsigned char fill) {
  xnn_weights_cache_t p = cache.provider();
  auto* data = static_cast<unsigned char*>(p->reserve_space(p->context, bytes));
  EXPECT_NE(data, nullptr);
  if (data == nullptr) return {nullptr, SIZE_MAX};
  std::memset(data, fill, bytes);
  const xnn_weights_cache_look_up_key key{1u, &g_tags[tag], nullptr};
  return {data, p->look_up_or_insert(p->context, &key, data, bytes)};
}

bool all_equal(const unsigned char* p, size_t n, unsigned char v) {
  for (size_t i = 0; i < n; ++i) {
    if (p[i] != v) return false;
  }
  return true;
}

TEST(PackedWeightsCache, SmallWeightsAfterTheFirstTwoMegabytesShareOneHugePageSlab) {
  PackedWeightsCache cache;
  cache.set_open(true);
  // 2.5 MB: rounding it to 4 MiB of huge pages would waste more than 1/32, so a block of its own.
  const size_t big = kHugePageBytes + kHugePageBytes / 4;
  const Inserted first = insert(cache, 0, big, 0x11);
  ASSERT_EQ(first.index, 0u);
  // Then 12 RegNetX-sized layers (100,000 bytes; 64-byte multiples apart).
  const size_t small = 100000, stride = (small + 63) / 64 * 64;
  std::vector<Inserted> layers;
  for (int i = 0; i < 12; ++i) layers.push_back(insert(cache, 1 + i, small, static_cast<unsigned char>(0x20 + i)));
  ASSERT_EQ(layers[0].index, 1u);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(layers[0].data) % kHugePageBytes, 0u)
      << "the first slab entry starts a 2 MiB-aligned slab";
  for (int i = 1; i < 12; ++i) {
    EXPECT_EQ(layers[i].data, layers[i - 1].data + stride) << "layer " << i << " follows layer " << i - 1;
    EXPECT_EQ(layers[i].index, size_t(1 + i));
  }
  cache.set_open(false);
  xnn_weights_cache_t p = cache.provider();
  EXPECT_EQ(p->offset_to_addr(p->context, 0), first.data);
  EXPECT_TRUE(all_equal(first.data, big, 0x11));
  for (int i = 0; i < 12; ++i) {
    EXPECT_EQ(p->offset_to_addr(p->context, layers[i].index), layers[i].data);
    EXPECT_TRUE(all_equal(layers[i].data, small, static_cast<unsigned char>(0x20 + i))) << "layer " << i;
  }
  EXPECT_EQ(cache.num_entries(), 13u);
  EXPECT_EQ(cache.packed_bytes(), big + 12 * small);
}

TEST(PackedWeightsCache, TheFirstWeightsGetBlocksOfTheirOwn) {
  PackedWeightsCache cache;
  cache.set_open(true);
  // Under 2 MiB packed in all: no slab (a small model keeps no 2 MiB page resident), so the
  // blocks are not laid end to end from a 2 MiB boundary.
  const Inserted a = insert(cache, 0, 4096, 1);
  const Inserted b = insert(cache, 1, 4096, 2);
  const Inserted c = insert(cache, 2, 4096, 3);
  const bool slab_like = reinterpret_cast<uintptr_t>(a.data) % kHugePageBytes == 0 && b.data == a.data + 4096 &&
                         c.data == b.data + 4096;
  EXPECT_FALSE(slab_like);
  EXPECT_TRUE(all_equal(a.data, 4096, 1) && all_equal(b.data, 4096, 2) && all_equal(c.data, 4096, 3));
  cache.set_open(false);
}

TEST(PackedWeightsCache, AReservationThatFindsItsKeyIsReused) {
  PackedWeightsCache cache;
  cache.set_open(true);
  insert(cache, 0, kHugePageBytes, 0x01);  // past the threshold: what follows is in a slab
  const Inserted w = insert(cache, 1, 5000, 0x02);
  // A second plan packs the same weight again: XNNPACK reserves, packs, and look_up_or_insert
  // answers the existing entry; the space must not be consumed.
  xnn_weights_cache_t p = cache.provider();
  void* again = p->reserve_space(p->context, 5000);
  ASSERT_NE(again, nullptr);
  EXPECT_EQ(again, w.data + 5056) << "the next free byte of the slab";
  const xnn_weights_cache_look_up_key key{1u, &g_tags[1], nullptr};
  EXPECT_EQ(p->look_up_or_insert(p->context, &key, again, 5000), w.index);
  const Inserted next = insert(cache, 2, 64, 0x03);
  EXPECT_EQ(next.data, again) << "the abandoned space is handed out again";
  EXPECT_EQ(cache.hits(), 1u);
  EXPECT_EQ(cache.num_entries(), 3u);
  cache.set_open(false);
}

TEST(PackedWeightsCache, AWeightLargerThanASlabGetsItsOwnAndSmallOnesStillFillTheFirst) {
  PackedWeightsCache cache;
  cache.set_open(true);
  insert(cache, 0, kHugePageBytes, 0x01);
  const Inserted a = insert(cache, 1, 1000, 0x02);
  const size_t huge = size_t{40} << 20;  // larger than a slab's 32 MiB
  const Inserted h = insert(cache, 2, huge, 0x03);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(h.data) % kHugePageBytes, 0u);
  const Inserted b = insert(cache, 3, 1000, 0x04);
  EXPECT_EQ(b.data, a.data + 1024) << "first fit: back into the first slab's tail";
  EXPECT_TRUE(all_equal(h.data, huge, 0x03));
  EXPECT_TRUE(all_equal(a.data, 1000, 0x02) && all_equal(b.data, 1000, 0x04));
  cache.set_open(false);
}

TEST(PackedWeightsCache, ADelegateThatExpectsTwoMegabytesUsesSlabsFromItsFirstWeight) {
  PackedWeightsCache cache;
  cache.expect_bytes(kHugePageBytes);
  cache.set_open(true);
  const Inserted a = insert(cache, 0, 4096, 1);
  const Inserted b = insert(cache, 1, 4096, 2);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(a.data) % kHugePageBytes, 0u);
  EXPECT_EQ(b.data, a.data + 4096);
  EXPECT_EQ(cache.slab_bytes(), 8192u);
  cache.set_open(false);
}

// Resident 4 KiB pages of [p, p + n) (mincore); p page-aligned.
size_t resident_pages(const unsigned char* p, size_t n) {
  const size_t page = size_t(sysconf(_SC_PAGESIZE));
  std::vector<unsigned char> in((n + page - 1) / page);
  if (mincore(const_cast<unsigned char*>(p), n, in.data()) != 0) return SIZE_MAX;
  size_t count = 0;
  for (unsigned char v : in) count += v & 1;
  return count;
}

// The slab's tail past its last entry is given back; the entries keep their pages and bytes.
// The tail is written first, as a transparent huge page backing the slab's first 2 MiB would
// make it resident, so the test does not depend on the machine's THP setting.
TEST(PackedWeightsCache, TheUnusedTailOfASlabIsGivenBack) {
  PackedWeightsCache cache;
  cache.expect_bytes(kHugePageBytes);
  cache.set_open(true);
  const size_t page = size_t(sysconf(_SC_PAGESIZE));
  const Inserted a = insert(cache, 0, 3 * page + 100, 7);
  ASSERT_EQ(reinterpret_cast<uintptr_t>(a.data) % kHugePageBytes, 0u);
  cache.set_open(false);
  unsigned char* tail = a.data + 4 * page;  // the entry's 3 pages and 100 bytes end in page 4
  std::memset(tail, 0x5a, kHugePageBytes - 4 * page);
  ASSERT_EQ(resident_pages(tail, kHugePageBytes - 4 * page), kHugePageBytes / page - 4);
  cache.release_unused_slab_tails();
  EXPECT_EQ(resident_pages(tail, kHugePageBytes - 4 * page), 0u);
  EXPECT_EQ(resident_pages(a.data, 4 * page), 4u);
  EXPECT_TRUE(all_equal(a.data, 3 * page + 100, 7));
  EXPECT_EQ(tail[0], 0) << "a given-back page reads back as zeros";
}

// Through the delegate: the executor tells its cache the graph's constant bytes at init.
// x[1,16] -> FC(16 -> 32) -> FC(32 -> n): the first filter is 2 KB, the second 32 n floats.
testing::GraphBuilder two_linears(uint32_t n) {
  testing::GraphBuilder g;
  const uint32_t x = g.tensor({1, 16}, testing::kIn, 0);
  const uint32_t w1 = g.constant({32, 16}, std::vector<float>(32 * 16, 0.25f));
  const uint32_t b1 = g.constant({32}, std::vector<float>(32, 1.f));
  const uint32_t h = g.tensor({1, 32});
  g.fully_connected(x, w1, b1, h);
  const uint32_t w2 = g.constant({n, 32}, std::vector<float>(size_t{n} * 32, 0.5f));
  const uint32_t b2 = g.constant({n}, std::vector<float>(n, -1.f));
  g.fully_connected(h, w2, b2, g.tensor({1, n}, testing::kOut, 1));
  return g;
}

TEST(PackedWeightsCache, ADelegateWithTwoMegabytesOfWeightsPacksAllOfThemIntoSlabs) {
  testing::Delegate d(two_linears(16384));  // 2 MiB + 2 KB of filters
  ASSERT_EQ(d.init_error(), runtime::Error::Ok) << runtime::last_error_message();
  const PackedWeightsCache& cache = d.executor()->packed_weights();
  EXPECT_EQ(cache.num_entries(), 2u);
  EXPECT_GT(cache.packed_bytes(), kHugePageBytes);
  EXPECT_EQ(cache.slab_bytes(), cache.packed_bytes()) << "the first, small filter too";
  // The packed weights still compute: y = 0.5 * 32 * (16 * 0.25 * x + 1) - 1 for x = 1: 79.
  testing::HeapTensor in({1, 16}), out({1, 16384});
  for (int i = 0; i < 16; ++i) in.data[i] = 1.f;
  ASSERT_EQ(d.run({&in, &out}), runtime::Error::Ok) << runtime::last_error_message();
  EXPECT_FLOAT_EQ(out.data[0], 79.f);
  EXPECT_FLOAT_EQ(out.data[16383], 79.f);
}

TEST(PackedWeightsCache, ADelegateWithFewWeightsKeepsBlocksOfItsOwn) {
  testing::Delegate d(two_linears(64));
  ASSERT_EQ(d.init_error(), runtime::Error::Ok) << runtime::last_error_message();
  EXPECT_EQ(d.executor()->packed_weights().slab_bytes(), 0u);
}

}  // namespace
}  // namespace ember::backends::xnnpack
