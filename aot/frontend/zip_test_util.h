// Test helpers: unpack a zip into (name, bytes) pairs and pack such pairs back into a
// stored zip in memory, so tests can build hand-made bad .pt2 files from real ones.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace ember::aot::testing {

using ZipEntries = std::vector<std::pair<std::string, std::vector<uint8_t>>>;

// All entries in order; empty on failure (ADD_FAILURE is reported).
ZipEntries unzip_all(const std::vector<uint8_t>& zip);
// A new zip with the entries, stored (no compression), or deflated when `deflate`.
std::vector<uint8_t> zip_all(const ZipEntries& entries, bool deflate = false);
// Entry lookup helpers.
std::vector<uint8_t>* find_entry(ZipEntries& entries, const std::string& suffix);
std::string as_text(const std::vector<uint8_t>& bytes);
std::vector<uint8_t> as_bytes(const std::string& text);

}  // namespace ember::aot::testing
