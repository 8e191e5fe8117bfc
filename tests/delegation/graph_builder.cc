// GraphBuilder (see graph_builder.h).
#include "tests/delegation/graph_builder.h"

#include <cstring>
#include <memory>

namespace ember::testing {

aot::ValueId GraphBuilder::tensor(const std::string& name, std::vector<int64_t> sizes) {
  aot::Value v;
  v.name = name;
  v.tensor.dtype = aot::ScalarType::Float;
  int64_t stride = 1;
  v.tensor.strides.resize(sizes.size());
  for (size_t d = sizes.size(); d-- > 0;) {
    v.tensor.strides[d] = aot::SymInt::of(stride);
    stride *= sizes[d];
  }
  for (size_t d = 0; d < sizes.size(); ++d) {
    v.tensor.sizes.push_back(aot::SymInt::of(sizes[d]));
    v.tensor.dim_order.push_back(static_cast<uint8_t>(d));
  }
  auto id = g_.add_value(std::move(v));
  return id.ok() ? id.get() : aot::kNoValue;
}

aot::ValueId GraphBuilder::input(const std::string& name, std::vector<int64_t> sizes) {
  const aot::ValueId v = tensor(name, std::move(sizes));
  g_.inputs().push_back(aot::Argument::tensor(v));
  g_.signature().inputs.push_back({aot::InputKind::UserInput, name, name, true, {}});
  return v;
}

aot::ValueId GraphBuilder::constant(const std::string& name, std::vector<int64_t> sizes,
                                    const std::vector<float>& values) {
  const aot::ValueId v = tensor(name, std::move(sizes));
  auto data = std::make_shared<aot::ConstantData>();
  data->bytes = float_bytes(values);
  data->source = "test:" + name;
  g_.value(v).tensor.constant = data;
  // Parameters come first in a torch.export graph's inputs.
  size_t at = 0;
  while (at < g_.signature().inputs.size() &&
         g_.signature().inputs[at].kind == aot::InputKind::Parameter) {
    ++at;
  }
  g_.inputs().insert(g_.inputs().begin() + static_cast<long>(at), aot::Argument::tensor(v));
  g_.signature().inputs.insert(g_.signature().inputs.begin() + static_cast<long>(at),
                               {aot::InputKind::Parameter, name, name, true, {}});
  return v;
}

aot::ValueId GraphBuilder::op(const std::string& op, const std::string& overload,
                              std::vector<std::pair<std::string, aot::ValueId>> inputs,
                              std::vector<int64_t> sizes) {
  const aot::ValueId out = tensor(op + "_" + std::to_string(counter_++), std::move(sizes));
  aot::Node n;
  n.op = aot::OpName{"aten", op, overload};
  n.target = "torch.ops.aten." + op + "." + overload;
  n.name = g_.value(out).name;
  for (auto& [name, v] : inputs) n.inputs.push_back({name, aot::Argument::tensor(v), false});
  n.outputs = {aot::Argument::tensor(out)};
  g_.nodes().push_back(std::move(n));
  return out;
}

void GraphBuilder::last_arg(const std::string& name, aot::Argument arg) {
  g_.nodes().back().inputs.push_back({name, std::move(arg), true});
}

void GraphBuilder::output(aot::ValueId v) {
  g_.outputs().push_back(aot::Argument::tensor(v));
  g_.signature().outputs.push_back({aot::OutputKind::UserOutput, g_.value(v).name, ""});
}

std::vector<uint8_t> float_bytes(const std::vector<float>& values) {
  std::vector<uint8_t> out(values.size() * 4);
  if (!values.empty()) std::memcpy(out.data(), values.data(), out.size());
  return out;
}

std::vector<float> to_floats(const std::vector<uint8_t>& bytes) {
  std::vector<float> out(bytes.size() / 4);
  if (!out.empty()) std::memcpy(out.data(), bytes.data(), out.size() * 4);
  return out;
}

}  // namespace ember::testing
