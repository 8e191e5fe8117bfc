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

// Where a node came from (provenance): the FX node name, the ATen op ("aten::convolution"),
// the user's "file:line" from the .pt2 stack trace and the innermost nn.Module path from
// nn_module_stack ("features.3"). Empty strings when the export recorded nothing. Never
// written into the .pte: lower --debug_out writes it as a sidecar (aot/emit/debug_sidecar.h).
struct NodeProvenance {
  std::string node;
  std::string op;
  std::string source;
  std::string module;
};

}  // namespace ember::aot
