#include "runtime/executor/pte_data_map.h"

#include "runtime/core/diagnostics.h"

namespace ember::runtime {

Result<FreeableBuffer> load_program_segment(const DataLoader* loader, const PteContainer& container,
                                            size_t index, const SegmentInfo& info) {
  Result<PteRange> range = container.segment(index);
  if (!range.ok()) return range.error();
  if (range->size == 0) return FreeableBuffer(nullptr, 0);
  Result<FreeableBuffer> data = loader->load(size_t(range->offset), size_t(range->size), info);
  if (!data.ok()) {
    return annotate(data.error(), "segment %zu (offset %llu, %llu bytes)", index,
                    static_cast<unsigned long long>(range->offset),
                    static_cast<unsigned long long>(range->size));
  }
  return data;
}

Result<FreeableBuffer> PteDataMap::get_data(std::string_view key) const {
  Result<size_t> index = container_.named_data_segment(key);
  if (!index.ok()) return index.error();
  SegmentInfo info{SegmentInfo::Type::External, *index, nullptr};
  Result<FreeableBuffer> data = load_program_segment(loader_, container_, *index, info);
  if (!data.ok()) return annotate(data.error(), "named data '%.*s'", int(key.size()), key.data());
  return data;
}

}  // namespace ember::runtime
