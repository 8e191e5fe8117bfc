// Graph verifier implementation (see verifier.h for the checked invariants).
#include "aot/ir/verifier.h"

#include <optional>
#include <vector>

namespace ember::aot {
namespace {

constexpr size_t kMaxTensorRank = 16;  // the runtime's kMaxTensorDims

class Verifier {
 public:
  Verifier(const Graph& g, const VerifyOptions& o)
      : g_(g), opts_(o), defined_(g.num_values(), false) {}

  Error run() {
    EMBER_TRY(check_signature());
    for (size_t i = 0; i < g_.inputs().size(); ++i) {
      EMBER_TRY_CONTEXT(define(g_.inputs()[i]), "graph input " + std::to_string(i));
      EMBER_TRY_CONTEXT(check_tensors(g_.inputs()[i]), "graph input " + std::to_string(i));
    }
    for (size_t i = 0; i < g_.nodes().size(); ++i) {
      const Node& n = g_.nodes()[i];
      std::string where = "node " + std::to_string(i) + ": " + n.describe();
      for (const NamedArgument& in : n.inputs) {
        EMBER_TRY_CONTEXT(use(in.arg), where + ", argument '" + in.name + "'");
      }
      EMBER_TRY(check_schema(n, where));
      for (const Argument& out : n.outputs) {
        if (writes_its_self(n, out)) continue;  // an out variant writing a buffer in place
        EMBER_TRY_CONTEXT(define(out), where + ", output");
        EMBER_TRY_CONTEXT(check_tensors(out), where + ", output");
      }
    }
    for (size_t i = 0; i < g_.outputs().size(); ++i) {
      EMBER_TRY_CONTEXT(use(g_.outputs()[i]), "graph output " + std::to_string(i));
    }
    return Error::Ok;
  }

 private:
  Error check_signature() {
    const GraphSignature& sig = g_.signature();
    if (!sig.inputs.empty() && sig.inputs.size() != g_.inputs().size()) {
      return invalid_program("signature has " + std::to_string(sig.inputs.size()) +
                             " input specs for " + std::to_string(g_.inputs().size()) +
                             " graph inputs");
    }
    if (!sig.outputs.empty() && sig.outputs.size() != g_.outputs().size()) {
      return invalid_program("signature has " + std::to_string(sig.outputs.size()) +
                             " output specs for " + std::to_string(g_.outputs().size()) +
                             " graph outputs");
    }
    return Error::Ok;
  }

  Error check_ref(ValueId id, ArgKind kind) {
    if (!g_.valid_id(id))
      return invalid_program("value id " + std::to_string(id) + " is out of range");
    const Value& v = g_.value(id);
    bool ok = true;
    if (kind == ArgKind::Tensor || kind == ArgKind::TensorList ||
        kind == ArgKind::OptionalTensorList) {
      ok = v.kind == ValueKind::Tensor || v.kind == ValueKind::None;
    } else if (kind == ArgKind::SymInt || kind == ArgKind::SymIntList) {
      ok = v.kind == ValueKind::SymInt;
    }
    if (!ok) {
      return invalid_program("value '" + v.name + "' is a " + to_string(v.kind) + ", used as " +
                             to_string(kind));
    }
    return Error::Ok;
  }

  // The executorch dialect's in-place form (ReinplaceBufferWritesPass): an out-variant node
  // whose out is its own first argument, a graph input (a mutable buffer) already defined.
  bool writes_its_self(const Node& n, const Argument& out) const {
    if (n.metadata.count("ember.out_variant") == 0 || n.inputs.empty()) return false;
    if (out.kind != ArgKind::Tensor || out.values.size() != 1) return false;
    const Argument& self = n.inputs[0].arg;
    if (self.kind != ArgKind::Tensor || self.values.size() != 1 ||
        self.values[0] != out.values[0]) {
      return false;
    }
    for (const Argument& in : g_.inputs()) {
      if (in.kind == ArgKind::Tensor && in.values.size() == 1 && in.values[0] == out.values[0])
        return true;
    }
    return false;
  }

  template <typename F>
  Error for_each_ref(const Argument& a, F f) {
    for (ValueId id : a.values) {
      if (id == kNoValue) continue;  // None in Tensor?[] / literal in SymInt[]
      EMBER_TRY(check_ref(id, a.kind));
      EMBER_TRY(f(id));
    }
    return Error::Ok;
  }

  Error use(const Argument& a) {
    return for_each_ref(a, [&](ValueId id) {
      if (!defined_[static_cast<size_t>(id)]) {
        return invalid_program("value '" + g_.value(id).name +
                               "' is used before it is defined (graph not in topological order?)");
      }
      return Error::Ok;
    });
  }

