// Shared by the tests of the XNNPACK delegate's AoT half: a backend registry holding
// XnnpackBackend, an ExportSession for the "xnnpack" recipe, and a walk over the XNNGraphs of
// the delegate blobs a to_backend graph holds.
#pragma once

#include <functional>
#include <string>

#include "aot/ir/graph.h"
#include "aot/recipe/export_session.h"
#include "backends/xnnpack/schema/xnnpack_graph_generated.h"
#include "runtime/backend/backend_registry.h"

namespace ember::testing {

// A process-wide registry with XnnpackBackend registered (for aot::RunOptions::backends).
const runtime::BackendRegistry& xnnpack_registry();

// A session (not yet run) lowering `pt2` with the "xnnpack" recipe.
aot::Result<aot::ExportSession> xnnpack_session(const std::string& pt2);

// Calls f with every XnnpackBackend blob's XNNGraph in `graph` (a to_backend artifact);
// returns how many there were, or -1 (with a test failure) when a blob does not parse.
int for_each_xnnpack_graph(const aot::Graph& graph,
                           const std::function<void(const fb_xnnpack::XNNGraph&)>& f);
// The same over the to_backend graph of `pt2` lowered with the "xnnpack" recipe; -1 (with a
// test failure) when lowering fails.
int for_each_xnnpack_graph(const std::string& pt2,
                           const std::function<void(const fb_xnnpack::XNNGraph&)>& f);

}  // namespace ember::testing
