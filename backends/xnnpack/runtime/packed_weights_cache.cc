// PackedWeightsCache: see packed_weights_cache.h.
#include "backends/xnnpack/runtime/packed_weights_cache.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cstdlib>

#include "backends/xnnpack/runtime/xnn_allocator.h"

namespace ember::backends::xnnpack {
namespace {

constexpr size_t kAlignment = 64;  // XNN_ALLOCATION_ALIGNMENT on every target we build
constexpr size_t kSlabBytes = size_t{32} << 20;  // virtual; see reserve_in_slab
constexpr size_t kSlabThreshold = kHugePageBytes;  // packed bytes before slabs are used

// A block of huge pages when rounding up to whole 2 MiB pages wastes at most 1/32 of it
// (xnn_allocator.h), else a plain 64-byte-aligned block: a 3.5 MiB decoder weight would
// otherwise hold 4 MiB resident, 12% of every such layer's weights.
void* allocate_block(size_t n) {
  const size_t rounded = (n + kHugePageBytes - 1) / kHugePageBytes * kHugePageBytes;
  if (n >= kHugePageBytes && rounded - n <= n / 32) {
    const xnn_allocator* a = xnn_allocator_with_huge_pages();
    return a->aligned_allocate(a->context, kAlignment, n);
  }
  void* p = nullptr;
  return posix_memalign(&p, kAlignment, n) == 0 ? p : nullptr;
}

size_t align_up(size_t n, size_t a) { return (n + a - 1) / a * a; }

bool same_key(const xnn_weights_cache_look_up_key& a, const xnn_weights_cache_look_up_key& b) {
  return a.seed == b.seed && a.kernel == b.kernel && a.bias == b.bias;
}

}  // namespace

PackedWeightsCache::PackedWeightsCache() {
  provider_.context = this;
  provider_.look_up = &look_up;
  provider_.reserve_space = &reserve_space;
  provider_.look_up_or_insert = &look_up_or_insert;
  provider_.is_finalized = &is_finalized;
  provider_.offset_to_addr = &offset_to_addr;
  provider_.delete_cache = &delete_cache;
}

PackedWeightsCache::~PackedWeightsCache() {
  release_pending();
  for (Entry& e : entries_) {
    if (e.own_block) std::free(e.data);  // both kinds of block come from the C heap
  }
  for (Slab& slab : slabs_) std::free(slab.base);
}

void* PackedWeightsCache::reserve_in_slab(size_t n) {
  const size_t need = align_up(n, kAlignment);
  for (Slab& slab : slabs_) {  // first fit: a later small weight fills an earlier slab's tail
    if (slab.bytes - slab.used >= need) {
      pending_slab_ = static_cast<size_t>(&slab - slabs_.data());
      pending_bytes_ = need;
      return static_cast<char*>(slab.base) + slab.used;
    }
  }
  // Virtual space is cheap: only the 2 MiB pages a weight touches become resident, so a slab
  // is at least kSlabBytes and the last page of each slab is the only one partly wasted.
  const size_t bytes = align_up(need > kSlabBytes ? need : kSlabBytes, kHugePageBytes);
  const xnn_allocator* a = xnn_allocator_with_huge_pages();
  void* base = a->aligned_allocate(a->context, kHugePageBytes, bytes);
  if (base == nullptr) return nullptr;
  slabs_.push_back(Slab{base, bytes, 0});
  pending_slab_ = slabs_.size() - 1;
  pending_bytes_ = need;
  return base;
}

size_t PackedWeightsCache::num_entries() const {
  std::lock_guard<std::mutex> lock(mu_);
  return entries_.size();
}

size_t PackedWeightsCache::packed_bytes() const {
  std::lock_guard<std::mutex> lock(mu_);
  return packed_bytes_;
}

void PackedWeightsCache::release_unused_slab_tails() {
#ifdef MADV_DONTNEED
  const long page = sysconf(_SC_PAGESIZE);
  if (page <= 0) return;
  for (const Slab& slab : slabs_) {
    const size_t keep = align_up(slab.used, size_t(page));
    if (keep >= slab.bytes) continue;
    // Advice on our own anonymous slab: the range reads back as zeros; failure keeps the pages.
    (void)madvise(static_cast<char*>(slab.base) + keep, slab.bytes - keep, MADV_DONTNEED);
  }
#endif
}

size_t PackedWeightsCache::slab_bytes() const {
  std::lock_guard<std::mutex> lock(mu_);
  return slab_bytes_;
}

void PackedWeightsCache::expect_bytes(size_t bytes) {
  std::lock_guard<std::mutex> lock(mu_);
  expected_bytes_ = bytes;
}

size_t PackedWeightsCache::hits() const {
  std::lock_guard<std::mutex> lock(mu_);
  return hits_;
}

size_t PackedWeightsCache::find(const xnn_weights_cache_look_up_key& key) const {
  for (size_t i = 0; i < entries_.size(); ++i) {
    if (same_key(entries_[i].key, key)) return i;
  }
  return SIZE_MAX;
}

void PackedWeightsCache::release_pending() {
  if (pending_ == nullptr) return;
  if (pending_slab_ == SIZE_MAX) std::free(pending_);  // a slab reservation is simply not kept
  pending_ = nullptr;
  pending_slab_ = SIZE_MAX;
}

size_t PackedWeightsCache::look_up(void* self, const xnn_weights_cache_look_up_key* key) {
  auto* c = static_cast<PackedWeightsCache*>(self);
  std::lock_guard<std::mutex> lock(c->mu_);
  const size_t i = c->find(*key);
  if (i != SIZE_MAX) ++c->hits_;
  return i;
}

void* PackedWeightsCache::reserve_space(void* self, size_t n) {
  auto* c = static_cast<PackedWeightsCache*>(self);
  std::lock_guard<std::mutex> lock(c->mu_);
  c->release_pending();  // a reservation XNNPACK abandoned (a failed create)
  if (n == 0) n = kAlignment;
  // A delegate with few weights (less than kSlabThreshold of constants, and the first
  // kSlabThreshold packed bytes of one that did not say) gets blocks of its own: a small model
  // keeps no 2 MiB page resident for a few kilobytes of weights. Beyond, weights share slabs.
  const bool slab = c->packed_bytes_ >= kSlabThreshold || c->expected_bytes_ >= kSlabThreshold;
  c->pending_ = slab ? c->reserve_in_slab(n) : allocate_block(n);
  return c->pending_;
}

size_t PackedWeightsCache::look_up_or_insert(void* self, const xnn_weights_cache_look_up_key* key,
                                             void* ptr, size_t size) {
  auto* c = static_cast<PackedWeightsCache*>(self);
  std::lock_guard<std::mutex> lock(c->mu_);
  const size_t found = c->find(*key);
  if (found != SIZE_MAX) {
    if (ptr == c->pending_) c->release_pending();
    ++c->hits_;
    return found;
  }
  if (ptr != c->pending_ || ptr == nullptr) return SIZE_MAX;  // not a block we handed out
  const bool in_slab = c->pending_slab_ != SIZE_MAX;
  if (in_slab) {
    c->slabs_[c->pending_slab_].used += c->pending_bytes_;
    c->slab_bytes_ += size;
  }
  c->entries_.push_back(Entry{*key, ptr, size, !in_slab});
  c->pending_ = nullptr;
  c->pending_slab_ = SIZE_MAX;
  c->packed_bytes_ += size;
  return c->entries_.size() - 1;
}

bool PackedWeightsCache::is_finalized(void* self) {
  auto* c = static_cast<PackedWeightsCache*>(self);
  std::lock_guard<std::mutex> lock(c->mu_);
  return !c->open_;
}

void PackedWeightsCache::set_open(bool open) {
  std::lock_guard<std::mutex> lock(mu_);
  open_ = open;
  if (!open) release_pending();
}

void* PackedWeightsCache::offset_to_addr(void* self, size_t offset) {
  auto* c = static_cast<PackedWeightsCache*>(self);
  std::lock_guard<std::mutex> lock(c->mu_);
  return offset < c->entries_.size() ? c->entries_[offset].data : nullptr;
}

xnn_status PackedWeightsCache::delete_cache(void*) {
  return xnn_status_success;  // owned by the executor; freed by the destructor
}

}  // namespace ember::backends::xnnpack
