// The built-in stages (see stage.h for the contract and the order).
//
//   LoadStage          .pt2 file (or bytes) -> ATen graph (aot/frontend)
//   ToEdgeStage        remove_asserts, functionalize, decompose_training_ops, dead_code,
//                      quantized_op_check, custom_op_check, op_set_check, scalar_to_tensor,
//                      then bound_symbols (lower --max_dim, bound_symbols_pass.h)
//                      -> edge graph (core ATen and the declared custom operators only)
//   TransformStage     the user's passes over the edge graph
//   ToBackendStage     one ToBackendPass per partitioner (none for the portable recipe)
//   ToExecutorchStage  out_variant, memory_planning -> executorch graph (planned)
//   EmitStage          emit_graph + write_pte -> .pte bytes; the artifact's
//                      `program` holds the lowered method, the .pte adds its input-guard
//                      method `__ember_guards__<method>` when the inputs have dynamic-dim
//                      minimums or equalities (guard_method.h)
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "aot/passes/bound_symbols_pass.h"
#include "aot/backend/partitioner.h"
#include "aot/emit/emit_graph.h"
#include "aot/ir/op_schema.h"
#include "aot/recipe/stage.h"

namespace ember::aot {

class LoadStage final : public Stage {
 public:
  explicit LoadStage(std::string path) : path_(std::move(path)) {}
  // From bytes held in memory (copied); `name` names it in messages.
  LoadStage(std::vector<uint8_t> bytes, std::string name)
      : path_(std::move(name)), bytes_(std::move(bytes)), from_memory_(true) {}
  const char* name() const override { return "load"; }

 protected:
  Result<StageArtifact> transform(const StageArtifact&, const StageContext&) const override;

 private:
  std::string path_;
  std::vector<uint8_t> bytes_;
  bool from_memory_ = false;
};

class ToEdgeStage final : public Stage {
 public:
  // `custom_ops` (lower --custom_ops, may be null) are attached to the graph before the
  // passes run (Graph::custom_op_schemas), so this and every later stage know them.
  // `max_dims` (lower --max_dim) bound symbolic sizes; the stage ends with
  // BoundSymbolsPass, so every data-dependent size has an upper bound after it.
  // `pre_decomposition` (the recipe's) run after functionalize, before the decompositions.
  explicit ToEdgeStage(std::shared_ptr<const OpSchemaRegistry> custom_ops = nullptr,
                       SymbolBounds max_dims = {},
                       std::vector<std::shared_ptr<const Pass>> pre_decomposition = {})
      : custom_ops_(std::move(custom_ops)), max_dims_(std::move(max_dims)),
        pre_decomposition_(std::move(pre_decomposition)) {}
  const char* name() const override { return "to_edge"; }
  // The pass list of this stage (also used by docs and tests), with `pre_decomposition`
  // after functionalize.
  static PassPipeline pipeline(
      const std::vector<std::shared_ptr<const Pass>>& pre_decomposition = {});

 protected:
  Result<StageArtifact> transform(const StageArtifact&, const StageContext&) const override;

 private:
  std::shared_ptr<const OpSchemaRegistry> custom_ops_;
  SymbolBounds max_dims_;
  std::vector<std::shared_ptr<const Pass>> pre_decomposition_;
};

class TransformStage final : public Stage {
 public:
  explicit TransformStage(std::vector<std::shared_ptr<const Pass>> passes = {})
      : passes_(std::move(passes)) {}
  const char* name() const override { return "transform"; }

 protected:
  Result<StageArtifact> transform(const StageArtifact&, const StageContext&) const override;

 private:
  std::vector<std::shared_ptr<const Pass>> passes_;
};

class ToBackendStage final : public Stage {
 public:
  explicit ToBackendStage(std::vector<std::shared_ptr<const Partitioner>> partitioners = {})
      : partitioners_(std::move(partitioners)) {}
  const char* name() const override { return "to_backend"; }

 protected:
  Result<StageArtifact> transform(const StageArtifact&, const StageContext&) const override;

 private:
  std::vector<std::shared_ptr<const Partitioner>> partitioners_;
};

class ToExecutorchStage final : public Stage {
 public:
  explicit ToExecutorchStage(std::string planner = "greedy") : planner_(std::move(planner)) {}
  const char* name() const override { return "to_executorch"; }

 protected:
  Result<StageArtifact> transform(const StageArtifact&, const StageContext&) const override;

 private:
  std::string planner_;
};

class EmitStage final : public Stage {
 public:
  explicit EmitStage(EmitGraphOptions options = {}) : options_(std::move(options)) {}
  const char* name() const override { return "emit"; }

 protected:
  Result<StageArtifact> transform(const StageArtifact&, const StageContext&) const override;

 private:
  EmitGraphOptions options_;
};

}  // namespace ember::aot
