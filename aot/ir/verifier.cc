// Graph verifier implementation (see verifier.h for the checked invariants).
#include "aot/ir/verifier.h"

#include <vector>

namespace ember::aot {
namespace {

class Verifier {
 public:
  Verifier(const Graph& g, const VerifyOptions& o)
      : g_(g), opts_(o), defined_(g.num_values(), false) {}

  Error run() {
    EMBER_TRY(check_signature());
    for (size_t i = 0; i < g_.inputs().size(); ++i) {
      EMBER_TRY_CONTEXT(define(g_.inputs()[i]), "graph input " + std::to_string(i));
    }
    for (size_t i = 0; i < g_.nodes().size(); ++i) {
      const Node& n = g_.nodes()[i];
      std::string where = "node " + std::to_string(i) + ": " + n.describe();
      for (const NamedArgument& in : n.inputs) {
        EMBER_TRY_CONTEXT(use(in.arg), where + ", argument '" + in.name + "'");
      }
      EMBER_TRY(check_schema(n, where));
      for (const Argument& out : n.outputs) {
        EMBER_TRY_CONTEXT(define(out), where + ", output");
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
