// LastLogitsPass (see last_logits_pass.h).
#include "aot/passes/last_logits_pass.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "aot/ir/graph_rewrite.h"
#include "aot/ir/graph_util.h"

namespace ember::aot {
namespace {

bool is_view(const Node& n) {
  return (is_aten_op(n, "view", "default") || is_aten_op(n, "view_copy", "default") ||
          is_aten_op(n, "_unsafe_view", "default")) &&
         n.outputs.size() == 1;
}

bool same_dim(const SymInt& a, const SymInt& b) {
  return a.is_static == b.is_static && (a.is_static ? a.value == b.value : a.expr == b.expr);
}

void set_arg(Node& n, const char* name, Argument arg) {
  for (NamedArgument& a : n.inputs) {
    if (a.name == name) a.arg = std::move(arg);
  }
}

// The output head that makes user output `y`: the node indices of the input view, the
// product (mm / addmm / linear) and the output view (-1 for the views of a linear head), and
// the head's N-D input x. found = false when `y` is not made by a head over [B, T, K].
struct Head {
  bool found = false;
  int in_view = -1, product = -1, out_view = -1;
  ValueId x = kNoValue;
};

Head find_head(const Graph& graph, const std::vector<int>& producer, const ValueUses& uses,
               ValueId y) {
  Head h;
  const int p = producer[size_t(y)];
  if (p < 0) return h;
  const Node& last = graph.nodes()[size_t(p)];
  if (is_aten_op(last, "linear", "default") && last.outputs.size() == 1) {
    h.product = p;
    h.x = optional_tensor_input(last, "input");
  } else if (is_view(last)) {
    const ValueId y2 = optional_tensor_input(last, "self");
    if (y2 == kNoValue || producer[size_t(y2)] < 0 || uses.node_users[size_t(y2)].size() != 1 ||
        uses.is_graph_output[size_t(y2)]) {
      return h;
    }
    const int q = producer[size_t(y2)];
    const Node& mm = graph.nodes()[size_t(q)];
    const bool is_mm = is_aten_op(mm, "mm", "default");
    if ((!is_mm && !is_aten_op(mm, "addmm", "default")) || mm.outputs.size() != 1) return h;
    const ValueId x2 = optional_tensor_input(mm, is_mm ? "self" : "mat1");
    if (x2 == kNoValue || producer[size_t(x2)] < 0 || uses.node_users[size_t(x2)].size() != 1 ||
        uses.is_graph_output[size_t(x2)]) {
      return h;
    }
    const int r = producer[size_t(x2)];
    if (!is_view(graph.nodes()[size_t(r)])) return h;
    h.in_view = r;
    h.product = q;
    h.out_view = p;
    h.x = optional_tensor_input(graph.nodes()[size_t(r)], "self");
  }
  if (h.x == kNoValue) return h;
  const TensorSpec& xs = graph.value(h.x).tensor;
  const TensorSpec& ys = graph.value(y).tensor;
  h.found = xs.rank() == 3 && ys.rank() == 3 && same_dim(xs.sizes[0], ys.sizes[0]) &&
            same_dim(xs.sizes[1], ys.sizes[1]) && xs.sizes[2].is_static && ys.sizes[2].is_static;
  return h;
}

}  // namespace

Error LastLogitsPass::run(Graph& graph) const {
  int heads = 0;
  std::string outputs;
  for (size_t o = 0; o < graph.outputs().size(); ++o) {
    if (o < graph.signature().outputs.size() &&
        graph.signature().outputs[o].kind != OutputKind::UserOutput) {
      continue;
    }
    const ValueId y = tensor_of(graph.outputs()[o]);
    if (y == kNoValue) continue;
    outputs += (outputs.empty() ? "%" : ", %") + graph.value(y).name + " " +
               graph.value(y).tensor.to_string();
    const std::vector<int> producer = value_producers(graph);
    const ValueUses uses = compute_uses(graph);
    const Head h = find_head(graph, producer, uses, y);
    if (!h.found) continue;
    ++heads;
    const TensorSpec xs = graph.value(h.x).tensor;
    if (xs.sizes[1].is_static && xs.sizes[1].value == 1) continue;  // one position already
    if (!xs.sizes[0].is_static) {
      return fail(Error::NotSupported,
                  "last_logits: output %" + graph.value(y).name + " " +
                      graph.value(y).tensor.to_string() + ": the batch dim must be static");
    }
    const int64_t b = xs.sizes[0].value, k = xs.sizes[2].value;
    const int64_t v = graph.value(y).tensor.sizes[2].value;
    Node& head = graph.nodes()[size_t(h.product)];
    EMBER_ASSIGN_OR_RETURN(ValueId xl, add_tensor_value(graph, graph.value(h.x).name + "_last",
                                                         contiguous_spec(xs.dtype, static_sizes({b, 1, k}))));
    std::vector<NamedArgument> args;
    args.push_back({"self", Argument::tensor(h.x)});
    args.push_back({"dim", Argument::integer(1)});
    args.push_back({"start", Argument::integer(-1)});
    args.push_back({"end", Argument::integer(INT64_MAX)});
    args.push_back({"step", Argument::integer(1)});
    Node slice = make_op_node("aten", "slice", "Tensor", std::move(args), {Argument::tensor(xl)}, head);
    const ScalarType ydtype = graph.value(y).tensor.dtype;
    if (h.in_view < 0) {  // linear(x) -> y
      set_arg(head, "input", Argument::tensor(xl));
      graph.value(y).tensor = contiguous_spec(ydtype, static_sizes({b, 1, v}));
    } else {
      Node& in_view = graph.nodes()[size_t(h.in_view)];
      const ValueId x2 = tensor_of(in_view.outputs[0]);
      const ValueId y2 = tensor_of(head.outputs[0]);
      set_arg(in_view, "self", Argument::tensor(xl));
      set_arg(in_view, "size", Argument::int_list({b, k}));
      graph.value(x2).tensor = contiguous_spec(graph.value(x2).tensor.dtype, static_sizes({b, k}));
      graph.value(y2).tensor = contiguous_spec(graph.value(y2).tensor.dtype, static_sizes({b, v}));
      set_arg(graph.nodes()[size_t(h.out_view)], "size", Argument::int_list({b, 1, v}));
      graph.value(y).tensor = contiguous_spec(ydtype, static_sizes({b, 1, v}));
    }
    const int at = h.in_view >= 0 ? h.in_view : h.product;
    graph.nodes().insert(graph.nodes().begin() + at, std::move(slice));
  }
  if (heads == 0) {
    return fail(Error::InvalidArgument,
                "last_logits: no user output is made by a linear head over [batch, positions, "
                "hidden] (linear, or view -> mm -> view) whose last position could be kept; "
                "user outputs: " + (outputs.empty() ? std::string("none") : outputs));
  }
  return Error::Ok;
}

}  // namespace ember::aot
