// compile_method, constant_method and merge_programs (see method_compiler.h).
#include "aot/emit/method_compiler.h"

#include <algorithm>
#include <set>

#include "aot/backend/delegated_module.h"
#include "aot/emit/emit_graph.h"
#include "aot/emit/pte_writer.h"
#include "aot/planning/memory_planning_pass.h"
#include "aot/passes/out_variant_pass.h"
#include "aot/passes/pipeline.h"

namespace ember::aot {

Result<EmitProgram> compile_method(Graph graph, const std::string& name,
                                     const std::string& planner) {
  PassPipeline p("to_executorch");
  p.add(std::make_unique<OutVariantPass>());
  p.add(std::make_unique<MemoryPlanningPass>(planner));
  EMBER_TRY_CONTEXT(p.run(graph), "method '" + name + "'");
  EmitGraphOptions options;
  options.method_name = name;
  EMBER_ASSIGN_OR_RETURN(EmitProgram program, emit_graph(graph, options));
  if (program.methods.size() != 1) {
    return fail(Error::Internal, "lowering produced " +
                                             std::to_string(program.methods.size()) + " methods");
  }
  return program;
}

ConstantValue ConstantValue::of_int(int64_t v) {
  ConstantValue c;
  c.kind = Kind::Int;
  c.i = v;
  return c;
}
ConstantValue ConstantValue::of_double(double v) {
  ConstantValue c;
  c.kind = Kind::Double;
  c.d = v;
  return c;
}
ConstantValue ConstantValue::of_bool(bool v) {
  ConstantValue c;
  c.kind = Kind::Bool;
  c.b = v;
  return c;
}
ConstantValue ConstantValue::of_tensor(HostTensor t) {
  ConstantValue c;
  c.kind = Kind::Tensor;
  c.tensor = std::move(t);
  return c;
}

Result<EmitProgram> constant_method(const std::string& name,
                                      const std::vector<ConstantValue>& values) {
  if (values.empty()) return invalid_argument("constant method '" + name + "' returns nothing");
  EmitProgram program;
  EmitMethod m;
  m.name = name;
  for (const ConstantValue& c : values) {
    switch (c.kind) {
      case ConstantValue::Kind::Int: m.values.push_back(EmitValue::of_int(c.i)); break;
      case ConstantValue::Kind::Double: m.values.push_back(EmitValue::of_double(c.d)); break;
      case ConstantValue::Kind::Bool: m.values.push_back(EmitValue::of_bool(c.b)); break;
      case ConstantValue::Kind::Tensor: {
        const HostTensor& h = c.tensor;
        const size_t want = static_cast<size_t>(h.numel()) * element_size(h.dtype);
        if (h.numel() < 0 || h.bytes.size() != want) {
          return invalid_argument("constant method '" + name + "': tensor has " +
                                  std::to_string(h.bytes.size()) + " bytes, expected " +
                                  std::to_string(want));
        }
        EmitTensor t;
        t.scalar_type = static_cast<int8_t>(h.dtype);
        for (size_t d = 0; d < h.sizes.size(); ++d) {
          t.sizes.push_back(static_cast<int32_t>(h.sizes[d]));
          t.dim_order.push_back(static_cast<uint8_t>(d));
        }
        program.constants.push_back(h.bytes);
        t.constant_index = static_cast<int32_t>(program.constants.size() - 1);
        m.values.push_back(EmitValue::of_tensor(std::move(t)));
        break;
      }
    }
    m.outputs.push_back(static_cast<int32_t>(m.values.size() - 1));
  }
  program.methods.push_back(std::move(m));
  return program;
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

Result<std::vector<uint8_t>> delegated_module_pte(const DelegatedModule& module, const std::string& method) {
  EMBER_ASSIGN_OR_RETURN(Graph g, module.standalone_graph());
  EMBER_ASSIGN_OR_RETURN(EmitProgram program, compile_method(std::move(g), method));
  std::vector<uint8_t> bytes;
  EMBER_TRY(write_pte(program, &bytes));
  return bytes;
}

}  // namespace ember::aot
