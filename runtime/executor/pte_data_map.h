// PteDataMap: the NamedDataMap over a program's own `named_data` table: each
// key names a segment (found through the file's PteContainer), loaded through
// the program's DataLoader on request (a view for buffer and mmap loaders).
// Lookup is a linear scan; it holds no pointer back to the Program (only a
// copy of its PteContainer), so the Program stays movable.
#pragma once

#include <cstddef>
#include <string_view>

#include "runtime/core/data_loader.h"
#include "runtime/core/named_data_map.h"
#include "runtime/executor/pte_container.h"

namespace ember::runtime {

class PteDataMap final : public NamedDataMap {
 public:
  PteDataMap() = default;
  // `loader` and the bytes `container` points into must outlive this map.
  PteDataMap(const DataLoader* loader, const PteContainer& container)
      : loader_(loader), container_(container) {}

  Result<FreeableBuffer> get_data(std::string_view key) const override;
  size_t num_keys() const override { return container_.num_named_data(); }
  Result<std::string_view> key_at(size_t i) const override { return container_.named_data_key(i); }

 private:
  const DataLoader* loader_ = nullptr;
  PteContainer container_;
};

// Loads segment `index` of `container`'s file through `loader` at the range
// PteContainer::segment() checked. Shared by Program and PteDataMap.
Result<FreeableBuffer> load_program_segment(const DataLoader* loader, const PteContainer& container,
                                            size_t index, const SegmentInfo& info);

}  // namespace ember::runtime
