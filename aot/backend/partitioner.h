// Partitioner: how a backend tells the AoT toolchain which nodes it can run, and turns a
// subgraph of them into the blob its runtime half loads.
//
// The to_backend stage (ToBackendPass, to_backend_pass.h) asks supports(node, graph) for
// every op node in execution order, groups each maximal run of consecutive supported nodes
// into one subgraph (a Graph whose inputs are the tensors the run reads from outside --
// constants among them keep their data, kind PARAMETER -- and whose outputs are the values
// used after the run), calls preprocess(subgraph) for the blob, and replaces the run with
// one delegate-call node (op ember::delegate_call.<backend_id>; emitted as a DelegateCall
// instruction: runtime inputs, then outputs). Every node's answer goes into a
// DelegationReport. Backends never depend on each other; a partitioner is stateless.
//
//   class MyPartitioner : public Partitioner {
//     const char* name() const override { return "demo"; }
//     const char* backend_id() const override { return "BackendWithCompilerDemo"; }
//     Support supports(const Node& n, const Graph&) const override {
//       if (n.op.name == "add") return Support::yes();
//       return Support::no("only add");
//     }
//     StatusOr<std::vector<uint8_t>> preprocess(const Graph& sub) const override { ... }
//   };
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "aot/ir/graph.h"

namespace ember::aot {

struct Support {
  bool supported = false;
  std::string reason;  // why not (or a note when supported)
  static Support yes(std::string note = "") { return {true, std::move(note)}; }
  static Support no(std::string why) { return {false, std::move(why)}; }
};

class Partitioner {
 public:
  virtual ~Partitioner() = default;
  // Short name used by recipes and reports ("xnnpack").
  virtual const char* name() const = 0;
  // The runtime backend id written into the .pte ("XnnpackBackend").
  virtual const char* backend_id() const = 0;
  // Whether the backend can run `node` (an op node of the edge graph `graph`).
  virtual Support supports(const Node& node, const Graph& graph) const = 0;
  // Compiles a subgraph of supported nodes into the backend's blob.
  virtual StatusOr<std::vector<uint8_t>> preprocess(const Graph& subgraph) const = 0;
  // The most nodes one delegate call may hold (0 = no limit).
  virtual size_t max_nodes_per_partition() const { return 0; }
};

// What happened to each node.
struct DelegationEntry {
  std::string node;     // node name
  std::string op;       // "aten::add.Tensor"
  std::string backend;  // partitioner name, "" when kept on the portable path
  bool delegated = false;
  std::string reason;   // the partitioner's reason
  int32_t partition = -1;  // index of the delegate call, -1 when not delegated
};

struct DelegationReport {
  std::vector<DelegationEntry> entries;
  int32_t num_partitions = 0;
  // "xnnpack: 12 of 15 nodes in 2 partitions; not delegated: aten::foo (reason) x3"
  std::string summary() const;
};

}  // namespace ember::aot
