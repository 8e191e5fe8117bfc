// emit_graph (see emit_graph.h).
#include "aot/emit/emit_graph.h"

#include <algorithm>
#include <map>

#include "aot/ir/control_flow.h"
#include "aot/backend/delegate_metadata.h"
#include "aot/ir/op_schema.h"
#include "aot/ir/graph_rewrite.h"
#include "aot/planning/memory_planning_pass.h"
#include "aot/passes/out_variant_pass.h"

namespace ember::aot {

Result<EmitOperator> prim_operator_for(const std::string& t) {
  static const std::map<std::string, std::string> kOps = {
      {"_operator.add", "add"},        {"_operator.sub", "sub"},
      {"_operator.mul", "mul"},        {"_operator.floordiv", "floordiv"},
      {"_operator.truediv", "truediv"}, {"_operator.mod", "mod"},
      {"_operator.neg", "neg"},        {"_operator.eq", "eq"},
      {"_operator.gt", "gt"},          {"_operator.lt", "lt"},
      {"_operator.ge", "ge"},          {"_operator.le", "le"},
      {"torch.sym_max", "sym_max"},    {"torch.sym_min", "sym_min"},
      {"torch.sym_float", "sym_float"}, {"torch.sym_int", "sym_int"},
      {"torch.sym_not", "sym_not"},    {"torch.sym_ite", "sym_ite"},
      {"math.ceil", "ceil"},           {"math.trunc", "trunc"},
  };
  auto it = kOps.find(t);
  if (it == kOps.end()) return not_supported("scalar op '" + t + "' has no executorch_prim kernel");
  return EmitOperator{"executorch_prim::" + it->second, "Scalar"};
}

namespace {

constexpr int64_t kAlign = 16;

int64_t align_up(int64_t v) { return (v + kAlign - 1) / kAlign * kAlign; }

class MethodEmitter {
 public:
  MethodEmitter(const Graph& g, EmitProgram* prog) : g_(g), prog_(prog), index_(g.num_values(), -1) {
    for (auto& [buffer, value] : mutated_buffers(g)) mutable_.push_back(buffer);
  }

  Result<EmitMethod> run(const std::string& name) {
    m_.name = name;
    EMBER_TRY(emit_inputs());
    for (const Node& n : g_.nodes()) EMBER_TRY_CONTEXT(emit_node(n), n.describe());
    EMBER_TRY(emit_writebacks());
    EMBER_TRY(resolve_jumps());
    EMBER_TRY(emit_outputs());
    m_.non_const_buffer_sizes = {0};
    if (arena_ > 0) m_.non_const_buffer_sizes.push_back(arena_);
    m_.value_index = index_;
    return std::move(m_);
  }

 private:
  int32_t push(EmitValue v) {
    m_.values.push_back(std::move(v));
    return static_cast<int32_t>(m_.values.size() - 1);
  }

  bool is_mutable(ValueId v) const {
    return std::find(mutable_.begin(), mutable_.end(), v) != mutable_.end();
  }

  Result<EmitTensor> make_tensor(ValueId id) {
    const TensorSpec& s = g_.value(id).tensor;
    EmitTensor t;
    t.scalar_type = static_cast<int8_t>(s.dtype);
    for (const SymInt& d : s.sizes) {
      int64_t v = d.is_static ? d.value : (d.range.max ? *d.range.max : -1);
      if (v < 0 || v > INT32_MAX) {
        return not_supported("value '" + g_.value(id).name + "' " + s.to_string() +
                             ": size without a usable upper bound");
      }
      if (!d.is_static) t.dynamism = EmitDynamism::DynamicBound;
      t.sizes.push_back(static_cast<int32_t>(v));
    }
    for (size_t k = 0; k < s.sizes.size(); ++k) t.dim_order.push_back(static_cast<uint8_t>(k));
    bool mutable_buffer = is_mutable(id);
    if (s.constant != nullptr && !mutable_buffer) {
      prog_->constants.push_back(s.constant->bytes);
      t.constant_index = static_cast<int32_t>(prog_->constants.size() - 1);
      return t;
    }
    if (s.mem_id >= 1) {
      t.memory_id = static_cast<uint32_t>(s.mem_id);
      t.memory_offset = static_cast<uint64_t>(s.mem_offset);
      arena_ = std::max(arena_, s.mem_offset + align_up(upper_bound_nbytes(s)));
    }
    if (mutable_buffer && s.constant != nullptr) {
      if (t.memory_id == 0) return invalid_program("mutable buffer '" + g_.value(id).name + "' is not planned");
      prog_->mutable_data.push_back(s.constant->bytes);
      t.mutable_data_index = static_cast<int32_t>(prog_->mutable_data.size() - 1);
    }
    return t;
  }

