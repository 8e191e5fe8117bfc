// Seeds for the pt2 fuzz targets: every committed .pt2 fixture (tests/fixtures/pt2 and
// pt2_quant) under `root`, each as the raw file and as its entries (pt2_entries.h), plus a
// deterministic structured mutator the in-suite tests share.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ember::fuzz {

struct Seed {
  std::string name;
  std::vector<uint8_t> bytes;
};

// Files up to `max_bytes` long; `root` is the repository (or runfiles) root.
std::vector<Seed> pt2_seeds(const std::string& root, size_t max_bytes);

// Issue #33's crafted bound cases, made from the committed mlp fixtures under `root`, raw
// only (the entries form cannot hold a duplicate name): a node stack_trace nested 200,000
// and 1,000,000 levels deep and an archive naming model.json twice (all refused), 100 unused
// 256 MiB zero-length weight records and 4 unused deflated 4 MiB records (both read, never
// materialised), a stack_trace holding terminal control bytes and a forged tool line (reads;
// every tool escapes it when printing). Kept apart from pt2_seeds(), whose seeds must all read.
std::vector<Seed> pt2_bound_seeds(const std::string& root);

// A fixed-seed generator (same sequence on every machine).
class Rng {
 public:
  explicit Rng(uint64_t seed) : state_(seed) {}
  uint32_t next() {
    state_ = state_ * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<uint32_t>(state_ >> 33);
  }
  size_t below(size_t n) { return n == 0 ? 0 : next() % n; }

 private:
  uint64_t state_;
};

// One edit of an entries-encoded .pt2: a token spliced into, a span deleted from or a byte
// flipped in one entry's data (the program JSON most of the time), re-encoded.
std::vector<uint8_t> mutate_entries(const std::vector<uint8_t>& encoded, Rng* rng);

}  // namespace ember::fuzz
