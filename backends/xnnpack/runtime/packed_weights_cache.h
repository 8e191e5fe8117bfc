// PackedWeightsCache: one delegate's packed weights, shared by all of its shape plans.
// XNNPACK 2024 packs a static weight (fully-connected, convolution, ...) into its own layout
// whenever a runtime is created; this XNNPACK's runtimes have static shapes, so the executor
// creates one runtime per input shape (shape_plan.h) and, without a cache, a decoder holds one
// packed copy of every linear layer per cached plan (the serialized bounds, the prefill, the
// decode step). This class is an xnn_weights_cache_provider (xnnpack.h): XNNPACK looks a weight
// up by {packing seed, raw weight pointer, raw bias pointer} before packing it, so every later
// plan reuses the first plan's packed bytes. Unless the delegate's constants total 2 MiB or more
// (`expect_bytes`), the first 2 MiB of entries live in aligned blocks of their own; later ones are laid one after another in slabs of huge pages (`Slab`), so a model
// whose weights are many layers of under 2 MiB (RegNetX: 120 blocks, 26 MB) streams them through
// ~13 TLB entries instead of ~6,400. Entries never move. XNNPACK refuses to set up an
// operator whose cache is not finalized and packs into it only while it is open, so a plan
// opens it around each runtime's creation (`set_open`) and closes it before reshaping (which may
// set up the other runtimes of a shared workspace again, shape_plan.h) and running; being
// separate blocks, closing moves or trims nothing. The raw pointers are keys only: they belong to the
// executor's GraphModel and stay valid (and unchanged) for the cache's lifetime, which is the
// executor's. Not shared between executors: a freed executor's addresses could be reused by
// another one's different weights.
#pragma once

#include <xnnpack.h>

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <vector>

namespace ember::backends::xnnpack {

class PackedWeightsCache {
 public:
  PackedWeightsCache();
  ~PackedWeightsCache();
  PackedWeightsCache(const PackedWeightsCache&) = delete;
  PackedWeightsCache& operator=(const PackedWeightsCache&) = delete;

  // The provider to pass to xnn_create_runtime_v4; valid while this object lives.
  xnn_weights_cache_t provider() { return &provider_; }
  // Open: runtimes being created may insert. Closed ("finalized" for XNNPACK): runtimes may run.
  void set_open(bool open);

  // The delegate's constant bytes (a hint, before any runtime is created): from 2 MiB on, its
  // weights go to huge-page slabs from the first one, not only after the first 2 MiB.
  void expect_bytes(size_t bytes);
  // Gives back the pages of each slab past its last entry (rounded up to the base page size)
  // that packing made resident: a slab's last 2 MiB page is partly used, and with transparent
  // huge pages the whole page is resident (an LLM's 30 layer delegates held 15 MB more than
  // their weights). Called once packing is done; a later reservation there faults zeroed pages.
  void release_unused_slab_tails();

  size_t num_entries() const;
  size_t packed_bytes() const;  // bytes of packed weights held
  size_t hits() const;          // look-ups answered from the cache
  size_t slab_bytes() const;    // bytes of packed weights held in slabs

 private:
  struct Entry {
    xnn_weights_cache_look_up_key key;
    void* data;
    size_t size;
    bool own_block;  // a block of its own (freed alone), else inside a slab
  };
  // A 2 MiB-aligned region marked for huge pages (xnn_allocator.h) that packed weights fill in
  // order: every weight of a model shares huge pages, not only those of 2 MiB or more.
  struct Slab {
    void* base;
    size_t bytes;
    size_t used;
  };
  static size_t look_up(void* self, const xnn_weights_cache_look_up_key* key);
  static void* reserve_space(void* self, size_t n);
  static size_t look_up_or_insert(void* self, const xnn_weights_cache_look_up_key* key, void* ptr,
                                  size_t size);
  static bool is_finalized(void* self);
  static void* offset_to_addr(void* self, size_t offset);
  static xnn_status delete_cache(void* self);

  size_t find(const xnn_weights_cache_look_up_key& key) const;  // index or SIZE_MAX
  void release_pending();
  void* reserve_in_slab(size_t n);  // sets pending_slab_ / pending_bytes_; nullptr when out of memory

  xnn_weights_cache_provider provider_{};
  mutable std::mutex mu_;
  std::vector<Entry> entries_;
  void* pending_ = nullptr;  // the block handed out by reserve_space, not yet inserted
  size_t pending_slab_ = SIZE_MAX;  // the slab pending_ is in, SIZE_MAX for a block of its own
  size_t pending_bytes_ = 0;        // bytes of that slab the reservation takes
  std::vector<Slab> slabs_;
  size_t packed_bytes_ = 0;
  size_t slab_bytes_ = 0;
  size_t expected_bytes_ = 0;
  bool open_ = false;
  size_t hits_ = 0;
};

}  // namespace ember::backends::xnnpack