  Result<int32_t> value_ref(ValueId id) {
    if (!g_.valid_id(id)) return invalid_program("value id " + std::to_string(id) + " out of range");
    int32_t& slot = index_[static_cast<size_t>(id)];
    if (slot >= 0) return slot;
    const Value& v = g_.value(id);
    switch (v.kind) {
      case ValueKind::Tensor: {
        EMBER_ASSIGN_OR_RETURN(EmitTensor t, make_tensor(id));
        slot = push(EmitValue::of_tensor(std::move(t)));
        break;
      }
      case ValueKind::SymInt: slot = push(EmitValue::of_int(v.sym.hint.value_or(v.sym.value))); break;
      case ValueKind::SymFloat: slot = push(EmitValue::of_double(0.0)); break;
      case ValueKind::SymBool: slot = push(EmitValue::of_bool(false)); break;
      case ValueKind::None: slot = push(EmitValue::none()); break;
      case ValueKind::CustomObj:
        return not_supported("value '" + v.name + "' is a TorchBind object");
    }
    return slot;
  }

  int32_t placeholder_tensor() {
    EmitTensor t;
    t.scalar_type = 0;  // BYTE
    t.sizes = {0};
    t.dim_order = {0};
    return push(EmitValue::of_tensor(std::move(t)));
  }

  Result<int32_t> int_element(const Argument& a, size_t k) {
    if (k < a.values.size() && a.values[k] != kNoValue) return value_ref(a.values[k]);
    return push(EmitValue::of_int(a.ints[k]));
  }

  Result<int32_t> emit_arg(const Argument& a, bool plain_tensor) {
    switch (a.kind) {
      case ArgKind::None: return plain_tensor ? placeholder_tensor() : push(EmitValue::none());
      case ArgKind::Tensor:
      case ArgKind::CustomObj: return value_ref(a.values[0]);
      case ArgKind::TensorList:
      case ArgKind::OptionalTensorList: {
        std::vector<int64_t> items;
        for (ValueId v : a.values) {
          if (v == kNoValue) {
            items.push_back(-1);
            continue;
          }
          EMBER_ASSIGN_OR_RETURN(int32_t idx, value_ref(v));
          items.push_back(idx);
        }
        return push(EmitValue::of_list(a.kind == ArgKind::TensorList ? EmitValueKind::TensorList
                                                                       : EmitValueKind::OptionalTensorList,
                                       std::move(items)));
      }
      case ArgKind::Int: return push(EmitValue::of_int(a.i));
      case ArgKind::Float: return push(EmitValue::of_double(a.f));
      case ArgKind::Bool: return push(EmitValue::of_bool(a.b));
      case ArgKind::String: return push(EmitValue::of_string(a.s));
      case ArgKind::ScalarType: return push(EmitValue::of_int(static_cast<int64_t>(a.dtype)));
      case ArgKind::Layout: return push(EmitValue::of_int(0));
      case ArgKind::MemoryFormat: {
        if (a.i != 1 && a.i != 4) {
          return not_supported("memory format code " + std::to_string(a.i) +
                               " (only contiguous_format and preserve_format can be emitted)");
        }
        return push(EmitValue::of_int(a.i == 1 ? 0 : 1));
      }
      case ArgKind::Device: return push(EmitValue::none());
      case ArgKind::IntList:
      case ArgKind::SymIntList: {
        std::vector<int64_t> items;
        for (size_t k = 0; k < a.ints.size(); ++k) {
          EMBER_ASSIGN_OR_RETURN(int32_t idx, int_element(a, k));
          items.push_back(idx);
        }
        return push(EmitValue::of_list(EmitValueKind::IntList, std::move(items)));
      }
      case ArgKind::FloatList: return push(EmitValue::of_doubles(a.floats));
      case ArgKind::BoolList: {
        std::vector<bool> b;
        for (int64_t v : a.ints) b.push_back(v != 0);
        return push(EmitValue::of_bools(std::move(b)));
      }
      case ArgKind::SymInt:
        return a.values.empty() ? push(EmitValue::of_int(a.i)) : value_ref(a.values[0]);
      case ArgKind::SymFloat:
        return a.values.empty() ? push(EmitValue::of_double(a.f)) : value_ref(a.values[0]);
      case ArgKind::SymBool:
        return a.values.empty() ? push(EmitValue::of_bool(a.b)) : value_ref(a.values[0]);
      case ArgKind::StringList:
      case ArgKind::Operator:
        break;
    }
    return not_supported(std::string("cannot emit an argument of kind ") + to_string(a.kind));
  }

