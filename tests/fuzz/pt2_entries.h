// The pt2 fuzz targets' input format. A .pt2 is a zip whose CRCs Ember checks, so raw byte
// mutations mostly stop at "CRC mismatch". The targets therefore read either a plain .pt2
// (the zip layer itself is fuzzed), or its entries in a small container that the target
// re-packs into a zip with valid CRCs (the JSON, pickle and weight decoders are fuzzed):
//
//   "PTE1" then, per entry: u16 name length, name, u32 data length, data (little-endian).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "aot/frontend/zip_test_util.h"

namespace ember::fuzz {

using aot::testing::ZipEntries;

std::vector<uint8_t> encode_entries(const ZipEntries& entries);

// The .pt2 bytes an input stands for: the zip re-packed from the entries when the input
// starts with "PTE1" (malformed containers keep the entries read so far), else the input.
std::vector<uint8_t> pt2_bytes(const uint8_t* data, size_t size);

}  // namespace ember::fuzz
