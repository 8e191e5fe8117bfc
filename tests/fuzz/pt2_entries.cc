// encode_entries / pt2_bytes (see pt2_entries.h).
#include "tests/fuzz/pt2_entries.h"

#include <cstring>
#include <string>

namespace ember::fuzz {
namespace {

constexpr char kMagic[4] = {'P', 'T', 'E', '1'};

void put(std::vector<uint8_t>* out, uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) out->push_back(static_cast<uint8_t>(v >> (8 * i)));
}

uint64_t get(const uint8_t* p, int bytes) {
  uint64_t v = 0;
  for (int i = 0; i < bytes; ++i) v |= uint64_t(p[i]) << (8 * i);
  return v;
}

}  // namespace

std::vector<uint8_t> encode_entries(const ZipEntries& entries) {
  std::vector<uint8_t> out(kMagic, kMagic + 4);
  for (const auto& [name, data] : entries) {
    put(&out, name.size(), 2);
    out.insert(out.end(), name.begin(), name.end());
    put(&out, data.size(), 4);
    out.insert(out.end(), data.begin(), data.end());
  }
  return out;
}

std::vector<uint8_t> pt2_bytes(const uint8_t* data, size_t size) {
  if (size < 4 || std::memcmp(data, kMagic, 4) != 0) return std::vector<uint8_t>(data, data + size);
  ZipEntries entries;
  size_t at = 4;
  while (at + 2 <= size) {
    const size_t name_size = get(data + at, 2);
    at += 2;
    if (name_size == 0 || name_size > size - at) break;
    std::string name(reinterpret_cast<const char*>(data + at), name_size);
    at += name_size;
    if (4 > size - at) break;
    const size_t data_size = get(data + at, 4);
    at += 4;
    if (data_size > size - at) break;
    entries.emplace_back(std::move(name), std::vector<uint8_t>(data + at, data + at + data_size));
    at += data_size;
  }
  return aot::testing::zip_all(entries);
}

}  // namespace ember::fuzz
