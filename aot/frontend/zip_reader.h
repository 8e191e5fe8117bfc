// Read-only view of a zip archive held in memory (the .pt2 container and the torch.save
// zips nested inside it), built on libzip.
//
// The archive bytes are borrowed: the caller keeps them alive while the ZipReader lives.
// Entry names are listed once at open; read() returns an entry's bytes, refusing entries
// whose declared size is implausible for the archive (a stored entry cannot be larger
// than the archive; compressed ones are capped) so a forged central directory cannot
// make us allocate an arbitrary amount, and charging every read to a ReadBudget shared by
// the whole .pt2 (read_budget.h). Archives that name one entry twice are refused at open:
// Python's zipfile (so torch.export.load) reads the last copy, libzip the first, so the two
// would read different graphs. All failures are Error values naming the entry.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "aot/frontend/read_budget.h"
#include "aot/ir/error.h"

struct zip;  // libzip's archive handle

namespace ember::aot {

class ZipReader {
 public:
  // Opens `size` bytes at `data` as a zip archive. `what` names it in messages. Reads are
  // charged to `budget` (shared with nested archives); without one the reader makes its own
  // for `size` bytes and kDefaultMaxReadBytes.
  static Result<std::unique_ptr<ZipReader>> open(const uint8_t* data, size_t size,
                                                 const std::string& what,
                                                 std::shared_ptr<ReadBudget> budget = nullptr);
  ~ZipReader();
  ZipReader(const ZipReader&) = delete;
  ZipReader& operator=(const ZipReader&) = delete;

  // Entry names in central-directory order.
  const std::vector<std::string>& names() const { return names_; }
  bool contains(const std::string& name) const;
  const std::shared_ptr<ReadBudget>& budget() const { return budget_; }
  // Whole contents of entry `name`; Error::NotFound if absent, Error::AccessFailed if unreadable, the
  // budget's error if it would cross the budget.
  Result<std::vector<uint8_t>> read(const std::string& name) const;
  Result<std::string> read_text(const std::string& name) const;

 private:
  ZipReader() = default;
  zip* archive_ = nullptr;
  size_t archive_size_ = 0;
  std::string what_;
  std::vector<std::string> names_;
  std::shared_ptr<ReadBudget> budget_;
};

}  // namespace ember::aot