  int32_t operator_index(const std::string& name, const std::string& overload) {
    std::string ov = overload == "default" ? "" : overload;
    for (size_t k = 0; k < m_.operators.size(); ++k) {
      if (m_.operators[k].name == name && m_.operators[k].overload == ov) return static_cast<int32_t>(k);
    }
    m_.operators.push_back({name, ov});
    return static_cast<int32_t>(m_.operators.size() - 1);
  }

  Error emit_inputs() {
    const GraphSignature& sig = g_.signature();
    for (size_t i = 0; i < g_.inputs().size(); ++i) {
      bool user = i >= sig.inputs.size() || sig.inputs[i].kind == InputKind::UserInput;
      if (!user) continue;
      const Argument& in = g_.inputs()[i];
      if (in.kind != ArgKind::Tensor) {
        return not_supported("user input " + std::to_string(i) + " is " + to_string(in.kind) +
                             "; only tensor inputs can be emitted");
      }
      EMBER_ASSIGN_OR_RETURN(int32_t idx, value_ref(in.values[0]));
      m_.inputs.push_back(idx);
    }
    return Error::Ok;
  }

  Error emit_outputs() {
    const GraphSignature& sig = g_.signature();
    for (size_t i = 0; i < g_.outputs().size(); ++i) {
      if (i < sig.outputs.size() && sig.outputs[i].kind != OutputKind::UserOutput &&
          sig.outputs[i].kind != OutputKind::LossOutput) {
        continue;
      }
      EMBER_ASSIGN_OR_RETURN(int32_t idx, emit_arg(g_.outputs()[i], false));
      m_.outputs.push_back(idx);
    }
    return Error::Ok;
  }

  Error emit_writebacks() {
    for (auto& [buffer, value] : mutated_buffers(g_)) {
      if (buffer == value) continue;  // written in place (ReinplaceBufferWritesPass)
      EMBER_ASSIGN_OR_RETURN(int32_t b, value_ref(buffer));
      EMBER_ASSIGN_OR_RETURN(int32_t v, value_ref(value));
      int32_t nb = push(EmitValue::of_bool(false));
      m_.instructions.push_back(
          EmitInstruction::kernel(operator_index("aten::copy", "out"), {b, v, nb, b, b}));
      EmitInstructionDebug d;  // the buffer mutation the export recorded, not a node of its own
      d.origin.node = "writeback:" + g_.value(buffer).name;
      d.origin.op = "aten::copy_";
      m_.debug.push_back(std::move(d));
    }
    return Error::Ok;
  }

  // A converted out-variant node is named by the functional op it came from.
  static NodeProvenance node_debug(const Node& n) {
    NodeProvenance p = provenance_of(n);
    auto it = n.metadata.find(kOutVariantKey);
    if (it != n.metadata.end()) p.op = it->second.substr(0, it->second.rfind('.'));
    return p;
  }

  bool plain_tensor_arg(const Node& n, const std::string& arg_name) {
    auto it = n.metadata.find(kOutVariantKey);
    if (it == n.metadata.end()) return false;
    const OpSchema* s = find_op_schema(g_, it->second);
    if (s == nullptr) return false;
    int k = s->arg_index(arg_name);
    if (k < 0) return false;
    const SchemaType& t = s->args[static_cast<size_t>(k)].type;
    return t.base == BaseType::Tensor && !t.optional && !t.list;
  }

