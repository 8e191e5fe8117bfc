// SerializeContext: state of turning one delegated subgraph (aot::Graph of supported nodes)
// into an XNNGraph, and the layout bookkeeping (README.md, "Layout").
//
// Every logical value may be held in one or more physical layouts. A layout is a dim
// order (outermost first): physical dims[i] = logical sizes[layout[i]]; {0,1,..} is the
// logical (contiguous) order and {0,2,3,1} is NHWC for a 4-D NCHW tensor. get(v, L)
// returns the XNNPACK value holding v in layout L, inserting a static transpose (or a
// reshape when only size-1 dims move) from the first layout v was defined in. Constants
// are permuted at export time instead. Ops that need NHWC (conv, pooling) ask for it;
// elementwise ops run in whatever layout their input has; permute only relabels the
// layout; reshape-like ops ask for the logical order. So transposes appear only where a
// layout-sensitive consumer meets a value held in another layout -- at the delegate
// boundary for a CNN, never between two NHWC ops.
#pragma once

#include <limits>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "aot/ir/graph.h"
#include "aot/ir/graph_util.h"
#include "aot/quantize/qdq.h"
#include "backends/xnnpack/aot/dynamic_quant.h"
#include "backends/xnnpack/aot/safe_softmax.h"
#include "backends/xnnpack/aot/xnnpack_graph_builder.h"

namespace ember::backends::xnnpack {

using Layout = std::vector<uint8_t>;

Layout identity_layout(size_t rank);
Layout nhwc_layout();  // {0, 2, 3, 1}
// Physical dims of logical `sizes` held in `layout`.
std::vector<uint32_t> permute_dims(const std::vector<int64_t>& sizes, const Layout& layout);
// Float data of logical `sizes` (row-major) rearranged into `layout`.
std::vector<float> permute_floats(const std::vector<float>& data, const std::vector<int64_t>& sizes,
                                  const Layout& layout);

class SerializeContext {
 public:
  explicit SerializeContext(const aot::Graph& graph);

  const aot::Graph& graph() const { return graph_; }
  XnnpackGraphBuilder& builder() { return builder_; }

  // Logical sizes of a tensor value: static sizes, and the upper bound of a dynamic dim (the
  // runtime half re-plans for the actual input shapes, docs/dynamic_shapes.md).
  std::vector<int64_t> sizes(aot::ValueId v) const;
  size_t num_dynamic_dims(aot::ValueId v) const;
  // A static reshape's new_shape for v in `layout`: sizes, with 0 (inferred) for the dynamic
  // dim (xnnpack_support allows at most one in a reshape's output).
  std::vector<uint32_t> reshape_dims(aot::ValueId v, const Layout& layout) const;
  size_t rank(aot::ValueId v) const { return graph_.value(v).tensor.rank(); }

  bool is_constant(aot::ValueId v) const;
  // The logical float data of a constant (parameter or folded), row-major.
  const std::vector<float>& constant(aot::ValueId v) const;
  // Records a folded constant (e.g. permute of a parameter).
  void set_constant(aot::ValueId v, std::vector<float> data) { folded_[v] = std::move(data); }

  // The first layout v is held in (constants: the logical order).
  Layout layout_of(aot::ValueId v) const;
  // The XNNPACK value holding v in `layout`.
  aot::Result<uint32_t> get(aot::ValueId v, const Layout& layout);
  // A new internal value for v in `layout`, recorded as v's definition.
  uint32_t define(aot::ValueId v, const Layout& layout);
  // v is the same data as an existing XNNPACK value `id` held in `layout`.
  void bind(aot::ValueId v, uint32_t id, const Layout& layout);

  // Uses of v inside the subgraph, and whether the subgraph returns it.
  size_t num_uses(aot::ValueId v) const { return uses_.node_users[static_cast<size_t>(v)].size(); }
  bool is_output(aot::ValueId v) const { return uses_.is_graph_output[static_cast<size_t>(v)]; }
  // Builder node that computed v (its first layout) with nothing fused yet, or -1.
  int producer(aot::ValueId v) const;
  void set_producer(aot::ValueId v, size_t node) { producers_[v] = static_cast<int>(node); }

  // Filter and bias constants of the convolution that produced v (batch-norm folding).
  std::map<aot::ValueId, std::pair<uint32_t, uint32_t>> conv_weights;

  // Quantized programs (README, "Quantized programs"). A dequantize node's float output
  // is not computed where the node stands: it is recorded here as the dequantized form of
  // its int8 input -- an activation, which get() converts to fp32 (XNNConvert) the first
  // time a float consumer asks for it, or a constant weight, which constant() dequantizes
  // at export time as PyTorch would. Quantized operators read the int8 side directly.
  struct Dequantized {
    aot::ValueId source = aot::kNoValue;  // the int8 value
    aot::QuantParams params;
    bool constant = false;
  };
  void add_dequantized(aot::ValueId f32, Dequantized d);
  // nullptr when v is not the output of a dequantize node.
  const Dequantized* dequantized(aot::ValueId v) const;
  // The quantized-activation type of an int8 value (XNNPACK qint8 per tensor).
  static ValueType activation_type(const aot::QuantParams& p);

