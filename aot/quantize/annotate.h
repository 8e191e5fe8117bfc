// Annotation: which tensors of a float program get quantized and which share parameters,
// following torch 2.6's XNNPACKQuantizer with get_symmetric_quantization_config(
// is_per_channel=True) (torch/ao/quantization/quantizer/xnnpack_quantizer{,_utils}.py) and
// PT2E prepare's grouping (torch/ao/quantization/pt2e/prepare.py). docs/quantization.md lists
// the rules. The input graph is the training IR (export_for_training: conv2d, linear), with
// batch norms already folded into their convolutions (fold_conv_bn.h).
//
// Keys are PyTorch's "edge or node": a value as produced (its producer's output observer) or
// an edge (value, consuming node). Keys get a QSpec; SharedQuantizationSpec and the implicit
// sharing between a producer's output and its consumers' input edges are resolved with the
// same union-find as PyTorch, in the same order, so the observer groups are PyTorch's.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "aot/ir/graph.h"

namespace ember::aot {

enum class QSpecKind : uint8_t { None, Activation, Weight, Shared };

struct QuantKey {
  ValueId value = kNoValue;
  int consumer = -1;  // -1: the value as produced; else the consuming node's index
  bool operator==(const QuantKey& o) const { return value == o.value && consumer == o.consumer; }
  bool operator<(const QuantKey& o) const {
    return value != o.value ? value < o.value : consumer < o.consumer;
  }
};

struct QSpec {
  QSpecKind kind = QSpecKind::None;
  QuantKey shared;  // kind == Shared: the key whose observer this one uses
};

enum class ObserverKind : uint8_t {
  Histogram,         // activations: int8 [-128, 127] per-tensor affine
  PerChannelMinMax,  // weights: int8 [-127, 127] per-channel symmetric, axis 0
};

struct ObserverGroup {
  ObserverKind kind = ObserverKind::Histogram;
  // The values this observer sees, in execution order (graph inputs first, then node outputs).
  std::vector<ValueId> observed;
};

struct QuantPlan {
  std::vector<std::pair<QuantKey, QSpec>> specs;  // in PyTorch's insertion order
  std::vector<int> group_of;                      // per entry of specs; -1 when no observer
  std::vector<ObserverGroup> groups;
  // One line per annotated node, for the annotated-graph artifact.
  std::vector<std::string> annotations;
  // Group of a key, -1 if it has none.
  int group(const QuantKey& key) const;
};

// Annotates `graph` and groups the observers. Never fails on unknown ops (they stay float).
QuantPlan annotate_xnnpack_symmetric(const Graph& graph);

}  // namespace ember::aot
