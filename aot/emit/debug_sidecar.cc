// debug_sidecar (see debug_sidecar.h).
#include "aot/emit/debug_sidecar.h"

#include <nlohmann/json.hpp>

#include "aot/emit/sha256.h"

namespace ember::aot {
namespace {

using Json = nlohmann::ordered_json;

const char* kind_name(EmitInstructionKind k) {
  switch (k) {
    case EmitInstructionKind::KernelCall: return "kernel";
    case EmitInstructionKind::DelegateCall: return "delegate";
    case EmitInstructionKind::MoveCall: return "move";
    case EmitInstructionKind::JumpFalseCall: return "jump_false";
    case EmitInstructionKind::FreeCall: return "free";
  }
  return "unknown";
}

Json node_json(const NodeProvenance& p) {
  return Json{{"node", p.node}, {"op", p.op}, {"source", p.source}, {"module", p.module}};
}

}  // namespace

std::string debug_sidecar_json(const EmitProgram& program, const std::vector<uint8_t>& pte) {
  Json methods = Json::array();
  for (const EmitMethod& m : program.methods) {
    Json instructions = Json::array();
    for (size_t i = 0; i < m.instructions.size(); ++i) {
      const EmitInstructionDebug empty;
      const EmitInstructionDebug& d = i < m.debug.size() ? m.debug[i] : empty;
      Json in = node_json(d.origin);
      in["index"] = i;
      in["kind"] = kind_name(m.instructions[i].kind);
      if (m.instructions[i].kind == EmitInstructionKind::DelegateCall) {
        in["backend"] = d.backend;
        Json inside = Json::array();
        for (const NodeProvenance& p : d.delegated) inside.push_back(node_json(p));
        in["delegated"] = std::move(inside);
      }
      instructions.push_back(std::move(in));
    }
    methods.push_back(Json{{"name", m.name}, {"instructions", std::move(instructions)}});
  }
  Json doc{{"format", "ember.ptdbg"},
           {"version", kDebugSidecarVersion},
           {"pte", Json{{"size", pte.size()}, {"sha256", sha256_hex(pte)}}},
           {"methods", std::move(methods)}};
  return doc.dump(1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

}  // namespace ember::aot