  // Control-flow markers (aot/ir/control_flow.h); *handled = false for other nodes.
  Error emit_control(const Node& n, bool* handled) {
    ControlOp c = control_op(n);
    *handled = c != ControlOp::None;
    auto label_of = [&]() -> Result<std::string> {
      const NamedArgument* l = n.find_input("label");
      if (l == nullptr || l->arg.kind != ArgKind::String) return invalid_program("control node without a label");
      return l->arg.s;
    };
    switch (c) {
      case ControlOp::None: return Error::Ok;
      case ControlOp::CondOutputs:
        for (const Argument& o : n.outputs) EMBER_TRY(emit_arg(o, false).error());
        return Error::Ok;
      case ControlOp::JumpFalse:
      case ControlOp::Jump: {
        int32_t cond;
        if (c == ControlOp::JumpFalse) {
          const NamedArgument* p = n.find_input("pred");
          if (p == nullptr) return invalid_program("jump_false without a predicate");
          EMBER_ASSIGN_OR_RETURN(cond, emit_arg(p->arg, false));
        } else {
          if (false_value_ < 0) false_value_ = push(EmitValue::of_bool(false));
          cond = false_value_;  // an unconditional jump, as ExecuTorch's emitter writes it
        }
        EMBER_ASSIGN_OR_RETURN(std::string label, label_of());
        jumps_.push_back({m_.instructions.size(), label});
        m_.instructions.push_back(EmitInstruction::jump_false(cond, -1));
        m_.debug.push_back({node_debug(n), "", {}});
        return Error::Ok;
      }
      case ControlOp::Label: {
        EMBER_ASSIGN_OR_RETURN(std::string label, label_of());
        if (!labels_.emplace(label, static_cast<int32_t>(m_.instructions.size())).second) {
          return invalid_program("label '" + label + "' defined twice");
        }
        return Error::Ok;
      }
      case ControlOp::Copy: {  // dst <- src by aten::copy.out, as mutable-buffer writebacks
        const NamedArgument* src = n.find_input("src");
        const NamedArgument* dst = n.find_input("dst");
        if (src == nullptr || dst == nullptr) return invalid_program("copy without src/dst");
        EMBER_ASSIGN_OR_RETURN(int32_t from, emit_arg(src->arg, false));
        EMBER_ASSIGN_OR_RETURN(int32_t to, emit_arg(dst->arg, false));
        int32_t nb = push(EmitValue::of_bool(false));
        m_.instructions.push_back(
            EmitInstruction::kernel(operator_index("aten::copy", "out"), {to, from, nb, to, to}));
        m_.debug.push_back({node_debug(n), "", {}});
        return Error::Ok;
      }
      case ControlOp::CopyIndex: {  // dst[index] = src (map results), upstream's prim kernel
        const NamedArgument* src = n.find_input("src");
        const NamedArgument* dst = n.find_input("dst");
        const NamedArgument* index = n.find_input("index");
        if (src == nullptr || dst == nullptr || index == nullptr) {
          return invalid_program("copy_index without src/dst/index");
        }
        EMBER_ASSIGN_OR_RETURN(int32_t from, emit_arg(src->arg, false));
        EMBER_ASSIGN_OR_RETURN(int32_t to, emit_arg(dst->arg, false));
        EMBER_ASSIGN_OR_RETURN(int32_t at, emit_arg(index->arg, false));
        m_.instructions.push_back(EmitInstruction::kernel(
            operator_index("executorch_prim::et_copy_index", "tensor"), {to, from, at}));
        m_.debug.push_back({node_debug(n), "", {}});
        return Error::Ok;
      }
      case ControlOp::Move: {
        const NamedArgument* src = n.find_input("src");
        const NamedArgument* dst = n.find_input("dst");
        if (src == nullptr || dst == nullptr) return invalid_program("move without src/dst");
        EMBER_ASSIGN_OR_RETURN(int32_t from, emit_arg(src->arg, false));
        EMBER_ASSIGN_OR_RETURN(int32_t to, emit_arg(dst->arg, false));
        m_.instructions.push_back(EmitInstruction::move(from, to));
        m_.debug.push_back({node_debug(n), "", {}});
        return Error::Ok;
      }
    }
    return Error::Ok;
  }

  // Labels are instruction indices. A jump must land inside the chain (pte-format.md), so a
  // label at the very end gets a no-op to land on: a move of the constant false onto itself.
  Error resolve_jumps() {
    const int32_t end = static_cast<int32_t>(m_.instructions.size());
    for (auto& [label, at] : labels_) {
      if (at != end) continue;
      if (false_value_ < 0) false_value_ = push(EmitValue::of_bool(false));
      m_.instructions.push_back(EmitInstruction::move(false_value_, false_value_));
      EmitInstructionDebug d;  // the landing no-op of a jump to the end of the method
      d.origin.node = "label:" + label;
      m_.debug.push_back(std::move(d));
      break;
    }
    for (auto& [at, label] : jumps_) {
      auto it = labels_.find(label);
      if (it == labels_.end()) return invalid_program("jump to undefined label '" + label + "'");
      m_.instructions[at].target = it->second;
    }
    return Error::Ok;
  }

