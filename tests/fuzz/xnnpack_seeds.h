// Seed payloads for the XnnpackBackend fuzzer: small valid delegate blobs (XH00 header +
// XN01 FlatBuffer + constant region, one legacy bare FlatBuffer) built with the runtime's
// test GraphBuilder and covering XNNPACK subgraph nodes, the delegate's own kernels, blob
// and named-data constants and per-channel quantization; the named data those seeds
// reference; and a scanner that cuts XnnpackBackend payloads out of .pte files (upstream
// programs), used for extra seeds when the shared corpus is present.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "runtime/core/named_data_map.h"

namespace ember::testing {

// (name, blob) pairs; every blob initialises (with xnnpack_seed_named_data()) and runs.
std::vector<std::pair<std::string, std::vector<uint8_t>>> xnnpack_seed_blobs();

// The named data every fuzz input sees: the keys the seeds reference.
const runtime::NamedDataMap& xnnpack_seed_named_data();

// Every XnnpackBackend payload inside `file` (found by the XH00 magic at byte 4 of a
// payload, cut to the regions its header declares), at most `max_size` bytes each.
std::vector<std::vector<uint8_t>> extract_xnnpack_blobs(const std::vector<uint8_t>& file,
                                                        size_t max_size);

}  // namespace ember::testing
