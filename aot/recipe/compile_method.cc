// compile_method and delegated_module_pte (see compile_method.h): the last two stages of
// every ExportSession, run on a graph the caller built.
#include "aot/recipe/compile_method.h"

#include <memory>

#include "aot/recipe/stages.h"

namespace ember::aot {
namespace {

// ToExecutorchStage then EmitStage on `graph`; the emit stage's artifact.
Result<StageArtifact> executorch_and_emit(Graph graph, const std::string& name,
                                          const std::string& planner) {
  StageArtifact input;
  input.graph = std::make_shared<const Graph>(std::move(graph));
  ToExecutorchStage to_executorch(planner);
  EmitGraphOptions options;
  options.method_name = name;
  EmitStage emit(options);
  const StageContext context;
  EMBER_TRY_CONTEXT(to_executorch.run(input, context), "method '" + name + "'");
  EMBER_TRY_CONTEXT(emit.run(to_executorch.artifact(), context), "method '" + name + "'");
  return emit.artifact();
}

}  // namespace

Result<EmitProgram> compile_method(Graph graph, const std::string& name,
                                   const std::string& planner) {
  EMBER_ASSIGN_OR_RETURN(StageArtifact art, executorch_and_emit(std::move(graph), name, planner));
  if (art.program == nullptr || art.program->methods.size() != 1) {
    return fail(Error::Internal, "method '" + name + "': the emit stage produced no single method");
  }
  return *art.program;
}

Result<std::vector<uint8_t>> delegated_module_pte(const DelegatedModule& module,
                                                  const std::string& method) {
  EMBER_ASSIGN_OR_RETURN(Graph g, module.standalone_graph());
  EMBER_ASSIGN_OR_RETURN(StageArtifact art, executorch_and_emit(std::move(g), method, "greedy"));
  return *art.pte;
}

}  // namespace ember::aot
