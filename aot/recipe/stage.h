// Stage: one step of an ExportSession. A stage takes the previous stage's artifact and
// keeps its own (an immutable snapshot), so every intermediate result can be fetched,
// printed, dumped or run after the session. Stages are stateless apart from that artifact
// and their wall time.
//
//   load -> (quantize) -> to_edge -> transform -> to_backend -> to_executorch -> emit
//
// Stage::run() times transform(), runs the graph verifier on the new graph (the verifier
// sits at every stage boundary) and keeps the artifact.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "aot/backend/partitioner.h"
#include "aot/emit/emit_program.h"
#include "aot/ir/graph.h"
#include "aot/ir/host_tensor.h"
#include "aot/planning/memory_planning_pass.h"
#include "aot/passes/pipeline.h"

namespace ember::aot {

// What a stage produces. Graph stages fill `graph`; emit fills `program` and `pte`. The
// reports are carried forward so the last artifact has them all.
struct StageArtifact {
  std::shared_ptr<const Graph> graph;
  std::shared_ptr<const EmitProgram> program;
  std::shared_ptr<const std::vector<uint8_t>> pte;
  MemoryPlanReport memory;        // filled by to_executorch
  DelegationReport delegation;    // filled by to_backend
};

// Runs a method of a .pte (ExportSession::run_method and the quantize stage's calibration
// call one). The recipe library links Ember's runtime anyway, for the emit stage's loader
// self-check (check_pte_loads, run_method.h), so this is not a way to keep the runtime out:
// it is the seam that says which runtime set-up runs the program. run_pte_method with the
// default registries is the usual one; lower passes it, tests pass fakes that echo.
using MethodRunner = std::function<Result<std::vector<HostTensor>>(
    const std::vector<uint8_t>& pte, const std::string& method, const std::vector<HostTensor>& inputs)>;

struct StageContext {
  PassInstrumentation instrumentation;  // per-pass verify/print/dump/timing hooks
};

class Stage {
 public:
  virtual ~Stage() = default;
  // "load", "to_edge", "transform", "to_backend", "to_executorch", "emit".
  virtual const char* name() const = 0;

  // Runs the stage on `previous` (empty for the first stage) and keeps the result.
  Error run(const StageArtifact& previous, const StageContext& context);

  bool done() const { return done_; }
  const StageArtifact& artifact() const { return artifact_; }
  double millis() const { return millis_; }
  // Extra files for ExportSession::dump besides the graph: (file suffix, contents).
  virtual std::vector<std::pair<std::string, std::string>> extra_dumps() const { return {}; }

 protected:
  virtual Result<StageArtifact> transform(const StageArtifact& previous,
                                            const StageContext& context) const = 0;

 private:
  StageArtifact artifact_;
  double millis_ = 0;
  bool done_ = false;
};

}  // namespace ember::aot
