// Graph value bookkeeping.
#include "aot/ir/graph.h"

namespace ember::aot {

Result<ValueId> Graph::add_value(Value value) {
  if (value.name.empty()) return invalid_program("value without a name");
  auto it = by_name_.find(value.name);
  if (it != by_name_.end()) {
    return invalid_program("value '" + value.name + "' is defined twice");
  }
  ValueId id = static_cast<ValueId>(values_.size());
  by_name_.emplace(value.name, id);
  values_.push_back(std::move(value));
  return id;
}

ValueId Graph::find_value(const std::string& name) const {
  auto it = by_name_.find(name);
  return it == by_name_.end() ? kNoValue : it->second;
}

std::vector<ValueId> Graph::inputs_of_kind(InputKind kind) const {
  std::vector<ValueId> out;
  for (size_t i = 0; i < inputs_.size() && i < signature_.inputs.size(); ++i) {
    if (signature_.inputs[i].kind == kind) out.push_back(inputs_[i].value());
  }
  return out;
}

}  // namespace ember::aot
