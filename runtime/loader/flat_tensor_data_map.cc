#include "runtime/loader/flat_tensor_data_map.h"

#include <cstring>

#include "runtime/core/diagnostics.h"
#include "runtime/loader/flat_tensor_generated.h"

namespace ember::runtime {
namespace {

namespace ft = ::ember_flat_tensor;

const ft::FlatTensor* as_root(const void* p) { return static_cast<const ft::FlatTensor*>(p); }

uint64_t read_u64(const uint8_t* p) {
  uint64_t v;
  std::memcpy(&v, p, 8);
  return v;
}

struct Layout {
  size_t flatbuffer_size = 0;
  size_t segment_base = 0;
};

// Reads the optional FH01 header: u32 length, u64 flatbuffer offset, u64
// flatbuffer size, u64 segment base, u64 segment data size.
Error read_layout(DataLoader* loader, size_t file_size, Layout* layout) {
  const size_t head = file_size < 64 ? file_size : 64;
  if (head < 8) return fail(Error::InvalidExternalData, ".ptd file of %zu bytes is too short", file_size);
  Result<FreeableBuffer> bytes = loader->load(0, head, SegmentInfo{});
  if (!bytes.ok()) return bytes.error();
  const uint8_t* b = static_cast<const uint8_t*>(bytes->data());
  layout->flatbuffer_size = file_size;
  if (head < 48 || std::memcmp(b + 8, "FH01", 4) != 0) return Error::Ok;
  uint32_t length;
  std::memcpy(&length, b + 12, 4);
  const uint64_t fb_offset = read_u64(b + 16), fb_size = read_u64(b + 24), base = read_u64(b + 32),
                 data_size = read_u64(b + 40);
  if (length < 40 || fb_offset > file_size || fb_size > file_size - fb_offset || base < fb_offset + fb_size ||
      base > file_size || data_size > file_size - base) {
    return fail(Error::InvalidExternalData, ".ptd header fields are out of range for a %zu-byte file", file_size);
  }
  layout->flatbuffer_size = size_t(fb_offset + fb_size);
  layout->segment_base = size_t(base);
  return Error::Ok;
}

}  // namespace

Result<FlatTensorDataMap> FlatTensorDataMap::load(DataLoader* loader) {
  Result<size_t> size = loader->size();
  if (!size.ok()) return size.error();
  Layout layout;
  EMBER_TRY(read_layout(loader, *size, &layout));
  FlatTensorDataMap map;
  map.loader_ = loader;
  map.file_size_ = *size;
  map.segment_base_ = layout.segment_base;
  Result<FreeableBuffer> data = loader->load(0, layout.flatbuffer_size, SegmentInfo{});
  if (!data.ok()) return data.error();
  map.data_ = std::move(*data);
  const uint8_t* bytes = static_cast<const uint8_t*>(map.data_.data());
  if (!ft::FlatTensorBufferHasIdentifier(bytes)) {
    return fail(Error::InvalidExternalData, ".ptd identifier is not '%s'", ft::FlatTensorIdentifier());
  }
  flatbuffers::Verifier verifier(bytes, map.data_.size());
  if (!ft::VerifyFlatTensorBuffer(verifier)) {
    return fail(Error::InvalidExternalData, "malformed .ptd file (FlatBuffer verification failed; "
                                            "the older Feb-2025 layout is not supported)");
  }
  map.root_ = ft::GetFlatTensor(bytes);
  return map;
}

size_t FlatTensorDataMap::num_keys() const {
  const auto* named = as_root(root_)->named_data();
  return named == nullptr ? 0 : named->size();
}

Result<std::string_view> FlatTensorDataMap::key_at(size_t i) const {
  if (i >= num_keys()) return fail(Error::InvalidArgument, ".ptd key index %zu out of range (%zu)", i, num_keys());
  const auto* key = as_root(root_)->named_data()->Get(flatbuffers::uoffset_t(i))->key();
  return key == nullptr ? std::string_view() : key->string_view();
}

Result<FreeableBuffer> FlatTensorDataMap::get_data(std::string_view key) const {
  const ft::FlatTensor* root = as_root(root_);
  for (size_t i = 0; i < num_keys(); ++i) {
    const ft::NamedData* entry = root->named_data()->Get(flatbuffers::uoffset_t(i));
    if (entry->key() == nullptr || entry->key()->string_view() != key) continue;
    const auto* segments = root->segments();
    if (segments == nullptr || entry->segment_index() >= segments->size()) {
      return fail(Error::InvalidExternalData, ".ptd key '%.*s': segment %u out of range", int(key.size()),
                  key.data(), entry->segment_index());
    }
    const ft::DataSegment* seg = segments->Get(entry->segment_index());
    if (seg->offset() > file_size_ || seg->size() > file_size_ ||
        !range_fits(segment_base_ + size_t(seg->offset()), size_t(seg->size()), file_size_)) {
      return fail(Error::InvalidExternalData, ".ptd key '%.*s': segment [%llu, +%llu) is past the end",
                  int(key.size()), key.data(), static_cast<unsigned long long>(seg->offset()),
                  static_cast<unsigned long long>(seg->size()));
    }
    SegmentInfo info{SegmentInfo::Type::External, entry->segment_index(), nullptr};
    return loader_->load(segment_base_ + size_t(seg->offset()), size_t(seg->size()), info);
  }
  return fail(Error::NotFound, "key '%.*s' not found in the .ptd data map", int(key.size()), key.data());
}

}  // namespace ember::runtime