  Error emit_node(const Node& n) {
    bool control = false;
    EMBER_TRY(emit_control(n, &control));
    if (control) return Error::Ok;
    std::vector<int32_t> args;
    for (const NamedArgument& in : n.inputs) {
      EMBER_ASSIGN_OR_RETURN(int32_t idx, emit_arg(in.arg, plain_tensor_arg(n, in.name)));
      args.push_back(idx);
    }
    if (n.metadata.count(kDelegateBackendKey) != 0) return emit_delegate(n, std::move(args));
    std::vector<int32_t> outs;
    for (const Argument& o : n.outputs) {
      EMBER_ASSIGN_OR_RETURN(int32_t idx, emit_arg(o, false));
      outs.push_back(idx);
    }
    int32_t op;
    if (n.kind == NodeKind::Symbolic) {
      EMBER_ASSIGN_OR_RETURN(EmitOperator prim, prim_operator_for(n.op.name));
      op = operator_index(prim.name, prim.overload);
    } else {
      bool out_variant = is_out_variant_node(n);
      const bool scalar_read = is_scalar_read_op(n);
      if (!out_variant && !scalar_read) {
        return not_supported("op is not in out-variant form; run the to_executorch stage first");
      }
      // item() is upstream's prim kernel aten::_local_scalar_dense (the core-ATen spelling).
      op = n.op.name == "item" ? operator_index("aten::_local_scalar_dense", "")
                               : operator_index(n.op.ns + "::" + n.op.name, n.op.overload);
    }
    if (outs.empty()) return invalid_program("node has no outputs");
    bool out_variant = n.kind == NodeKind::Op && is_out_variant_node(n);
    if (out_variant) {
      args.insert(args.end(), outs.begin(), outs.end());
      if (outs.size() == 1) {
        args.push_back(outs[0]);
      } else {
        args.push_back(push(EmitValue::of_list(EmitValueKind::TensorList,
                                               std::vector<int64_t>(outs.begin(), outs.end()))));
      }
    } else {
      args.push_back(outs[0]);
    }
    m_.instructions.push_back(EmitInstruction::kernel(op, std::move(args)));
    m_.debug.push_back({node_debug(n), "", {}});
    return Error::Ok;
  }

  Error emit_delegate(const Node& n, std::vector<int32_t> args) {
    for (const Argument& o : n.outputs) {
      EMBER_ASSIGN_OR_RETURN(int32_t idx, emit_arg(o, false));
      args.push_back(idx);
    }
    EmitDelegate d;
    d.id = n.metadata.at(kDelegateBackendKey);
    auto blob = n.metadata.find(kDelegateBlobKey);
    if (blob != n.metadata.end()) d.processed.assign(blob->second.begin(), blob->second.end());
    auto specs = n.metadata.find(kDelegateCompileSpecsKey);
    if (specs != n.metadata.end()) {
      EMBER_ASSIGN_OR_RETURN(d.compile_specs, decode_compile_specs(specs->second));
    }
    auto named = n.metadata.find(kDelegateNamedDataKey);
    if (named != n.metadata.end()) {
      EMBER_ASSIGN_OR_RETURN(std::vector<NamedData> items, decode_named_data(named->second));
      EMBER_TRY_CONTEXT(add_named_data(std::move(items), &prog_->named_data), n.name);
    }
    EmitInstructionDebug debug{node_debug(n), d.id, {}, static_cast<int32_t>(n.outputs.size())};
    auto nodes = n.metadata.find(kDelegateNodesKey);
    if (nodes != n.metadata.end()) {
      EMBER_ASSIGN_OR_RETURN(debug.delegated, decode_delegated_nodes(nodes->second));
    }
    m_.delegates.push_back(std::move(d));
    m_.instructions.push_back(
        EmitInstruction::delegate(static_cast<int32_t>(m_.delegates.size() - 1), std::move(args)));
    m_.debug.push_back(std::move(debug));
    return Error::Ok;
  }

  const Graph& g_;
  EmitProgram* prog_;
  EmitMethod m_;
  std::vector<int32_t> index_;
  std::vector<ValueId> mutable_;
  int64_t arena_ = 0;
  int32_t false_value_ = -1;                                // the constant false of jumps
  std::vector<std::pair<size_t, std::string>> jumps_;      // instruction -> target label
  std::map<std::string, int32_t> labels_;                   // label -> instruction index
};

}  // namespace

Result<EmitProgram> emit_graph(const Graph& graph, const EmitGraphOptions& options) {
  EmitProgram program;
  MethodEmitter emitter(graph, &program);
  EMBER_ASSIGN_OR_RETURN(EmitMethod method, emitter.run(options.method_name));
  program.methods.push_back(std::move(method));
  return program;
}

}  // namespace ember::aot
