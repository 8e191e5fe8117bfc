// The bytes one .pt2 read may decompress and materialise, shared by the outer archive and
// every torch.save zip nested in it (issue #33).
//
// A zip's per-entry bounds (a stored entry is no larger than the archive, a compressed one
// at most 1024x it) do not bound the whole read: many entries, each within its bound, used
// to make a 3 MB file allocate 3 GB. A ReadBudget is charged before every allocation whose
// size the file chooses (an entry's decompressed bytes, a zero-length weight record turned
// into zeros), and refuses the one that would cross its limit:
//   - the ratio limit, 1024x the archive's size over the whole read: a file that
//     decompresses to more is a zip bomb, InvalidProgram;
//   - the cap (Pt2ReadOptions::max_read_bytes, default kDefaultMaxReadBytes = 16 GiB,
//     documented in docs/error_handling.md): MemoryAllocationFailed naming the cap.
// Entries the graph does not reference are not read at all, so they cost nothing.
#pragma once

#include <cstdint>
#include <string>

#include "aot/ir/error.h"

namespace ember::aot {

constexpr uint64_t kDefaultMaxReadBytes = uint64_t{16} << 30;  // 16 GiB
constexpr uint64_t kMaxCompressionRatio = 1024;

class ReadBudget {
 public:
  // A budget for an archive of `archive_bytes`: min(cap, archive_bytes * 1024).
  ReadBudget(uint64_t archive_bytes, uint64_t cap);

  // Records `bytes` more for `what` (an entry name), or returns the named error (nothing is
  // charged then) if that would cross the limit.
  Error charge(uint64_t bytes, const std::string& what);
  uint64_t used() const { return used_; }
  uint64_t limit() const { return limit_; }

 private:
  uint64_t limit_;
  bool limited_by_ratio_;
  uint64_t used_ = 0;
};

}  // namespace ember::aot
