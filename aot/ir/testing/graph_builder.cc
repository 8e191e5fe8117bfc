// GraphBuilder (see graph_builder.h).
#include "aot/ir/testing/graph_builder.h"

#include <cstring>
#include <memory>

#include "aot/ir/graph_rewrite.h"
#include "aot/ir/printer.h"

namespace ember::aot::testing {

ValueId GraphBuilder::input(const std::string& name, std::vector<int64_t> sizes, ScalarType dtype) {
  return add_placeholder(name, sizes, dtype, InputKind::UserInput, g_.inputs().size());
}

ValueId GraphBuilder::parameter(const std::string& name, std::vector<int64_t> sizes,
                                const std::vector<float>& data, InputKind kind) {
  size_t position = 0;
  const std::vector<InputSpec>& specs = g_.signature().inputs;
  while (position < specs.size() && specs[position].kind != InputKind::UserInput) ++position;
  const ValueId v = add_placeholder(name, sizes, ScalarType::Float, kind, position);
  auto constant = std::make_shared<ConstantData>();
  constant->bytes = float_bytes(data);
  constant->source = "test:" + name;
  g_.value(v).tensor.constant = std::move(constant);
  return v;
}

ValueId GraphBuilder::op(const std::string& qualified,
                         std::vector<std::pair<std::string, ValueId>> tensors,
                         const std::string& out_name, std::vector<int64_t> sizes,
                         std::vector<NamedArgument> extra, ScalarType dtype) {
  Node n;
  n.target = "torch.ops." + qualified;  // aten::add.Tensor -> torch.ops.aten.add.Tensor
  const size_t colons = n.target.find("::");
  if (colons != std::string::npos) n.target.replace(colons, 2, ".");
  auto parsed = parse_node_target(n.target).get();
  n.kind = parsed.first;
  n.op = parsed.second;
  for (auto& [arg_name, v] : tensors) n.inputs.push_back({arg_name, Argument::tensor(v), false});
  for (NamedArgument& e : extra) n.inputs.push_back(std::move(e));
  const ValueId out = add_tensor(out_name, sizes, dtype);
  n.outputs = {Argument::tensor(out)};
  n.name = out_name;
  n.stack_trace =
      "File \"model.py\", line " + std::to_string(10 + g_.nodes().size()) + ", in forward";
  g_.nodes().push_back(std::move(n));
  return out;
}

void GraphBuilder::output(ValueId v, OutputKind kind, const std::string& target) {
  g_.outputs().push_back(Argument::tensor(v));
  g_.signature().outputs.push_back({kind, g_.value(v).name, target});
}

ValueId GraphBuilder::add_placeholder(const std::string& name, const std::vector<int64_t>& sizes,
                                      ScalarType dtype, InputKind kind, size_t position) {
  const ValueId v = add_tensor(name, sizes, dtype);
  const auto at = static_cast<std::ptrdiff_t>(position);
  g_.inputs().insert(g_.inputs().begin() + at, Argument::tensor(v));
  InputSpec spec;
  spec.kind = kind;
  spec.name = name;
  spec.target = name;
  g_.signature().inputs.insert(g_.signature().inputs.begin() + at, spec);
  return v;
}

ValueId GraphBuilder::add_tensor(const std::string& name, const std::vector<int64_t>& sizes,
                                 ScalarType dtype) {
  return g_
      .add_value({name, ValueKind::Tensor, contiguous_spec(dtype, static_sizes(sizes)), {}, ""})
      .get();
}

std::string print_body(const Graph& g) {
  std::string out;
  for (const Node& n : g.nodes()) out += print_node(g, n, false) + "\n";
  return out;
}

std::vector<uint8_t> float_bytes(const std::vector<float>& values) {
  std::vector<uint8_t> out(values.size() * sizeof(float));
  if (!out.empty()) std::memcpy(out.data(), values.data(), out.size());
  return out;
}

std::vector<float> to_floats(const std::vector<uint8_t>& bytes) {
  std::vector<float> out(bytes.size() / sizeof(float));
  if (!out.empty()) std::memcpy(out.data(), bytes.data(), out.size() * sizeof(float));
  return out;
}

}  // namespace ember::aot::testing
