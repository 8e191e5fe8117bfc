// Seed blobs for the demo bytecode fuzzer: small valid programs covering every op class,
// constants, scratch chains and scalar broadcasting (assembled with the test assembler).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace ember::testing {

// (name, blob) pairs; every blob verifies.
std::vector<std::pair<std::string, std::vector<uint8_t>>> demo_seed_blobs();

}  // namespace ember::testing
