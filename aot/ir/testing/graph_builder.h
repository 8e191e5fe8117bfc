// GraphBuilder (tests only): builds small graphs by hand for pass tests.
//
//   GraphBuilder b;
//   ValueId x = b.input("x", {2, 3});
//   ValueId w = b.parameter("w", {4, 3}, std::vector<float>(12, 1.f));
//   ValueId y = b.op("aten::linear.default", {{"input", x}, {"weight", w}}, "linear", {2, 4});
//   b.output(y);
//   Graph g = b.take();
//   EXPECT_EQ(print_body(g), "...");   // one line per node, no source locations
#pragma once

#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "aot/ir/graph.h"
#include "aot/ir/printer.h"
#include "aot/ir/graph_rewrite.h"

namespace ember::aot::testing {

class GraphBuilder {
 public:
  ValueId input(const std::string& name, std::vector<int64_t> sizes,
                ScalarType dtype = ScalarType::Float) {
    return add_input(name, sizes, dtype, InputKind::UserInput, nullptr);
  }
  ValueId parameter(const std::string& name, std::vector<int64_t> sizes, const std::vector<float>& data,
                    InputKind kind = InputKind::Parameter) {
    auto c = std::make_shared<ConstantData>();
    c->bytes.resize(data.size() * 4);
    std::memcpy(c->bytes.data(), data.data(), c->bytes.size());
    return add_input(name, sizes, ScalarType::Float, kind, std::move(c));
  }
  // An op node with one tensor output `out_name` shaped `sizes`. Args name tensors by
  // ValueId; use op_args() for other kinds.
  ValueId op(const std::string& qualified, std::vector<std::pair<std::string, ValueId>> tensors,
             const std::string& out_name, std::vector<int64_t> sizes,
             std::vector<NamedArgument> extra = {}, ScalarType dtype = ScalarType::Float) {
    std::vector<NamedArgument> args;
    for (auto& [n, v] : tensors) args.push_back({n, Argument::tensor(v), false});
    for (auto& e : extra) args.push_back(e);
    ValueId out = g_.add_value({out_name, ValueKind::Tensor, contiguous_spec(dtype, static_sizes(sizes)), {}, ""}).get();
    auto parsed = parse_node_target("torch.ops." + dotted(qualified)).get();
    Node n;
    n.kind = parsed.first;
    n.op = parsed.second;
    n.target = "torch.ops." + dotted(qualified);
    n.inputs = std::move(args);
    n.outputs = {Argument::tensor(out)};
    n.name = out_name;
    n.stack_trace = "File \"model.py\", line " + std::to_string(10 + g_.nodes().size()) + ", in forward";
    g_.nodes().push_back(std::move(n));
    return out;
  }
  void output(ValueId v, OutputKind kind = OutputKind::UserOutput, const std::string& target = "") {
    g_.outputs().push_back(Argument::tensor(v));
    g_.signature().outputs.push_back({kind, g_.value(v).name, target});
  }
  Graph& graph() { return g_; }
  Graph take() { return std::move(g_); }

 private:
  static std::string dotted(const std::string& q) {  // aten::add.Tensor -> aten.add.Tensor
    std::string s = q;
    size_t p = s.find("::");
    if (p != std::string::npos) s.replace(p, 2, ".");
    return s;
  }
  ValueId add_input(const std::string& name, const std::vector<int64_t>& sizes, ScalarType dtype,
                    InputKind kind, std::shared_ptr<const ConstantData> c) {
    TensorSpec spec = contiguous_spec(dtype, static_sizes(sizes));
    spec.constant = std::move(c);
    ValueId v = g_.add_value({name, ValueKind::Tensor, spec, {}, ""}).get();
    g_.inputs().push_back(Argument::tensor(v));
    InputSpec in;
    in.kind = kind;
    in.name = name;
    in.target = name;
    g_.signature().inputs.push_back(in);
    return v;
  }
  Graph g_;
};

// The graph's nodes, one print_node line each, without source locations.
inline std::string print_body(const Graph& g) {
  std::string out;
  for (const Node& n : g.nodes()) out += print_node(g, n, false) + "\n";
  return out;
}

}  // namespace ember::aot::testing
