// constant_method, constant_tensor and merge_programs (see program_merge.h).
#include "aot/emit/program_merge.h"

#include <algorithm>
#include <set>

#include "aot/backend/delegate_metadata.h"
#include "aot/emit/element_size.h"

namespace ember::aot {

Result<EmitProgram> constant_method(const std::string& name, std::vector<EmitValue> values,
                                    std::vector<std::vector<uint8_t>> constants) {
  if (values.empty()) return invalid_argument("constant method '" + name + "' returns nothing");
  EmitProgram program;
  EmitMethod m;
  m.name = name;
  for (EmitValue& v : values) {
    const std::string what =
        "constant method '" + name + "': output " + std::to_string(m.values.size());
    switch (v.kind) {
      case EmitValueKind::Int:
      case EmitValueKind::Double:
      case EmitValueKind::Bool:
        break;
      case EmitValueKind::Tensor:
        if (v.tensor.constant_index < 0 ||
            static_cast<size_t>(v.tensor.constant_index) >= constants.size()) {
          return invalid_argument(what + " is a tensor with constant_index " +
                                  std::to_string(v.tensor.constant_index) + ", there are " +
                                  std::to_string(constants.size()) + " constants");
        }
        break;
      default:
        return invalid_argument(what + " is not an int, double, bool or constant tensor");
    }
    m.values.push_back(std::move(v));
    m.outputs.push_back(static_cast<int32_t>(m.values.size() - 1));
  }
  program.methods.push_back(std::move(m));
  program.constants = std::move(constants);
  return program;
}

Result<EmitValue> constant_tensor(const HostTensor& t,
                                  std::vector<std::vector<uint8_t>>* constants) {
  const size_t want = static_cast<size_t>(t.numel()) * element_size(t.dtype);
  if (t.numel() < 0 || t.bytes.size() != want) {
    return invalid_argument("constant tensor has " + std::to_string(t.bytes.size()) +
                            " bytes, expected " + std::to_string(want));
  }
  EmitTensor e;
  e.scalar_type = static_cast<int8_t>(t.dtype);
  for (size_t d = 0; d < t.sizes.size(); ++d) {
    e.sizes.push_back(static_cast<int32_t>(t.sizes[d]));
    e.dim_order.push_back(static_cast<uint8_t>(d));
  }
  constants->push_back(t.bytes);
  e.constant_index = static_cast<int32_t>(constants->size() - 1);
  return EmitValue::of_tensor(std::move(e));
}

Result<EmitProgram> merge_programs(std::vector<EmitProgram> programs) {
  if (programs.empty()) return invalid_argument("merge_programs: no methods");
  EmitProgram merged;
  std::set<std::string> names;
  for (EmitProgram& p : programs) {
    const int32_t constant_base = static_cast<int32_t>(merged.constants.size());
    const int32_t mutable_base = static_cast<int32_t>(merged.mutable_data.size());
    for (auto& c : p.constants) merged.constants.push_back(std::move(c));
    for (auto& d : p.mutable_data) merged.mutable_data.push_back(std::move(d));
    EMBER_TRY_CONTEXT(add_named_data(std::move(p.named_data), &merged.named_data),
                      "merge_programs");
    for (EmitMethod& m : p.methods) {
      if (!names.insert(m.name).second) {
        return invalid_argument("merge_programs: two methods are called '" + m.name + "'");
      }
      for (EmitValue& v : m.values) {
        if (v.kind != EmitValueKind::Tensor) continue;
        if (v.tensor.constant_index >= 0) v.tensor.constant_index += constant_base;
        if (v.tensor.mutable_data_index >= 0) v.tensor.mutable_data_index += mutable_base;
      }
      merged.methods.push_back(std::move(m));
    }
  }
  std::stable_sort(merged.methods.begin(), merged.methods.end(),
                   [](const EmitMethod& a, const EmitMethod& b) { return a.name < b.name; });
  return merged;
}

}  // namespace ember::aot
