// Stage::run: time, verify at the boundary, keep the artifact.
#include "aot/recipe/stage.h"

#include <chrono>

#include "aot/ir/verifier.h"

namespace ember::aot {

Error Stage::run(const StageArtifact& previous, const StageContext& context) {
  auto start = std::chrono::steady_clock::now();
  Result<StageArtifact> out = transform(previous, context);
  millis_ = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  if (!out.ok()) return annotate(out.error(), std::string("stage '") + name() + "'");
  if (out->graph != nullptr && out->graph != previous.graph) {
    Error v = verify_graph(*out->graph);
    if (v != Error::Ok) return annotate(v, std::string("verifier after stage '") + name() + "'");
  }
  artifact_ = std::move(out.get());
  done_ = true;
  return Error::Ok;
}

}  // namespace ember::aot
