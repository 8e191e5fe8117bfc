// absorb_linear_views: decompose_linear writes a linear of an N-D input as
// view(x, [rows, K]) -> mm -> view(y2, [x's leading dims, N]); the passes that turn that mm back
// into a linear (TiedLinearPass, QuantizeLinearPass), whose kernels take any rank, let it read x
// and write the final view's tensor itself. Each view was a copy: for a decoder's head, the
// second [n, vocab] logits tensor (12.6 MB at 64 tokens on SmolLM2-135M; 25 MB at the bounds).
//
// Before: %x2 = aten::view.default(self=%x, size=[-1, K]);  %y2 = <linear>(input=%x2, ...)
//         %y = aten::view.default(self=%y2, size=[1, -1, N])
// After:  %y = <linear>(input=%x, ...)
#pragma once

#include <vector>

#include "aot/ir/graph.h"
#include "aot/ir/graph_util.h"

namespace ember::aot {

// Rewrites the linear at node `i` (its input argument named "input", one output) as above when
// x2 is a view read only by it, its output is read only by one view back to x's leading dims, and
// neither is a graph output; marks the two views in *drop. `producer` and `uses` describe the
// graph before any rewrite of the calling pass (node indices stay valid: nothing is removed yet).
void absorb_linear_views(Graph& graph, const std::vector<int>& producer, const ValueUses& uses,
                         size_t i, std::vector<bool>* drop);

}  // namespace ember::aot
