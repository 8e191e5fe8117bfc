// debug_sidecar (see debug_sidecar.h).
#include "aot/emit/debug_sidecar.h"

#include <algorithm>

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

// The value indices instruction `in` writes: a kernel call's last argument (its return slot:
// the out tensor, or a tensor list of the outs), a delegate call's last `num_outputs`.
Json output_values(const EmitMethod& m, const EmitInstruction& in, const EmitInstructionDebug& d) {
  Json out = Json::array();
  if (in.kind == EmitInstructionKind::KernelCall && !in.args.empty()) {
    const int32_t last = in.args.back();
    const bool list = last >= 0 && size_t(last) < m.values.size() &&
                      m.values[size_t(last)].kind == EmitValueKind::TensorList;
    if (list) {
      for (int64_t v : m.values[size_t(last)].indices) out.push_back(v);
    } else {
      out.push_back(last);
    }
  } else if (in.kind == EmitInstructionKind::DelegateCall) {
    const size_t n = std::min(in.args.size(), size_t(std::max(d.num_outputs, 0)));
    for (size_t k = in.args.size() - n; k < in.args.size(); ++k) out.push_back(in.args[k]);
  }
  return out;
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
      in["outputs"] = output_values(m, m.instructions[i], d);
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
