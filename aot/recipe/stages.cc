// The built-in stages (see stages.h).
#include "aot/recipe/stages.h"

#include "aot/backend/to_backend_pass.h"
#include "aot/emit/guard_method.h"
#include "aot/emit/pte_writer.h"
#include "aot/frontend/pt2_reader.h"
#include "aot/passes/custom_op_check_pass.h"
#include "aot/passes/dead_code_pass.h"
#include "aot/passes/decompose_training_ops_pass.h"
#include "aot/passes/fold_shape_masks_pass.h"
#include "aot/passes/functionalize_pass.h"
#include "aot/passes/op_set_check_pass.h"
#include "aot/passes/out_variant_pass.h"
#include "aot/passes/quantized_op_check_pass.h"
#include "aot/passes/remove_asserts_pass.h"
#include "aot/passes/scalar_to_tensor_pass.h"
#include "aot/planning/reinplace_buffer_writes_pass.h"
#include "aot/recipe/run_method.h"

namespace ember::aot {
namespace {

// Runs a shared (caller-owned) pass inside a PassPipeline.
class SharedPass final : public Pass {
 public:
  explicit SharedPass(std::shared_ptr<const Pass> p) : p_(std::move(p)) {}
  const char* name() const override { return p_->name(); }
  Error run(Graph& graph) const override { return p_->run(graph); }

 private:
  std::shared_ptr<const Pass> p_;
};

Result<Graph> input_graph(const StageArtifact& previous, const char* stage) {
  if (previous.graph == nullptr) {
    return fail(Error::InvalidState, std::string(stage) + " needs a graph from the previous stage");
  }
  return *previous.graph;  // copy: constants are shared, the rest is small
}

StageArtifact with_graph(const StageArtifact& previous, Graph graph) {
  StageArtifact out = previous;
  out.graph = std::make_shared<const Graph>(std::move(graph));
  return out;
}

}  // namespace

Result<StageArtifact> LoadStage::transform(const StageArtifact&, const StageContext&) const {
  Result<Graph> g = from_memory_ ? read_pt2_buffer(bytes_.data(), bytes_.size(), path_)
                                   : read_pt2_file(path_);
  if (!g.ok()) return g.error();
  StageArtifact out;
  out.graph = std::make_shared<const Graph>(std::move(g.get()));
  return out;
}

PassPipeline ToEdgeStage::pipeline(
    const std::vector<std::shared_ptr<const Pass>>& pre_decomposition) {
  PassPipeline p("to_edge");
  p.add(std::make_unique<RemoveAssertsPass>());       // drop _assert_* nodes
  p.add(std::make_unique<FunctionalizePass>());       // relu_ -> relu, rewire later reads
  for (const auto& pass : pre_decomposition) p.add(std::make_unique<SharedPass>(pass));
  p.add(std::make_unique<DecomposeTrainingOpsPass>());  // training IR -> core ATen
  p.add(std::make_unique<DeadCodePass>());            // unused nodes (dead sym ops)
  p.add(std::make_unique<FoldShapeMasksPass>());      // shape-only bool masks -> constants
  p.add(std::make_unique<QuantizedOpCheckPass>());    // q/dq ops we lower, consistent params
  p.add(std::make_unique<CustomOpCheckPass>());       // custom op calls fit --custom_ops
  p.add(std::make_unique<OpSetCheckPass>());          // everything left is core ATen or declared
  p.add(std::make_unique<ScalarToTensorPass>());      // wrapped numbers -> 0-dim tensors
  return p;
}

Result<StageArtifact> ToEdgeStage::transform(const StageArtifact& previous,
                                               const StageContext& context) const {
  EMBER_ASSIGN_OR_RETURN(Graph g, input_graph(previous, name()));
  if (custom_ops_ != nullptr) g.set_custom_op_schemas(custom_ops_);  // seen by every later stage
  EMBER_TRY(pipeline(pre_decomposition_).run(g, context.instrumentation));
  PassPipeline bounds("to_edge");  // after dead_code: only sizes still in use need a bound
  bounds.add(std::make_unique<BoundSymbolsPass>(max_dims_));
  EMBER_TRY(bounds.run(g, context.instrumentation));
  return with_graph(previous, std::move(g));
}

Result<StageArtifact> TransformStage::transform(const StageArtifact& previous,
                                                  const StageContext& context) const {
  EMBER_ASSIGN_OR_RETURN(Graph g, input_graph(previous, name()));
  PassPipeline p("transform");
  for (const auto& pass : passes_) p.add(std::make_unique<SharedPass>(pass));
  EMBER_TRY(p.run(g, context.instrumentation));
  return with_graph(previous, std::move(g));
}

Result<StageArtifact> ToBackendStage::transform(const StageArtifact& previous,
                                                  const StageContext& context) const {
  EMBER_ASSIGN_OR_RETURN(Graph g, input_graph(previous, name()));
  DelegationReport report;
  PassPipeline p("to_backend");
  for (const auto& part : partitioners_) p.add(std::make_unique<ToBackendPass>(part.get(), &report));
  EMBER_TRY(p.run(g, context.instrumentation));
  StageArtifact out = with_graph(previous, std::move(g));
  out.delegation = std::move(report);
  return out;
}

Result<StageArtifact> ToExecutorchStage::transform(const StageArtifact& previous,
                                                     const StageContext& context) const {
  EMBER_ASSIGN_OR_RETURN(Graph g, input_graph(previous, name()));
  MemoryPlanReport report;
  PassPipeline p("to_executorch");
  p.add(std::make_unique<OutVariantPass>());                      // add.Tensor -> add.out
  p.add(std::make_unique<ReinplaceBufferWritesPass>());           // cache writes in place
  p.add(std::make_unique<MemoryPlanningPass>(planner_, &report));  // (mem_id, offset) per tensor
  EMBER_TRY(p.run(g, context.instrumentation));
  StageArtifact out = with_graph(previous, std::move(g));
  out.memory = report;
  return out;
}

Result<StageArtifact> EmitStage::transform(const StageArtifact& previous, const StageContext&) const {
  if (previous.graph == nullptr) {
    return fail(Error::InvalidState, "emit needs a graph from the previous stage");
  }
  EMBER_ASSIGN_OR_RETURN(EmitProgram program, emit_graph(*previous.graph, options_));
  // The .pte also carries the input guards, as a constant method after the user's methods;
  // the artifact's `program` keeps the lowered method only.
  EMBER_ASSIGN_OR_RETURN(std::vector<InputGuardRecord> guards,
                         derive_method_guards(*previous.graph, program.methods[0]));
  if (!guards.empty()) {
    EMBER_ASSIGN_OR_RETURN(EmitMethod m, guard_method(options_.method_name, guards));
    program.methods.push_back(std::move(m));
  }
  auto bytes = std::make_shared<std::vector<uint8_t>>();
  const Error written = write_pte(program, bytes.get());
  if (!guards.empty()) program.methods.pop_back();
  EMBER_TRY(written);
  EMBER_TRY(check_pte_loads(*bytes));
  StageArtifact out = previous;
  out.program = std::make_shared<const EmitProgram>(std::move(program));
  out.pte = std::move(bytes);
  return out;
}

}  // namespace ember::aot