  // Dynamic quantization (the xnnpack-dq-* recipes): every fully connected with a constant
  // fp32 weight gets that weight quantized by `scheme` and its input converted to qdint8 per
  // row at run time; its output stays fp32. Off by default.
  struct DynamicWeights {
    bool enabled = false;
    WeightScheme scheme = WeightScheme::Int8PerChannel;
    uint32_t block_size = 0;
  };
  void set_dynamic_weights(DynamicWeights d) { dynamic_weights_ = d; }
  const DynamicWeights& dynamic_weights() const { return dynamic_weights_; }

  // Lowers every node, then binds the external inputs/outputs.
  aot::Error run();

 private:
  aot::Error bind_inputs();
  bool is_tensor_input(aot::ValueId v) const;
  aot::Error bind_outputs();
  // fp32 copy of a dequantized activation in `layout` (XNNConvert of its int8 source).
  aot::Result<uint32_t> convert_dequantized(aot::ValueId v, const Dequantized& d, const Layout& layout);

  const aot::Graph& graph_;
  XnnpackGraphBuilder builder_;
  aot::ValueUses uses_;
  std::map<aot::ValueId, std::vector<std::pair<Layout, uint32_t>>> held_;
  std::map<aot::ValueId, std::vector<float>> folded_;
  std::map<aot::ValueId, int> producers_;
  std::map<aot::ValueId, Dequantized> dequantized_;
  mutable std::map<aot::ValueId, std::vector<float>> param_cache_;
  DynamicWeights dynamic_weights_;
};

// Lowers one node (dispatch over the op tables of serialize_ops_*.cc).
aot::Error serialize_node(SerializeContext& ctx, const aot::Node& node);

// A convolution, linear (addmm), add, relu/hardtanh or max pooling lowered to XNNPACK's int8
// operator (serialize_quant.cc): its inputs are dequantized int8 values and its output,
// through relu/hardtanh, feeds one quantize node, whose int8 output the operator writes
// directly (clamps and max pooling only when that node keeps the input's parameters).
struct QuantizedOp {
  aot::ValueId output = aot::kNoValue;  // the quantize node's int8 output
  aot::QuantParams output_params;
  float clamp_lo = -std::numeric_limits<float>::infinity();  // folded relu / hardtanh
  float clamp_hi = std::numeric_limits<float>::infinity();
  aot::ValueId weight = aot::kNoValue;  // linear: the dequantized [N, K] weight
  bool fold_clamp = false;  // clamp: fold into the int8 operator that wrote its input
};
// By node index: the quantized lowerings, and the relu/hardtanh/quantize nodes they cover.
struct QuantPlan {
  std::map<size_t, QuantizedOp> ops;
  std::set<size_t> absorbed;
};
QuantPlan plan_quantized_ops(const aot::Graph& graph);
aot::Error serialize_quantized_op(SerializeContext& ctx, const aot::Node& node,
                                  const QuantizedOp& op);

// Op families; each returns NotFound when it does not know the op.
aot::Error serialize_qdq_op(SerializeContext& ctx, const aot::Node& node);
aot::Error serialize_nn_op(SerializeContext& ctx, const aot::Node& node);
aot::Error serialize_elementwise_op(SerializeContext& ctx, const aot::Node& node);
aot::Error serialize_layout_op(SerializeContext& ctx, const aot::Node& node);
// Ops built from several XNNPACK operators (serialize_ops_decomposed.cc).
aot::Error serialize_decomposed_op(SerializeContext& ctx, const aot::Node& node);
// A whole _safe_softmax pattern (safe_softmax.h), from its input to the where's output.
aot::Error serialize_safe_softmax(SerializeContext& ctx, const SafeSoftmax& pattern);

// Helpers shared by the op files.
// An XNNConv2d node for `n` (aten::convolution) with filter sizes `ws` (OIHW); ids unset.
fb_xnnpack::_XNNNodeConvT* conv_node_params(const aot::Node& n, const std::vector<int64_t>& ws);
// An XNNMaxPooling2d / XNNAvgPooling2d node for pooling node `n`; ids unset.
fb_xnnpack::_XNNPooling2DT* pool_node_params(const SerializeContext& ctx, const aot::Node& n);
aot::ValueId input_tensor(const aot::Node& node, const char* name);
aot::ValueId output_tensor(const aot::Node& node, size_t k = 0);
// A scalar/list input, or the default when absent.
double input_double(const aot::Node& node, const char* name, double dflt);
std::vector<int64_t> input_ints(const aot::Node& node, const char* name, std::vector<int64_t> dflt);
bool input_bool(const aot::Node& node, const char* name, bool dflt);
// The lengths along `dim` of split.Tensor's / split_with_sizes' outputs for a dim of size
// `dim_size` (split.Tensor: split_size each, the last one shorter).
std::vector<int64_t> split_lengths(const aot::Node& node, int64_t dim_size);
// The image input of an upsample node (`input` of .vec, `self` of .default).
aot::ValueId upsample_input(const aot::Node& node);

}  // namespace ember::backends::xnnpack
