// ExportSession: runs a recipe as a list of Stage objects and keeps every artifact.
//
//   RecipeRegistry recipes;
//   register_builtin_recipes(&recipes);
//   auto session = ExportSession::create(recipes, "portable", "model.pt2");
//   EMBER_TRY(session->run());
//   const std::vector<uint8_t>& pte = *session->pte();
//   std::string edge = session->print("to_edge");            // any stage's graph
//   auto outs = session->run_method("forward", inputs);      // via SessionOptions::runner
//   std::cout << session->delegation_summary();
//
// Each stage takes the previous stage's artifact (stage.h). run() goes through all stages
// not yet run, calling on_stage_done after each (the lower tool prints a progress line);
// run_until(name) stops after the named stage. dump(dir) writes every finished stage's
// graph as <NN>_<stage>.txt (and the .pte once emitted).
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "aot/recipe/recipe.h"
#include "aot/ir/host_tensor.h"
#include "aot/recipe/stage.h"

namespace ember::aot {

struct SessionOptions {
  StageContext context;
  std::function<void(const Stage&)> on_stage_done;  // progress hook
  MethodRunner runner;  // for run_method(); e.g. [](auto&... a) { return run_pte_method(a...); }
};

class ExportSession {
 public:
  ExportSession() = default;  // empty (a Result<ExportSession> holds one)
  ExportSession(std::vector<std::unique_ptr<Stage>> stages, SessionOptions options = {});
  ExportSession(ExportSession&&) = default;
  ExportSession& operator=(ExportSession&&) = default;

  // The stage list for `recipe` on the .pt2 at `pt2_path` (see recipe.h for the order).
  static std::vector<std::unique_ptr<Stage>> stages_for(const Recipe& recipe,
                                                        const RecipeOptions& options,
                                                        std::unique_ptr<Stage> load);
  static Result<ExportSession> create(const RecipeRegistry& registry, const std::string& recipe,
                                        const std::string& pt2_path,
                                        const RecipeOptions& options = {},
                                        SessionOptions session_options = {});

  Error run();
  Error run_until(const std::string& stage_name);

  size_t num_stages() const { return stages_.size(); }
  const Stage& stage(size_t i) const { return *stages_[i]; }
  // nullptr if no stage has that name.
  const Stage* find_stage(const std::string& name) const;
  // The artifact of the last finished stage (empty before run()).
  const StageArtifact& last_artifact() const;

  // The graph of a finished stage as text; NotFound / InvalidState otherwise.
  Result<std::string> print(const std::string& stage_name) const;
  Error dump(const std::string& dir) const;
  // The .pte bytes once emit has run, else nullptr.
  const std::vector<uint8_t>* pte() const;
  // Runs a method of the emitted program through SessionOptions::runner (Ember's runtime
  // with the portable kernels when it is run_pte_method). InvalidState without a runner.
  Result<std::vector<HostTensor>> run_method(const std::string& method,
                                               const std::vector<HostTensor>& inputs) const;
  std::string delegation_summary() const;
  const MemoryPlanReport& memory_report() const { return last_artifact().memory; }

 private:
  std::vector<std::unique_ptr<Stage>> stages_;
  SessionOptions options_;
  size_t next_ = 0;
  StageArtifact empty_;
};

}  // namespace ember::aot
