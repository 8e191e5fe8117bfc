// OutVariantPass (see out_variant_pass.h).
#include "aot/passes/out_variant_pass.h"

#include "aot/ir/op_schema.h"
#include "aot/ir/graph_rewrite.h"

namespace ember::aot {
namespace {

bool has_arg(const OpSchema& s, const char* name) { return s.arg_index(name) >= 0; }

bool is_tensor_option(const std::string& name) {
  return name == "dtype" || name == "layout" || name == "device" || name == "pin_memory";
}

Result<OpName> parse_out_name(const std::string& qualified, const Node& node) {
  size_t colons = qualified.find("::");
  size_t dot = qualified.rfind('.');
  if (colons == std::string::npos || dot == std::string::npos || dot < colons) {
    return fail(Error::Internal,
                  node.describe() + ": malformed out variant '" + qualified + "' in the schema table");
  }
  return OpName{qualified.substr(0, colons), qualified.substr(colons + 2, dot - colons - 2),
                qualified.substr(dot + 1)};
}

}  // namespace

Error OutVariantPass::run(Graph& graph) const {
  for (Node& n : graph.nodes()) {
    if (n.kind != NodeKind::Op || n.op.ns == "ember" || is_scalar_read_op(n) || is_out_variant_node(n)) {
      continue;  // symbolic ops, delegate calls and converted nodes stay as they are
    }
    const OpSchema* schema = nullptr;
    EMBER_ASSIGN_OR_RETURN(std::vector<Argument> args, bound_arguments(graph, n, &schema));
    if (schema->out_variant.empty()) {
      return not_supported(n.describe() + ": no out variant; OpSetCheckPass should have rejected it");
    }
    EMBER_ASSIGN_OR_RETURN(OpName out_name, parse_out_name(schema->out_variant, n));
    bool factory = has_arg(*schema, "layout") || has_arg(*schema, "device");
    std::vector<NamedArgument> inputs;
    for (size_t k = 0; k < schema->args.size(); ++k) {
      const ArgSchema& a = schema->args[k];
      if (factory && is_tensor_option(a.name)) continue;
      // A Tensor?[] argument is a list of optional tensors in the .pte even when torch
      // wrote every element as a plain tensor (index.Tensor with nonzero's columns, or
      // index.Tensor in the training IR): the kernel reads that tag.
      if (a.type.list && a.type.optional_elements && args[k].kind == ArgKind::TensorList) {
        args[k].kind = ArgKind::OptionalTensorList;
      }
      inputs.push_back({a.name, std::move(args[k]), a.kw_only});
    }
    n.inputs = std::move(inputs);
    n.op = out_name;
    n.target = "torch.ops." + out_name.ns + "." + out_name.name + "." + out_name.overload;
    n.metadata[kOutVariantKey] = schema->op.qualified();
  }
  return Error::Ok;
}

}  // namespace ember::aot