  Error define(const Argument& a) {
    return for_each_ref(a, [&](ValueId id) {
      if (defined_[static_cast<size_t>(id)]) {
        return invalid_program("value '" + g_.value(id).name + "' is defined twice");
      }
      defined_[static_cast<size_t>(id)] = true;
      return Error::Ok;
    });
  }

  Error check_tensors(const Argument& a) {
    for (ValueId id : a.values) {
      if (id == kNoValue || !g_.valid_id(id) || g_.value(id).kind != ValueKind::Tensor) continue;
      EMBER_TRY(check_tensor_spec(g_.value(id)));
    }
    return Error::Ok;
  }

  // What the runtime's loader requires of every tensor (runtime/executor/tensor_parser.cc),
  // checked on the graph so a broken spec is named here, at the node, instead of failing the
  // emitted .pte's self-check: a known dtype, rank <= 16, sizes >= 0 with an upper bound,
  // strides that fit int32 (the product of the sizes, zeros and ones aside, <= INT32_MAX),
  // dim_order a permutation of the dims, and constant data as long as the tensor.
  Error check_tensor_spec(const Value& v) {
    const TensorSpec& t = v.tensor;
    const std::string what = "value '" + v.name + "' " + t.to_string();
    if (t.dtype == ScalarType::Undefined && t.sizes.empty() && t.constant == nullptr) {
      return Error::Ok;  // no metadata (yet): nothing to check
    }
    if (element_size(t.dtype) == 0) {
      return invalid_program(what + ": unknown dtype (code " + std::to_string(int(t.dtype)) + ")");
    }
    if (t.rank() > kMaxTensorRank) {
      return invalid_program(what + ": rank " + std::to_string(t.rank()) + ", the runtime's limit is " +
                             std::to_string(kMaxTensorRank));
    }
    if (!t.dim_order.empty()) {
      uint32_t seen = 0;
      bool permutation = t.dim_order.size() == t.rank();
      for (uint8_t d : t.dim_order) {
        if (d >= t.rank() || (seen & (1u << d)) != 0) permutation = false;
        if (d < 32) seen |= 1u << d;
      }
      if (!permutation) return invalid_program(what + ": dim_order is not a permutation of its dims");
    }
    uint64_t span = 1;
    for (size_t d = 0; d < t.rank(); ++d) {
      const SymInt& s = t.sizes[d];
      const std::optional<int64_t> bound = s.is_static ? std::optional<int64_t>(s.value) : s.range.max;
      if (s.is_static && s.value < 0) {
        return invalid_program(what + ": negative size " + std::to_string(s.value) + " in dim " + std::to_string(d));
      }
      if (!bound.has_value() || *bound < 0) continue;  // unbounded: the emitter names it (NotSupported)
      if (*bound > 1) span *= uint64_t(*bound);
      if (span > uint64_t(INT32_MAX)) {
        return invalid_program(what + ": more than " + std::to_string(INT32_MAX) +
                               " elements (the runtime's int32 strides overflow)");
      }
    }
    if (t.constant != nullptr) {
      const int64_t nbytes = t.static_nbytes();
      if (nbytes >= 0 && t.constant->bytes.size() != uint64_t(nbytes)) {
        return invalid_program(what + ": constant data has " + std::to_string(t.constant->bytes.size()) +
                               " bytes, the tensor needs " + std::to_string(nbytes));
      }
    }
    return Error::Ok;
  }

  Error check_schema(const Node& n, const std::string& where) {
    if (n.kind == NodeKind::Symbolic) {
      if (n.outputs.size() != 1) {
        return invalid_program(where + ": symbolic op must have one output, has " +
                               std::to_string(n.outputs.size()));
      }
      return Error::Ok;
    }
    const OpSchema* schema =
        opts_.schemas != nullptr ? opts_.schemas->find(n.op) : find_op_schema(g_, n.op);
    if (schema == nullptr) {
      if (!opts_.require_schemas) return Error::Ok;
      return fail(Error::OperatorMissing, where + ": no schema for operator " +
                                                      n.op.qualified() +
                                                      " (Ember does not know this operator)");
    }
    auto bound = bind_arguments(*schema, n);
    if (!bound.ok()) return bound.error();
    if (n.outputs.size() != schema->returns.size()) {
      return invalid_program(where + ": has " + std::to_string(n.outputs.size()) +
                             " outputs, schema " + schema->to_string() + " returns " +
                             std::to_string(schema->returns.size()));
    }
    return Error::Ok;
  }

  const Graph& g_;
  VerifyOptions opts_;
  std::vector<bool> defined_;
};

}  // namespace

Error verify_graph(const Graph& graph, const VerifyOptions& options) {
  return Verifier(graph, options).run();
}

}  // namespace ember::aot
