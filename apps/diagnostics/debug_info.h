// The provenance sidecar (.ptdbg) that `lower --debug_out` writes, as executor_runner reads
// it for --debug: per method, per instruction the graph node name, ATen op, user source line
// ("model.py:42") and nn.Module path, and for a delegate call the backend and the nodes
// inside it. Format: docs/profiling.md. Read once before running; nothing here is on the
// execute path.
//
//   auto info = DebugInfo::load("model.ptdbg");                  // Result<DebugInfo>
//   const InstructionDebug* d = info->find("forward", 3);        // nullptr if unknown
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "runtime/core/result.h"

namespace ember::runtime {

struct NodeDebug {
  std::string node;    // "conv2d_3"
  std::string op;      // "aten::convolution"
  std::string source;  // "model.py:42", "" if the export recorded none
  std::string module;  // "features.3", may be ""
};

struct InstructionDebug {
  NodeDebug origin;
  std::string kind;                 // "kernel", "delegate", "move", "jump_false", "free"
  std::string backend;              // delegate calls
  std::vector<NodeDebug> delegated;  // delegate calls: nodes inside, in graph order
  std::vector<int32_t> outputs;      // value indices the instruction writes (unchecked)
  bool has_outputs = false;          // the sidecar listed "outputs" (older ones do not)
};

struct MethodDebug {
  std::string name;
  std::vector<InstructionDebug> instructions;  // by instruction index
};

class DebugInfo {
 public:
  // InvalidArgument / AccessFailed naming the file for an unreadable or malformed sidecar.
  static Result<DebugInfo> load(const std::string& path);
  // Same, from the JSON text (`what` names it in errors).
  static Result<DebugInfo> parse(const std::string& text, const std::string& what);

  const MethodDebug* method(const std::string& name) const;
  const std::vector<MethodDebug>& methods() const { return methods_; }
  const InstructionDebug* find(const std::string& method, size_t instruction) const;
  uint64_t pte_size() const { return pte_size_; }
  const std::string& pte_sha256() const { return pte_sha256_; }

 private:
  std::vector<MethodDebug> methods_;
  uint64_t pte_size_ = 0;
  std::string pte_sha256_;
};

// "conv2d_3  aten::convolution  model.py:42": node, op and source (module in brackets when
// there is no source), for tables and trace-event names.
std::string describe(const NodeDebug& n);

}  // namespace ember::runtime
