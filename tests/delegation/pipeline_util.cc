// Delegation test glue (see pipeline_util.h).
#include "tests/delegation/pipeline_util.h"

#include "aot/ir/testing/graph_builder.h"
#include "aot/recipe/run_method.h"
#include "aot/recipe/stages.h"
#include "backends/demo/runtime/demo_backend.h"

namespace ember::testing {
namespace {

class GraphStage final : public aot::Stage {
 public:
  explicit GraphStage(aot::Graph g) : graph_(std::make_shared<const aot::Graph>(std::move(g))) {}
  const char* name() const override { return "load"; }

 protected:
  aot::Result<aot::StageArtifact> transform(const aot::StageArtifact&,
                                              const aot::StageContext&) const override {
    aot::StageArtifact out;
    out.graph = graph_;
    return out;
  }

 private:
  std::shared_ptr<const aot::Graph> graph_;
};

}  // namespace

aot::ExportSession session_for(aot::Graph graph,
                               std::vector<std::shared_ptr<const aot::Partitioner>> partitioners,
                               std::vector<std::shared_ptr<const aot::Pass>> passes) {
  aot::Recipe recipe;
  recipe.name = "test";
  recipe.partitioners = std::move(partitioners);
  aot::RecipeOptions options;
  options.user_passes = std::move(passes);
  return aot::ExportSession(
      aot::ExportSession::stages_for(recipe, options, std::make_unique<GraphStage>(std::move(graph))));
}

const runtime::BackendRegistry& demo_registry() {
  static runtime::BackendRegistry* registry = [] {
    auto* r = new runtime::BackendRegistry();
    (void)backends::demo::register_backend(*r);
    return r;
  }();
  return *registry;
}

aot::HostTensor f32(std::vector<int64_t> sizes, const std::vector<float>& values) {
  aot::HostTensor t;
  t.dtype = aot::ScalarType::Float;
  t.sizes = std::move(sizes);
  t.bytes = aot::testing::float_bytes(values);
  return t;
}

std::vector<float> floats(const aot::HostTensor& t) { return aot::testing::to_floats(t.bytes); }

aot::Result<std::vector<aot::HostTensor>> run_with_demo(const std::vector<uint8_t>& pte,
                                                          const std::string& method,
                                                          const std::vector<aot::HostTensor>& in) {
  aot::RunOptions options;
  options.backends = &demo_registry();
  return aot::run_pte_method(pte, method, in, options);
}

}  // namespace ember::testing
