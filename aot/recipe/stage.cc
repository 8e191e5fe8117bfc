// Stage::run: time, verify at the boundary, keep the artifact.
#include "aot/recipe/stage.h"

#include <chrono>

#include "aot/ir/verifier.h"

namespace ember::aot {

Status Stage::run(const StageArtifact& previous, const StageContext& context) {
  auto start = std::chrono::steady_clock::now();
  StatusOr<StageArtifact> out = transform(previous, context);
  millis_ = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  if (!out.is_ok()) return out.take_status().annotate(std::string("stage '") + name() + "'");
  if (out->graph != nullptr && out->graph != previous.graph) {
    Status v = verify_graph(*out->graph);
    if (!v.is_ok()) return v.annotate(std::string("verifier after stage '") + name() + "'");
  }
  artifact_ = std::move(out).value();
  done_ = true;
  return Status::ok();
}

}  // namespace ember::aot
