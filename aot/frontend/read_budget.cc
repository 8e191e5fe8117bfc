// ReadBudget: one running total of file-chosen allocations per .pt2 read.
#include "aot/frontend/read_budget.h"

#include <algorithm>

namespace ember::aot {

ReadBudget::ReadBudget(uint64_t archive_bytes, uint64_t cap) {
  uint64_t ratio_limit;
  if (__builtin_mul_overflow(archive_bytes, kMaxCompressionRatio, &ratio_limit)) {
    ratio_limit = UINT64_MAX;
  }
  limit_ = std::min(ratio_limit, cap);
  limited_by_ratio_ = ratio_limit < cap;
}

Error ReadBudget::charge(uint64_t bytes, const std::string& what) {
  if (bytes <= limit_ - used_) {  // used_ <= limit_ always holds
    used_ += bytes;
    return Error::Ok;
  }
  const std::string total = std::to_string(used_) + " + " + std::to_string(bytes) + " bytes";
  if (limited_by_ratio_) {
    return invalid_program(what + ": reading it would bring the decompressed total to " + total +
                           ", more than " + std::to_string(kMaxCompressionRatio) +
                           "x the archive (" + std::to_string(limit_) +
                           " bytes): a zip bomb or a corrupt size");
  }
  return fail(Error::MemoryAllocationFailed,
              what + ": reading it would bring the total read from the .pt2 to " + total +
                  ", over the cap of " + std::to_string(limit_) +
                  " bytes (Pt2ReadOptions::max_read_bytes; docs/error_handling.md)");
}

}  // namespace ember::aot
