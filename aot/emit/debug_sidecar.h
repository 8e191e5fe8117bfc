// The provenance sidecar (.ptdbg) that `lower --debug_out FILE` writes next to a .pte: for
// every method, every instruction's node name, ATen op and user source line, and for a
// delegate call the nodes inside the delegate. The .pte itself is unchanged. Format:
// docs/profiling.md ("The .ptdbg sidecar"); executor_runner --debug reads it
// (apps/diagnostics/debug_info.h).
//
//   std::string json = debug_sidecar_json(*session->last_artifact().program, *session->pte());
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "aot/emit/emit_program.h"

namespace ember::aot {

inline constexpr int kDebugSidecarVersion = 1;

// The sidecar as JSON text (one object, a trailing newline). `pte` are the bytes written for
// `program` (their size and SHA-256 tie the sidecar to them). A method whose emitter left no
// provenance gets instructions with empty names.
std::string debug_sidecar_json(const EmitProgram& program, const std::vector<uint8_t>& pte);

}  // namespace ember::aot
