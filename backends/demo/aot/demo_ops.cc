// find_demo_op and demo_support (see demo_ops.h).
#include "backends/demo/aot/demo_ops.h"

#include "backends/demo/runtime/bytecode_format.h"

namespace ember::backends::demo {
namespace {

constexpr DemoOp kOps[] = {
    {"aten::add.Tensor", 0x01, "add"},        {"aten::sub.Tensor", 0x02, "sub"},
    {"aten::mul.Tensor", 0x03, "mul"},        {"aten::div.Tensor", 0x04, "div"},
    {"aten::maximum.default", 0x05, "maximum"}, {"aten::minimum.default", 0x06, "minimum"},
    {"aten::mm.default", 0x10, "mm"},         {"aten::clone.default", 0x20, "clone"},
    {"aten::neg.default", 0x21, "neg"},       {"aten::relu.default", 0x22, "relu"},
    {"aten::sigmoid.default", 0x23, "sigmoid"}, {"aten::sin.default", 0x24, "sin"},
    {"aten::cos.default", 0x25, "cos"},       {"aten::tanh.default", 0x26, "tanh"},
    {"aten::exp.default", 0x27, "exp"},
};

// Empty when `v` is a float32 tensor of static shape the bytecode can hold, else why not.
std::string check_tensor(const aot::Graph& g, aot::ValueId v, const char* what) {
  if (!g.valid_id(v) || g.value(v).kind != aot::ValueKind::Tensor) {
    return std::string(what) + " is not a tensor";
  }
  const aot::TensorSpec& t = g.value(v).tensor;
  if (t.dtype != aot::ScalarType::Float) {
    return std::string(what) + " is " + aot::to_string(t.dtype) + ", only f32";
  }
  if (!t.is_static()) return std::string(what) + " has a symbolic shape " + t.to_string();
  if (t.rank() > kMaxRank) return std::string(what) + " has rank > 6";
  const int64_t numel = t.static_numel();
  if (numel < 0 || static_cast<uint64_t>(numel) > kMaxSlotNumel) {
    return std::string(what) + " has too many elements";
  }
  return "";
}

bool same_sizes(const aot::TensorSpec& a, const aot::TensorSpec& b) {
  if (a.rank() != b.rank()) return false;
  for (size_t d = 0; d < a.rank(); ++d) {
    if (a.sizes[d].value != b.sizes[d].value) return false;
  }
  return true;
}

aot::ValueId input_value(const aot::Node& n, const char* name) {
  const aot::NamedArgument* a = n.find_input(name);
  return a != nullptr && a->arg.kind == aot::ArgKind::Tensor ? a->arg.values[0] : aot::kNoValue;
}

}  // namespace

const DemoOp* find_demo_op(const aot::Node& node) {
  if (node.kind != aot::NodeKind::Op) return nullptr;
  const std::string q = node.op.qualified();
  for (const DemoOp& op : kOps) {
    if (q == op.aten) return &op;
  }
  return nullptr;
}

aot::Support demo_support(const aot::Node& node, const aot::Graph& g) {
  const DemoOp* op = find_demo_op(node);
  if (op == nullptr) return aot::Support::no("op not in the demo bytecode");
  if (node.outputs.size() != 1 || node.outputs[0].kind != aot::ArgKind::Tensor) {
    return aot::Support::no("needs exactly one tensor output");
  }
  const aot::ValueId out = node.outputs[0].values[0];
  std::string why = check_tensor(g, out, "output");
  if (!why.empty()) return aot::Support::no(why);
  for (const aot::NamedArgument& in : node.inputs) {
    if (in.name == "alpha") {
      const bool one = (in.arg.kind == aot::ArgKind::Int && in.arg.i == 1) ||
                       (in.arg.kind == aot::ArgKind::Float && in.arg.f == 1.0);
      if (!one) return aot::Support::no("alpha other than 1");
    } else if (in.name == "memory_format") {
      if (in.arg.kind != aot::ArgKind::None && !(in.arg.kind == aot::ArgKind::MemoryFormat &&
                                                  (in.arg.i == 1 || in.arg.i == 4))) {
        return aot::Support::no("clone to a non-contiguous memory format");
      }
    } else if (in.arg.kind != aot::ArgKind::Tensor) {
      return aot::Support::no("argument '" + in.name + "' is not a tensor");
    }
  }
  const aot::ValueId a = input_value(node, "self");
  why = check_tensor(g, a, "self");
  if (!why.empty()) return aot::Support::no(why);
  const aot::TensorSpec& ts = g.value(out).tensor;
  const aot::TensorSpec& ta = g.value(a).tensor;
  const OpClass cls = op_class(op->code);
  if (cls == OpClass::Unary) {
    return same_sizes(ta, ts) ? aot::Support::yes() : aot::Support::no("shape change");
  }
  const aot::ValueId b = input_value(node, cls == OpClass::Matmul ? "mat2" : "other");
  why = check_tensor(g, b, cls == OpClass::Matmul ? "mat2" : "other");
  if (!why.empty()) return aot::Support::no(why);
  const aot::TensorSpec& tb = g.value(b).tensor;
  if (cls == OpClass::Matmul) {
    if (ta.rank() != 2 || tb.rank() != 2 || ts.rank() != 2) return aot::Support::no("mm needs rank 2");
    return aot::Support::yes();
  }
  const bool a_ok = same_sizes(ta, ts) || ta.static_numel() == 1;
  const bool b_ok = same_sizes(tb, ts) || tb.static_numel() == 1;
  if (!a_ok || !b_ok) return aot::Support::no("broadcast other than a one-element operand");
  return aot::Support::yes();
}

}  // namespace ember::backends::demo
