// ExportSession (see export_session.h).
#include "aot/recipe/export_session.h"


#include "aot/ir/printer.h"
#include "aot/passes/last_logits_pass.h"
#include "aot/recipe/stages.h"

namespace ember::aot {

ExportSession::ExportSession(std::vector<std::unique_ptr<Stage>> stages, SessionOptions options)
    : stages_(std::move(stages)), options_(std::move(options)) {}

std::vector<std::unique_ptr<Stage>> ExportSession::stages_for(const Recipe& recipe,
                                                              const RecipeOptions& options,
                                                              std::unique_ptr<Stage> load) {
  std::vector<std::unique_ptr<Stage>> stages;
  stages.push_back(std::move(load));                                        // .pt2 -> ATen graph
  if (recipe.pre_edge_stages) {
    for (auto& s : recipe.pre_edge_stages()) stages.push_back(std::move(s));  // e.g. quantize
  }
  stages.push_back(std::make_unique<ToEdgeStage>(options.custom_ops, options.max_dims,
                                                 recipe.pre_decomposition_passes));  // core ATen, checked
  std::vector<std::shared_ptr<const Pass>> passes;
  // First, so the tied-head and quantized-linear passes make a linear of the one row.
  if (options.last_logits) passes.push_back(std::make_shared<LastLogitsPass>());
  passes.insert(passes.end(), recipe.transform_passes.begin(), recipe.transform_passes.end());
  passes.insert(passes.end(), options.user_passes.begin(), options.user_passes.end());
  stages.push_back(std::make_unique<TransformStage>(std::move(passes)));  // recipe + user passes
  stages.push_back(std::make_unique<ToBackendStage>(recipe.partitioners));  // delegate calls
  stages.push_back(std::make_unique<ToExecutorchStage>(options.memory_planner));  // out + plan
  stages.push_back(std::make_unique<EmitStage>());                          // -> .pte bytes
  return stages;
}

Result<ExportSession> ExportSession::create(const RecipeRegistry& registry,
                                              const std::string& recipe_name,
                                              const std::string& pt2_path,
                                              const RecipeOptions& options,
                                              SessionOptions session_options) {
  EMBER_ASSIGN_OR_RETURN(Recipe recipe, registry.create(recipe_name, options));
  return ExportSession(stages_for(recipe, options, std::make_unique<LoadStage>(pt2_path)),
                       std::move(session_options));
}

Error ExportSession::run_until(const std::string& stage_name) {
  while (next_ < stages_.size()) {
    Stage& s = *stages_[next_];
    const StageArtifact& prev = next_ == 0 ? empty_ : stages_[next_ - 1]->artifact();
    EMBER_TRY(s.run(prev, options_.context));
    ++next_;
    if (options_.on_stage_done) options_.on_stage_done(s);
    if (s.name() == stage_name) break;
  }
  return Error::Ok;
}

Error ExportSession::run() { return run_until(""); }

const Stage* ExportSession::find_stage(const std::string& name) const {
  for (const auto& s : stages_) {
    if (name == s->name()) return s.get();
  }
  return nullptr;
}

const StageArtifact& ExportSession::last_artifact() const {
  return next_ == 0 ? empty_ : stages_[next_ - 1]->artifact();
}

Result<std::string> ExportSession::print(const std::string& stage_name) const {
  const Stage* s = find_stage(stage_name);
  if (s == nullptr) return not_found("no stage called '" + stage_name + "'");
  if (!s->done() || s->artifact().graph == nullptr) {
    return fail(Error::InvalidState, "stage '" + stage_name + "' has not produced a graph");
  }
  return print_graph(*s->artifact().graph);
}

Error ExportSession::dump(const std::string& dir) const {
  for (size_t i = 0; i < next_; ++i) {
    const Stage& s = *stages_[i];
    std::string prefix = (i < 10 ? "0" : "") + std::to_string(i) + "_";
    if (s.artifact().graph != nullptr && (i == 0 || s.artifact().graph != stages_[i - 1]->artifact().graph)) {
      EMBER_TRY(
          write_text_file(dir + "/" + prefix + s.name() + ".txt", print_graph(*s.artifact().graph)));
    }
    for (const auto& extra : s.extra_dumps()) {
      EMBER_TRY(write_text_file(dir + "/" + prefix + extra.first, extra.second));
    }
  }
  return Error::Ok;
}

const std::vector<uint8_t>* ExportSession::pte() const { return last_artifact().pte.get(); }

Result<std::vector<HostTensor>> ExportSession::run_method(const std::string& method,
                                                            const std::vector<HostTensor>& inputs) const {
  if (pte() == nullptr) return fail(Error::InvalidState, "run_method: the emit stage has not run");
  if (!options_.runner) {
    return fail(Error::InvalidState, "run_method: no MethodRunner in SessionOptions");
  }
  return options_.runner(*pte(), method, inputs);
}

std::string ExportSession::delegation_summary() const { return last_artifact().delegation.summary(); }

}  // namespace ember::aot
