// What a backend hands the program besides its blob: compile specs (key -> bytes, written
// into the program's BackendDelegate and given to the runtime backend's init) and named data
// (program-level bytes a blob refers to by key, e.g. XNNPACK weights keyed by their SHA-256).
// Plain structs shared by partitioners (aot/backend), the emit step and the .pte writer.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ember::aot {

struct CompileSpec {
  std::string key;
  std::vector<uint8_t> value;
};

struct NamedData {
  std::string key;
  std::vector<uint8_t> data;
  uint32_t alignment = 16;  // power of two; the segment is aligned to lcm(128, this)
};

}  // namespace ember::aot
