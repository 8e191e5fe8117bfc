// describe_node(): which values a node reads and writes, and where it runs. One
// switch over the XNodeUnion; each case reads the node's table. Ids are checked
// against the value table by the caller (graph_reader.cc).
#include "backends/xnnpack/runtime/node_io.h"

#include <limits>

#include "runtime/core/diagnostics.h"

namespace ember::backends::xnnpack {
namespace {

using fb_xnnpack::XNodeUnion;
using runtime::Error;

void set_io(NodeDesc* d, std::initializer_list<uint32_t> in, std::initializer_list<uint32_t> out) {
  d->num_inputs = 0;
  for (uint32_t v : in) d->inputs[d->num_inputs++] = v;
  d->num_outputs = 0;
  for (uint32_t v : out) d->outputs[d->num_outputs++] = v;
}

template <typename T>
bool io_1x1(const T* t, NodeDesc* d) {
  if (t == nullptr) return false;
  set_io(d, {t->input_id()}, {t->output_id()});
  return true;
}

bool io_2x1(const fb_xnnpack::_XNNNode2x1* t, NodeDesc* d) {
  if (t == nullptr) return false;
  set_io(d, {t->input1_id(), t->input2_id()}, {t->output_id()});
  return true;
}

bool io_cat(const fb_xnnpack::_XNNCat* t, uint32_t n, NodeDesc* d) {
  if (t == nullptr) return false;
  const uint32_t all[5] = {t->input1_id(), t->input2_id(), t->input3_id(), t->input4_id(),
                           t->input5_id()};
  d->num_inputs = n;
  for (uint32_t i = 0; i < n; ++i) d->inputs[i] = all[i];
  d->outputs[0] = t->output_id();
  d->num_outputs = 1;
  return true;
}

bool io_conv(const fb_xnnpack::_XNNNodeConv* t, NodeDesc* d) {
  if (t == nullptr) return false;
  set_io(d, {t->input1_id(), t->filter_id(), t->bias_id()}, {t->output_id()});
  return true;
}

NodeRunner runner_of(XNodeUnion type) {
  switch (type) {
    case XNodeUnion::NONE:
      return NodeRunner::Unsupported;
    default:
      return NodeRunner::Subgraph;
  }
}

// Fills the ids; false when the union table is missing or the type is unknown.
bool fill_ids(const fb_xnnpack::XNode* n, NodeDesc* d) {
  switch (n->xnode_union_type()) {
    case XNodeUnion::XNNAdd: return io_2x1(n->xnode_union_as_XNNAdd(), d);
    case XNodeUnion::XNNDiv: return io_2x1(n->xnode_union_as_XNNDiv(), d);
    case XNodeUnion::XNNMinimum: return io_2x1(n->xnode_union_as_XNNMinimum(), d);
    case XNodeUnion::XNNMaximum: return io_2x1(n->xnode_union_as_XNNMaximum(), d);
    case XNodeUnion::XNNMultiply: return io_2x1(n->xnode_union_as_XNNMultiply(), d);
    case XNodeUnion::XNNSubtract: return io_2x1(n->xnode_union_as_XNNSubtract(), d);
    case XNodeUnion::XNNPReLU: return io_2x1(n->xnode_union_as_XNNPReLU(), d);
    case XNodeUnion::XNNBatchMatrixMultiply:
      return io_2x1(n->xnode_union_as_XNNBatchMatrixMultiply(), d);
    case XNodeUnion::XNNSoftmax: return io_1x1(n->xnode_union_as_XNNSoftmax(), d);
    case XNodeUnion::XNNSigmoid: return io_1x1(n->xnode_union_as_XNNSigmoid(), d);
    case XNodeUnion::XNNClamp: return io_1x1(n->xnode_union_as_XNNClamp(), d);
    case XNodeUnion::XNNFloor: return io_1x1(n->xnode_union_as_XNNFloor(), d);
    case XNodeUnion::XNNConvert: return io_1x1(n->xnode_union_as_XNNConvert(), d);
    case XNodeUnion::XNNGlobalAvgPooling2d:
      return io_1x1(n->xnode_union_as_XNNGlobalAvgPooling2d(), d);
    case XNodeUnion::XNNSquareRoot: return io_1x1(n->xnode_union_as_XNNSquareRoot(), d);
    case XNodeUnion::XNNCeiling: return io_1x1(n->xnode_union_as_XNNCeiling(), d);
    case XNodeUnion::XNNHardswish: return io_1x1(n->xnode_union_as_XNNHardswish(), d);
    case XNodeUnion::XNNNegate: return io_1x1(n->xnode_union_as_XNNNegate(), d);
    case XNodeUnion::XNNSquare: return io_1x1(n->xnode_union_as_XNNSquare(), d);
    case XNodeUnion::XNNAbs: return io_1x1(n->xnode_union_as_XNNAbs(), d);
    case XNodeUnion::XNNReciprocalSquareRoot:
      return io_1x1(n->xnode_union_as_XNNReciprocalSquareRoot(), d);
    case XNodeUnion::XNNLog: return io_1x1(n->xnode_union_as_XNNLog(), d);
    case XNodeUnion::XNNGelu: return io_1x1(n->xnode_union_as_XNNGelu(), d);
    case XNodeUnion::XNNTanh: return io_1x1(n->xnode_union_as_XNNTanh(), d);
    case XNodeUnion::XNNExp: return io_1x1(n->xnode_union_as_XNNExp(), d);
    case XNodeUnion::XNNSin: return io_1x1(n->xnode_union_as_XNNSin(), d);
    case XNodeUnion::XNNCos: return io_1x1(n->xnode_union_as_XNNCos(), d);
    case XNodeUnion::XNNCopy: return io_1x1(n->xnode_union_as_XNNCopy(), d);
    case XNodeUnion::XNNLeakyReLU: return io_1x1(n->xnode_union_as_XNNLeakyReLU(), d);
    case XNodeUnion::XNNELU: return io_1x1(n->xnode_union_as_XNNELU(), d);
    case XNodeUnion::XNNStaticTranspose: return io_1x1(n->xnode_union_as_XNNStaticTranspose(), d);
    case XNodeUnion::XNNStaticResizeBilinear2D:
      return io_1x1(n->xnode_union_as_XNNStaticResizeBilinear2D(), d);
    case XNodeUnion::XNNStaticConstantPad:
      return io_1x1(n->xnode_union_as_XNNStaticConstantPad(), d);
    case XNodeUnion::XNNStaticReshape: return io_1x1(n->xnode_union_as_XNNStaticReshape(), d);
    case XNodeUnion::XNNStaticSlice: return io_1x1(n->xnode_union_as_XNNStaticSlice(), d);
    case XNodeUnion::XNNAvgPooling2d: return io_1x1(n->xnode_union_as_XNNAvgPooling2d(), d);
    case XNodeUnion::XNNMaxPooling2d: return io_1x1(n->xnode_union_as_XNNMaxPooling2d(), d);
    case XNodeUnion::XNNConv2d: return io_conv(n->xnode_union_as_XNNConv2d(), d);
    case XNodeUnion::XNNDepthwiseConv2d: return io_conv(n->xnode_union_as_XNNDepthwiseConv2d(), d);
    case XNodeUnion::XNNConvTranspose2d: return io_conv(n->xnode_union_as_XNNConvTranspose2d(), d);
    case XNodeUnion::XNNConcatenate2: return io_cat(n->xnode_union_as_XNNConcatenate2(), 2, d);
    case XNodeUnion::XNNConcatenate3: return io_cat(n->xnode_union_as_XNNConcatenate3(), 3, d);
    case XNodeUnion::XNNConcatenate4: return io_cat(n->xnode_union_as_XNNConcatenate4(), 4, d);
    case XNodeUnion::XNNConcatenate5: return io_cat(n->xnode_union_as_XNNConcatenate5(), 5, d);
    case XNodeUnion::XNNFullyConnected: {
      const auto* t = n->xnode_union_as_XNNFullyConnected();
      if (t == nullptr) return false;
      set_io(d, {t->input1_id(), t->filter_id(), t->bias_id()}, {t->output_id()});
      return true;
    }
    case XNodeUnion::XNNArgMaxPooling2d: {
      const auto* t = n->xnode_union_as_XNNArgMaxPooling2d();
      if (t == nullptr) return false;
      set_io(d, {t->input_id()}, {t->output_value_id(), t->output_index_id()});
      return true;
    }
    case XNodeUnion::XNNScaledDotProductAttention: {
      const auto* t = n->xnode_union_as_XNNScaledDotProductAttention();
      if (t == nullptr) return false;
      set_io(d, {t->query_id(), t->key_id(), t->value_id(), t->scale_id(), t->mask_id()},
             {t->output_id()});
      return true;
    }
    default:
      return false;
  }
}

}  // namespace

// Inputs that may be kInvalidId (absent): bias of conv/FC. (SDPA's mask is in the schema's
// node like any input and XNNPACK requires it.)
bool input_is_optional(fb_xnnpack::XNodeUnion type, uint32_t slot) {
  switch (type) {
    case XNodeUnion::XNNFullyConnected:
    case XNodeUnion::XNNConv2d:
    case XNodeUnion::XNNDepthwiseConv2d:
    case XNodeUnion::XNNConvTranspose2d:
      return slot == 2;
    default:
      return false;
  }
}

runtime::Error describe_node(const fb_xnnpack::XNode* node, uint32_t index, NodeDesc* desc) {
  if (node == nullptr) {
    return runtime::fail(Error::InvalidProgram, "XNNPACK node %u: missing", index);
  }
  desc->node = node;
  desc->type = node->xnode_union_type();
  if (!fill_ids(node, desc)) {
    return runtime::fail(Error::InvalidProgram,
                         "XNNPACK node %u: unknown or empty node type %u (%s)", index,
                         static_cast<unsigned>(desc->type), node_type_name(desc->type));
  }
  desc->runner = runner_of(desc->type);
  const auto* mm = node->output_min_max();
  desc->output_min = mm ? mm->output_min() : -std::numeric_limits<float>::infinity();
  desc->output_max = mm ? mm->output_max() : std::numeric_limits<float>::infinity();
  return Error::Ok;
}

}  // namespace ember::backends::xnnpack
