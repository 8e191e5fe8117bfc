// Partitioner: how a backend tells the AoT toolchain which nodes it can run, and turns a
// subgraph of them into the blob its runtime half loads.
//
// The to_backend stage (ToBackendPass, to_backend_pass.h) asks supports(node, graph) for
// every op node in execution order, groups each maximal run of consecutive supported nodes
// into one subgraph (a Graph whose inputs are the tensors the run reads from outside --
// constants among them keep their data, kind PARAMETER -- and whose outputs are the values
// used after the run), calls preprocess(subgraph, compile_specs()) for the blob, and
// replaces the run with one delegate-call node (op ember::delegate_call.<backend_id>;
// emitted as a DelegateCall instruction: runtime inputs, then outputs). Every node's
// answer goes into a DelegationReport. Backends never depend on each other; a partitioner
// is stateless apart from the compile specs it was constructed with.
//
// Compile specs (key -> bytes) configure preprocess() and are written into every
// BackendDelegate the partitioner creates, where the runtime backend's init sees them.
// preprocess() returns the blob and, optionally, named data: program-level blobs the
// payload refers to by key (upstream's XNNPACK exporter keeps weights there, keyed by the
// SHA-256 of their bytes). Equal keys from several delegate calls or methods are stored
// once; the same key with different bytes is an error.
//
//   class MyPartitioner : public Partitioner {
//     const char* name() const override { return "demo"; }
//     const char* backend_id() const override { return "BackendWithCompilerDemo"; }
//     Support supports(const Node& n, const Graph&) const override {
//       if (n.op.name == "add") return Support::yes();
//       return Support::no("only add");
//     }
//     Result<PreprocessResult> preprocess(const Graph& sub,
//                                           const std::vector<CompileSpec>& specs) const override;
//   };
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "aot/backend/backend_data.h"
#include "aot/ir/graph.h"

namespace ember::aot {

struct Support {
  bool supported = false;
  std::string reason;  // why not (or a note when supported)
  static Support yes(std::string note = "") { return {true, std::move(note)}; }
  static Support no(std::string why) { return {false, std::move(why)}; }
};

struct PreprocessResult {
  std::vector<uint8_t> processed;          // the blob the runtime backend's init receives
  std::vector<NamedData> named_data;   // program-level data the blob refers to by key
};

class Partitioner {
 public:
  Partitioner() = default;
  explicit Partitioner(std::vector<CompileSpec> compile_specs)
      : compile_specs_(std::move(compile_specs)) {}
  virtual ~Partitioner() = default;
  // Short name used by recipes and reports ("xnnpack").
  virtual const char* name() const = 0;
  // The runtime backend id written into the .pte ("XnnpackBackend").
  virtual const char* backend_id() const = 0;
  // Whether the backend can run `node` (an op node of the edge graph `graph`).
  virtual Support supports(const Node& node, const Graph& graph) const = 0;
  // Compiles a subgraph of supported nodes into the backend's blob (and named data).
  virtual Result<PreprocessResult> preprocess(
      const Graph& subgraph, const std::vector<CompileSpec>& compile_specs) const = 0;
  // The most nodes one delegate call may hold (0 = no limit).
  virtual size_t max_nodes_per_partition() const { return 0; }
  // The specs the to_backend stage passes to preprocess() and writes into the program.
  const std::vector<CompileSpec>& compile_specs() const { return compile_specs_; }

 private:
  std::vector<CompileSpec> compile_specs_;
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
