// The bool half of core ATen's _safe_softmax, recognised so that the XNNPACK delegate can take
// it whole. torch >= 2.5 decomposes scaled-dot-product attention's softmax into
//
//   %s  = aten::_softmax.default(%x, dim, False)
//   %e  = aten::eq.Scalar(%x, -inf)              # bool
//   %ne = aten::logical_not.default(%e)          # bool
//   %a  = aten::any.dim(%ne, dim, True)          # bool, the row has a finite score
//   %na = aten::logical_not.default(%a)          # bool
//   %z  = aten::full_like.default(%s, 0)
//   %y  = aten::where.self(%na, %z, %s)          # rows of -inf only give 0, not NaN
//
// XNNPACK has no bool datatype, so these nodes are taken only as a whole (every intermediate
// with exactly one use) and lowered together from %x to %y with float operators
// (serialize_safe_softmax in serialize_ops_decomposed.cc).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "aot/ir/graph.h"

namespace ember::backends::xnnpack {

struct SafeSoftmax {
  size_t where = 0;            // the where.self node ending the pattern
  size_t softmax = 0;          // the _softmax node
  std::vector<size_t> bool_nodes;  // eq, logical_not, any, logical_not, full_like
  aot::ValueId input = aot::kNoValue;   // %x
  aot::ValueId softmax_out = aot::kNoValue;  // %s
  aot::ValueId output = aot::kNoValue;  // %y
  int64_t dim = 0;             // normalised
};

// Every complete pattern in `graph`.
std::vector<SafeSoftmax> find_safe_softmax(const aot::Graph& graph);

}  // namespace ember::backends::xnnpack
