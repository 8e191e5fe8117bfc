// Decomposition of aten::einsum for static shapes:
//   one operand:  permute (and sum over letters the output drops)
//   two operands: letters split into batch (both inputs and the output), left (first input
//   and output), right (second input and output) and contracted (both inputs, not the
//   output); then
//     a = view(permute(A, batch+left+contracted), [B, L, K])
//     b = view(permute(B, batch+contracted+right), [B, K, R])
//     out = permute(view(bmm(a, b), batch+left+right sizes), output order)
// Ellipses, repeated letters within one operand (diagonals), a letter only one input has
// that the output drops, and more than two operands are NotSupported.
#include <algorithm>
#include <cctype>

#include "aot/passes/decompositions.h"
#include "aot/ir/graph_rewrite.h"

namespace ember::aot {
namespace {

NamedArgument named(const char* name, Argument a) { return {name, std::move(a), false}; }

struct Equation {
  std::vector<std::string> inputs;
  std::string output;
};

Result<Equation> parse_equation(const std::string& text, const Node& node) {
  std::string eq;
  for (char c : text) {
    if (c != ' ') eq += c;
  }
  if (eq.find("...") != std::string::npos) {
    return not_supported(node.describe() + ": einsum with '...'");
  }
  Equation e;
  const size_t arrow = eq.find("->");
  const std::string lhs = eq.substr(0, arrow);
  size_t start = 0;
  while (true) {
    size_t comma = lhs.find(',', start);
    e.inputs.push_back(lhs.substr(start, comma - start));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  if (arrow != std::string::npos) {
    e.output = eq.substr(arrow + 2);
  } else {  // implicit output: letters used once, in alphabetical order
    std::string all;
    for (const auto& in : e.inputs) all += in;
    for (char c = 'A'; c <= 'z'; ++c) {
      if (std::count(all.begin(), all.end(), c) == 1) e.output += c;
    }
  }
  for (const std::string& s : e.inputs) {
    for (char c : s) {
      if (!std::isalpha(static_cast<unsigned char>(c)) || std::count(s.begin(), s.end(), c) != 1) {
        return not_supported(node.describe() + ": einsum operand '" + s +
                             "' (letters must be distinct within an operand)");
      }
    }
  }
  return e;
}

class Builder {
 public:
  Builder(Graph& g, const Node& node, Rewrite* rw) : g_(g), node_(node), rw_(rw) {}

  // permute(x, perm) unless perm is the identity.
  Result<ValueId> permute(ValueId x, const std::vector<int64_t>& perm) {
    bool identity = true;
    for (size_t i = 0; i < perm.size(); ++i) identity = identity && perm[i] == static_cast<int64_t>(i);
    if (identity) return x;
    const std::vector<SymInt>& in = g_.value(x).tensor.sizes;
    std::vector<SymInt> sizes;
    for (int64_t p : perm) sizes.push_back(in[static_cast<size_t>(p)]);
    EMBER_ASSIGN_OR_RETURN(ValueId y, new_tensor_like(g_, x, node_.name + "_perm", sizes));
    rw_->nodes.push_back(make_op_node("aten", "permute", "default",
                                      {named("self", Argument::tensor(x)),
                                       named("dims", Argument::int_list(perm))},
                                      {Argument::tensor(y)}, node_));
    return y;
  }

  Result<ValueId> view(ValueId x, const std::vector<int64_t>& sizes) {
    std::vector<SymInt> s;
    for (int64_t v : sizes) s.push_back(SymInt::of(v));
    EMBER_ASSIGN_OR_RETURN(ValueId y, new_tensor_like(g_, x, node_.name + "_view", s));
    rw_->nodes.push_back(make_op_node("aten", "view", "default",
                                      {named("self", Argument::tensor(x)),
                                       named("size", Argument::int_list(sizes))},
                                      {Argument::tensor(y)}, node_));
    return y;
  }

  Result<ValueId> op(const char* name, const char* ovl, std::vector<NamedArgument> args, ValueId like,
                     const std::vector<int64_t>& sizes) {
    std::vector<SymInt> s;
    for (int64_t v : sizes) s.push_back(SymInt::of(v));
    EMBER_ASSIGN_OR_RETURN(ValueId y, new_tensor_like(g_, like, node_.name + "_" + name, s));
    rw_->nodes.push_back(make_op_node("aten", name, ovl, std::move(args), {Argument::tensor(y)}, node_));
    return y;
  }

 private:
  Graph& g_;
  const Node& node_;
  Rewrite* rw_;
};

std::vector<int64_t> positions(const std::string& letters, const std::string& of) {
  std::vector<int64_t> out;
  for (char c : letters) out.push_back(static_cast<int64_t>(of.find(c)));
  return out;
}

int64_t product(const std::string& letters, const std::string& of, const std::vector<int64_t>& sizes) {
  int64_t p = 1;
  for (char c : letters) p *= sizes[of.find(c)];
  return p;
}

Result<std::vector<int64_t>> sizes_of(const Graph& g, ValueId v, const Node& node) {
  std::vector<int64_t> out;
  for (const SymInt& s : g.value(v).tensor.sizes) {
    if (!s.is_static) return not_supported(node.describe() + ": einsum over symbolic sizes");
    out.push_back(s.value);
  }
  return out;
}

Result<Rewrite> decompose_einsum(Graph& g, const Node& node) {
  Rewrite rw;
  const Argument* eq_arg = input_arg(node, "equation");
  const Argument* tensors = input_arg(node, "tensors");
  if (eq_arg == nullptr || tensors == nullptr) {
    return invalid_program(node.describe() + ": einsum needs equation and tensors");
  }
  EMBER_ASSIGN_OR_RETURN(Equation e, parse_equation(eq_arg->s, node));
  if (e.inputs.size() != tensors->values.size() || e.inputs.empty() || e.inputs.size() > 2) {
    return not_supported(node.describe() + ": einsum with " + std::to_string(tensors->values.size()) +
                         " operand(s) (one or two are lowered)");
  }
  Builder b(g, node, &rw);
  if (e.inputs.size() == 1) {
    const std::string& a = e.inputs[0];
    ValueId x = tensors->values[0];
    std::string dropped;
    for (char c : a) {
      if (e.output.find(c) == std::string::npos) dropped += c;
    }
    std::string kept;
    for (char c : a) {
      if (e.output.find(c) != std::string::npos) kept += c;
    }
    if (!dropped.empty()) {
      EMBER_ASSIGN_OR_RETURN(std::vector<int64_t> xs, sizes_of(g, x, node));
      std::vector<int64_t> ks;
      for (char c : kept) ks.push_back(xs[a.find(c)]);
      EMBER_ASSIGN_OR_RETURN(x, b.op("sum", "dim_IntList",
                                     {named("self", Argument::tensor(x)),
                                      named("dim", Argument::int_list(positions(dropped, a))),
                                      named("keepdim", Argument::boolean(false))},
                                     x, ks));
    }
    EMBER_ASSIGN_OR_RETURN(ValueId y, b.permute(x, positions(e.output, kept)));
    if (y == tensors->values[0]) {
      rw.alias_of = y;
      return rw;
    }
    rw.nodes.back().outputs = node.outputs;
    return rw;
  }
  const std::string &a = e.inputs[0], &bb = e.inputs[1];
  std::string batch, left, right, contracted;
  for (char c : e.output) {
    const bool in_a = a.find(c) != std::string::npos, in_b = bb.find(c) != std::string::npos;
    if (in_a && in_b) batch += c;
    else if (in_a) left += c;
    else if (in_b) right += c;
    else return invalid_program(node.describe() + ": einsum output letter '" + c + "' in no input");
  }
  for (char c : a) {
    const bool in_b = bb.find(c) != std::string::npos, in_out = e.output.find(c) != std::string::npos;
    if (in_b && !in_out) contracted += c;
    if (!in_b && !in_out) return not_supported(node.describe() + ": einsum letter summed in one operand");
  }
  for (char c : bb) {
    if (a.find(c) == std::string::npos && e.output.find(c) == std::string::npos) {
      return not_supported(node.describe() + ": einsum letter summed in one operand");
    }
  }
  ValueId x = tensors->values[0], y = tensors->values[1];
  EMBER_ASSIGN_OR_RETURN(std::vector<int64_t> xs, sizes_of(g, x, node));
  EMBER_ASSIGN_OR_RETURN(std::vector<int64_t> ys, sizes_of(g, y, node));
  for (char c : batch + contracted) {
    if (xs[a.find(c)] != ys[bb.find(c)]) {
      return not_supported(node.describe() + ": einsum with broadcast dims");
    }
  }
  const int64_t nb = product(batch, a, xs), nl = product(left, a, xs),
                nk = product(contracted, a, xs), nr = product(right, bb, ys);
  EMBER_ASSIGN_OR_RETURN(ValueId xp, b.permute(x, positions(batch + left + contracted, a)));
  EMBER_ASSIGN_OR_RETURN(ValueId x3, b.view(xp, {nb, nl, nk}));
  EMBER_ASSIGN_OR_RETURN(ValueId yp, b.permute(y, positions(batch + contracted + right, bb)));
  EMBER_ASSIGN_OR_RETURN(ValueId y3, b.view(yp, {nb, nk, nr}));
  EMBER_ASSIGN_OR_RETURN(ValueId z, b.op("bmm", "default",
                                         {named("self", Argument::tensor(x3)),
                                          named("mat2", Argument::tensor(y3))},
                                         x, {nb, nl, nr}));
  std::vector<int64_t> full;
  for (char c : batch + left) full.push_back(xs[a.find(c)]);
  for (char c : right) full.push_back(ys[bb.find(c)]);
  const std::string order = batch + left + right;
  const std::vector<int64_t> perm = positions(e.output, order);
  bool identity = true;
  for (size_t i = 0; i < perm.size(); ++i) identity = identity && perm[i] == static_cast<int64_t>(i);
  if (identity) {
    rw.nodes.push_back(make_op_node("aten", "view", "default",
                                    {named("self", Argument::tensor(z)),
                                     named("size", Argument::int_list(full))},
                                    node.outputs, node));
    return rw;
  }
  EMBER_ASSIGN_OR_RETURN(ValueId zf, b.view(z, full));
  rw.nodes.push_back(make_op_node("aten", "permute", "default",
                                  {named("self", Argument::tensor(zf)),
                                   named("dims", Argument::int_list(perm))},
                                  node.outputs, node));
  return rw;
}

}  // namespace

void add_einsum_decompositions(DecompositionTable* table) {
  (*table)["aten::einsum.default"] = &decompose_einsum;
}

}  // namespace ember::aot
