// Decompositions of training-IR (non-core) ATen ops into core ATen, used by
// DecomposeTrainingOpsPass. Each rule takes the graph and one node and returns a Rewrite:
// the nodes that replace it (they define the original node's output values, so uses need
// no rewiring), or an alias (the node's output is the same tensor as one of its inputs,
// e.g. dropout in eval mode). Rules are grouped by family in decomp_*.cc and collected in
// one table keyed by the qualified op name ("aten::linear.default").
#pragma once

#include <map>
#include <string>
#include <vector>

#include "aot/ir/graph.h"

namespace ember::aot {

struct Rewrite {
  std::vector<Node> nodes;        // replacement, in execution order
  ValueId alias_of = kNoValue;    // when set: nodes is empty and out aliases this input
};

using DecompositionFn = Result<Rewrite> (*)(Graph& graph, const Node& node);
using DecompositionTable = std::map<std::string, DecompositionFn>;

// The built-in table (linear/matmul, conv/norm/pool/activation, shape ops, attention).
const DecompositionTable& training_ir_decompositions();

// Families (each adds its rules; used to build the table).
void add_linear_decompositions(DecompositionTable* table);
void add_conv_norm_decompositions(DecompositionTable* table);
void add_shape_decompositions(DecompositionTable* table);
void add_attention_decompositions(DecompositionTable* table);
void add_tensor_op_decompositions(DecompositionTable* table);
void add_einsum_decompositions(DecompositionTable* table);
void add_spectral_decompositions(DecompositionTable* table);  // hann_window, stft
void add_rnn_decompositions(DecompositionTable* table);  // gru.input, lstm.input (decomp_rnn.cc)

// --- helpers shared by the rule files ---

// The tensor value of the node's output `k` (kNoValue if it is not a tensor).
ValueId node_output(const Node& node, size_t k = 0);
// Adds nodes to `rw` that compute view(input, sizes of `out`) into `out`. Static sizes are
// literals; a symbolic size equal to an input dim becomes an aten::sym_size.int node; one
// remaining symbolic size becomes -1. NotSupported when that is not enough.
Error append_view(Graph& graph, ValueId input, ValueId out, const Node& origin, Rewrite* rw);
// A new contiguous tensor value shaped `sizes` with the dtype of `like`.
Result<ValueId> new_tensor_like(Graph& graph, ValueId like, const std::string& base,
                                  std::vector<SymInt> sizes);
// Adds nodes to `rw` computing out = x [..., K] @ w2 [K, N] (+ bias [N]): one mm (addmm)
// for a 2-D x, else view(mm(view(x, [rows, K]), w2), out's sizes), rows the product of x's
// leading dims (a bounded symbol when one is symbolic). NotSupported for rank-0 x or an
// unbounded leading dim.
Error append_nd_by_2d(Graph& graph, ValueId x, ValueId w2, ValueId bias, ValueId out,
                      const Node& origin, Rewrite* rw);
// The node's input called `name` or nullptr.
const Argument* input_arg(const Node& node, const char* name);
// The tensor value of the node's input `name`; InvalidProgram naming the node if absent.
Result<ValueId> tensor_input(const Node& node, const char* name);

}  // namespace ember::aot
