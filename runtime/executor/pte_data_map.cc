#include "runtime/executor/pte_data_map.h"

#include "runtime/core/diagnostics.h"
#include "runtime/executor/flatbuffer_access.h"

namespace ember::runtime {

using internal::fb::DataSegment;
using internal::fb::NamedData;
using SegmentVector = flatbuffers::Vector<flatbuffers::Offset<DataSegment>>;
using NamedDataVector = flatbuffers::Vector<flatbuffers::Offset<NamedData>>;

Result<FreeableBuffer> load_program_segment(const DataLoader* loader, const void* segments,
                                            size_t segment_base_offset, bool has_segments,
                                            size_t index, const SegmentInfo& info) {
  const auto* segs = static_cast<const SegmentVector*>(segments);
  if (index >= internal::size_of(segs)) {
    return fail(Error::InvalidProgram, "segment index %zu out of range (program has %zu)", index,
                internal::size_of(segs));
  }
  const DataSegment* seg = segs->Get(static_cast<flatbuffers::uoffset_t>(index));
  const uint64_t offset = seg->offset();
  const uint64_t size = seg->size();
  if (size == 0) return FreeableBuffer(nullptr, 0);
  if (!has_segments) {
    return fail(Error::InvalidProgram,
                "segment %zu has %llu bytes but the file has no extended header", index,
                static_cast<unsigned long long>(size));
  }
  if (offset > SIZE_MAX - segment_base_offset) {
    return fail(Error::InvalidProgram, "segment %zu offset %llu overflows", index,
                static_cast<unsigned long long>(offset));
  }
  Result<FreeableBuffer> data =
      loader->load(segment_base_offset + size_t(offset), size_t(size), info);
  if (!data.ok()) {
    return annotate(data.error(), "segment %zu (offset %llu, %llu bytes)", index,
                    static_cast<unsigned long long>(offset), static_cast<unsigned long long>(size));
  }
  return data;
}

Result<FreeableBuffer> PteDataMap::get_data(std::string_view key) const {
  const auto* named = static_cast<const NamedDataVector*>(named_data_);
  for (size_t i = 0; i < internal::size_of(named); ++i) {
    const NamedData* entry = named->Get(static_cast<flatbuffers::uoffset_t>(i));
    if (entry->key() == nullptr || entry->key()->string_view() != key) continue;
    SegmentInfo info{SegmentInfo::Type::External, entry->segment_index(), nullptr};
    Result<FreeableBuffer> data = load_program_segment(
        loader_, segments_, segment_base_offset_, has_segments_, entry->segment_index(), info);
    if (!data.ok()) {
      return annotate(data.error(), "named data '%.*s'", int(key.size()), key.data());
    }
    return data;
  }
  return fail(Error::NotFound, "named data key '%.*s' not found in the program", int(key.size()),
              key.data());
}

size_t PteDataMap::num_keys() const {
  return internal::size_of(static_cast<const NamedDataVector*>(named_data_));
}

Result<std::string_view> PteDataMap::key_at(size_t i) const {
  const auto* named = static_cast<const NamedDataVector*>(named_data_);
  if (i >= internal::size_of(named)) {
    return fail(Error::InvalidArgument, "named data index %zu out of range (%zu keys)", i,
                internal::size_of(named));
  }
  const auto* key = named->Get(static_cast<flatbuffers::uoffset_t>(i))->key();
  return key == nullptr ? std::string_view() : key->string_view();
}

}  // namespace ember::runtime
