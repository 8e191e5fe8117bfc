// libFuzzer target: the whole lowering pipeline on arbitrary .pt2 input (pt2_entries.h: a
// raw zip, or entries re-packed with valid CRCs). Reads the program (zip, JSON, pickle,
// weights), lowers it with the portable recipe (every stage, the emitter and the lowering's
// self-check, which loads the result) and summarizes the graph as `inspect` does. Every
// input must end in a .pte or a named error. pt2_lower_fuzz_test drives the same entry
// point over the committed fixtures in `bazel test`; pt2_run_fuzz.sh runs libFuzzer.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#include "aot/recipe/export_session.h"
#include "aot/recipe/recipe.h"
#include "aot/recipe/stages.h"
#include "apps/inspect/pt2_summary.h"
#include "runtime/core/diagnostics.h"
#include "runtime/platform/log.h"
#include "tests/fuzz/pt2_entries.h"
#include "tests/fuzz/pt2_lower_fuzz.h"

namespace ember::fuzz {
namespace {

const aot::RecipeRegistry& recipes() {
  static const aot::RecipeRegistry* registry = [] {
    auto* r = new aot::RecipeRegistry();
    if (aot::register_builtin_recipes(r) != aot::Error::Ok) __builtin_trap();
    return r;
  }();
  return *registry;
}

}  // namespace

aot::Error lower_fuzz_input(const uint8_t* data, size_t size) {
  using namespace aot;
  std::vector<uint8_t> pt2 = pt2_bytes(data, size);
  // As `lower --max_dim 64`: a data-dependent size the export leaves unbounded (item_full)
  // gets a bound, so such inputs go through the whole pipeline instead of stopping at it.
  RecipeOptions options;
  options.max_dims.unbacked_default = 64;
  Result<Recipe> recipe = recipes().create("portable", options);
  if (!recipe.ok()) __builtin_trap();
  ExportSession session(ExportSession::stages_for(*recipe, options,
                                                  std::make_unique<LoadStage>(std::move(pt2), "fuzz.pt2")));
  EMBER_TRY(session.run_until("load"));
  const StageArtifact& aten = session.last_artifact();
  if (aten.graph != nullptr) {
    (void)summarize_pt2_text(*aten.graph, /*with_graph=*/true);
    (void)summarize_pt2_json(*aten.graph, /*with_graph=*/false);
  }
  return session.run();
}

bool is_lowering_bug(const char* message) {
  // A prefix, not a substring: text from the file (a node name, a JSON value) can contain
  // the words, but only the emit stage's self-check starts its message with them.
  static const char kPrefix[] = "stage 'emit': the emitted .pte fails Ember's own loader";
  return std::strncmp(message, kPrefix, sizeof(kPrefix) - 1) == 0;
}

}  // namespace ember::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  ember::runtime::set_min_log_level(ember::runtime::LogLevel::Fatal);
  ember::runtime::clear_error_message();
  if (ember::fuzz::lower_fuzz_input(data, size) != ember::aot::Error::Ok &&
      ember::fuzz::is_lowering_bug(ember::runtime::last_error_message())) {
    __builtin_trap();  // the verifier let through a graph the emitted .pte cannot load
  }
  return 0;
}
