// compile_subgraph (see demo_compiler.h).
#include "backends/demo/aot/demo_compiler.h"

#include <cstring>
#include <map>

#include "backends/demo/aot/bytecode_writer.h"
#include "backends/demo/aot/demo_ops.h"

namespace ember::backends::demo {
namespace {

std::vector<int64_t> sizes_of(const aot::Value& v) {
  std::vector<int64_t> out;
  for (const aot::SymInt& s : v.tensor.sizes) out.push_back(s.value);
  return out;
}

class Compiler {
 public:
  explicit Compiler(const aot::Graph& g) : g_(g) {}

  aot::Result<std::vector<uint8_t>> run() {
    EMBER_TRY(add_inputs());
    std::vector<std::pair<uint16_t, aot::ValueId>> copies;
    for (const aot::Argument& o : g_.outputs()) {
      if (o.kind != aot::ArgKind::Tensor) return aot::not_supported("demo: a non-tensor output");
      const aot::ValueId v = o.values[0];
      EMBER_TRY(check_value(v));
      const uint16_t slot = w_.add_slot(SlotKind::Output, sizes_of(g_.value(v)));
      if (slot_.count(v) != 0 || produced_by_node(v) == false) {
        copies.emplace_back(slot, v);  // filled by a copy after the nodes
      } else {
        slot_[v] = slot;
      }
    }
    for (const aot::Node& n : g_.nodes()) EMBER_TRY(add_node(n));
    for (auto& [slot, v] : copies) {
      EMBER_ASSIGN_OR_RETURN(uint16_t src, operand(v, "output"));
      w_.add_instruction(OpCode::Copy, slot, src);
    }
    return w_.finish();
  }

 private:
  bool produced_by_node(aot::ValueId v) const {
    for (const aot::Node& n : g_.nodes()) {
      for (const aot::Argument& o : n.outputs) {
        if (o.kind == aot::ArgKind::Tensor && o.values[0] == v) return true;
      }
    }
    return false;
  }

  aot::Error check_value(aot::ValueId v) const {
    if (!g_.valid_id(v) || g_.value(v).kind != aot::ValueKind::Tensor) {
      return aot::not_supported("demo: value " + std::to_string(v) + " is not a tensor");
    }
    const aot::TensorSpec& t = g_.value(v).tensor;
    if (t.dtype != aot::ScalarType::Float || !t.is_static() || t.rank() > kMaxRank) {
      return aot::not_supported("demo: value '" + g_.value(v).name + "' is " + t.to_string() +
                                ", the bytecode holds static f32 tensors of rank <= 6");
    }
    return aot::Error::Ok;
  }

  aot::Error add_inputs() {
    for (const aot::Argument& in : g_.inputs()) {
      if (in.kind != aot::ArgKind::Tensor) {
        return aot::not_supported("demo: subgraph input of kind " +
                                  std::string(aot::to_string(in.kind)) + " (tensors only)");
      }
      const aot::ValueId v = in.values[0];
      if (g_.value(v).tensor.constant != nullptr) continue;  // constant slot, added on use
      EMBER_TRY(check_value(v));
      slot_[v] = w_.add_slot(SlotKind::Input, sizes_of(g_.value(v)));
    }
    return aot::Error::Ok;
  }

  aot::Result<uint16_t> operand(aot::ValueId v, const std::string& where) {
    auto it = slot_.find(v);
    if (it != slot_.end()) return it->second;
    if (!g_.valid_id(v) || g_.value(v).tensor.constant == nullptr) {
      return aot::invalid_program("demo: " + where + " reads value " + std::to_string(v) +
                                  " that no input, constant or earlier node provides");
    }
    EMBER_TRY(check_value(v));
    const aot::Value& val = g_.value(v);
    const std::vector<uint8_t>& bytes = val.tensor.constant->bytes;
    const int64_t numel = val.tensor.static_numel();
    if (numel < 0 || bytes.size() != static_cast<size_t>(numel) * 4) {
      return aot::invalid_data("demo: constant '" + val.name + "' has " +
                               std::to_string(bytes.size()) + " bytes, expected " +
                               std::to_string(numel * 4));
    }
    std::vector<float> values(static_cast<size_t>(numel));
    if (numel > 0) std::memcpy(values.data(), bytes.data(), bytes.size());
    const uint16_t slot = w_.add_constant(sizes_of(val), values);
    slot_[v] = slot;
    return slot;
  }

  aot::Error add_node(const aot::Node& n) {
    const aot::Support s = demo_support(n, g_);
    if (!s.supported) return aot::not_supported("demo: " + n.describe() + ": " + s.reason);
    const DemoOp* op = find_demo_op(n);
    const OpClass cls = op_class(op->code);
    EMBER_ASSIGN_OR_RETURN(uint16_t a, operand(n.find_input("self")->arg.values[0], n.describe()));
    uint16_t b = kNoOperand;
    if (cls != OpClass::Unary) {
      const char* name = cls == OpClass::Matmul ? "mat2" : "other";
      EMBER_ASSIGN_OR_RETURN(b, operand(n.find_input(name)->arg.values[0], n.describe()));
    }
    const aot::ValueId out = n.outputs[0].values[0];
    auto it = slot_.find(out);
    uint16_t dst;
    if (it != slot_.end()) {
      dst = it->second;  // an output slot reserved above
    } else {
      dst = w_.add_slot(SlotKind::Scratch, sizes_of(g_.value(out)));
      slot_[out] = dst;
    }
    w_.add_instruction(static_cast<OpCode>(op->code), dst, a, b);
    return aot::Error::Ok;
  }

  const aot::Graph& g_;
  BytecodeWriter w_;
  std::map<aot::ValueId, uint16_t> slot_;
};

}  // namespace

aot::Result<std::vector<uint8_t>> compile_subgraph(const aot::Graph& subgraph) {
  return Compiler(subgraph).run();
}

}  // namespace ember::backends::demo
