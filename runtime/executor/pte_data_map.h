// PteDataMap: the NamedDataMap over a program's own `named_data` table: each
// key names a segment, loaded through the program's DataLoader on request
// (a view for buffer and mmap loaders). Lookup is a linear scan; it holds no
// pointer back to the Program, so the Program stays movable.
#pragma once

#include <cstddef>
#include <string_view>

#include "runtime/core/data_loader.h"
#include "runtime/core/named_data_map.h"

namespace ember::runtime {

class PteDataMap final : public NamedDataMap {
 public:
  PteDataMap() = default;
  // `named_data` and `segments` are the FlatBuffer vectors (may be null).
  PteDataMap(const DataLoader* loader, const void* named_data, const void* segments,
             size_t segment_base_offset, bool has_segments)
      : loader_(loader),
        named_data_(named_data),
        segments_(segments),
        segment_base_offset_(segment_base_offset),
        has_segments_(has_segments) {}

  Result<FreeableBuffer> get_data(std::string_view key) const override;
  size_t num_keys() const override;
  Result<std::string_view> key_at(size_t i) const override;

 private:
  const DataLoader* loader_ = nullptr;
  const void* named_data_ = nullptr;
  const void* segments_ = nullptr;
  size_t segment_base_offset_ = 0;
  bool has_segments_ = false;
};

// Loads segment `index` of the FlatBuffer `segments` vector through `loader`,
// bounds-checking it against the file. Shared by Program and PteDataMap.
Result<FreeableBuffer> load_program_segment(const DataLoader* loader, const void* segments,
                                            size_t segment_base_offset, bool has_segments,
                                            size_t index, const SegmentInfo& info);

}  // namespace ember::runtime
