// XNNPACK AoT test helpers (see xnnpack_test_util.h).
#include "tests/xnnpack_aot/xnnpack_test_util.h"

#include <gtest/gtest.h>

#include <vector>

#include "aot/emit/emit_graph.h"
#include "backends/xnnpack/aot/xnnpack_graph_builder.h"
#include "backends/xnnpack/aot/xnnpack_partitioner.h"
#include "backends/xnnpack/runtime/xnnpack_backend.h"

namespace ember::testing {

const runtime::BackendRegistry& xnnpack_registry() {
  static runtime::BackendRegistry* registry = [] {
    auto* r = new runtime::BackendRegistry();
    (void)backends::xnnpack::register_backend(*r);
    return r;
  }();
  return *registry;
}

aot::Result<aot::ExportSession> xnnpack_session(const std::string& pt2) {
  aot::RecipeRegistry recipes;
  EMBER_TRY(aot::register_builtin_recipes(&recipes));
  EMBER_TRY(backends::xnnpack::register_xnnpack_recipe(&recipes));
  return aot::ExportSession::create(recipes, "xnnpack", pt2, {}, {});
}

int for_each_xnnpack_graph(const aot::Graph& graph,
                           const std::function<void(const fb_xnnpack::XNNGraph&)>& f) {
  int count = 0;
  for (const aot::Node& n : graph.nodes()) {
    auto it = n.metadata.find(aot::kDelegateBlobKey);
    if (it == n.metadata.end()) continue;
    std::vector<uint8_t> blob(it->second.begin(), it->second.end());
    auto h = backends::xnnpack::parse_xnnpack_header(blob);
    if (!h.ok()) {
      ADD_FAILURE() << n.name << ": " << aot::format_error(h.error());
      return -1;
    }
    f(*fb_xnnpack::GetXNNGraph(blob.data() + h->flatbuffer_offset));
    ++count;
  }
  return count;
}

int for_each_xnnpack_graph(const std::string& pt2,
                           const std::function<void(const fb_xnnpack::XNNGraph&)>& f) {
  auto session = xnnpack_session(pt2);
  const aot::Error st = session.ok() ? session->run_until("to_backend") : session.error();
  if (st != runtime::Error::Ok) {
    ADD_FAILURE() << pt2 << ": " << aot::format_error(st);
    return -1;
  }
  return for_each_xnnpack_graph(*session->last_artifact().graph, f);
}

}  // namespace ember::testing
