// Decompositions of the recurrent training-IR ops (issue #30) into core ATen, unrolled over
// the (static) sequence, as torch's own core-ATen decomposition does:
//   gru.input(x, hx, params, has_biases, layers, dropout, train=False, bidirectional, bf)
//   lstm.input(x, [h0, c0], params, ...)   (no projections: 2 or 4 params per layer/direction)
// Per layer and direction, the input projection of every step is one addmm over the whole
// sequence, G = X W_ih^T + b_ih ([steps*batch or batch*steps, gates*H]); then per step
// (reversed for the backward direction) gh = addmm(b_hh, h, W_hh^T) and
//   GRU:  r = sigmoid(gi_r + gh_r); z = sigmoid(gi_z + gh_z); n = tanh(gi_n + r * gh_n);
//         h = (h - n) * z + n
//   LSTM: g = gi + gh; i, f, o = sigmoid(g_i, g_f, g_o); c = f * c + i * tanh(g_g);
//         h = o * tanh(c)
// Each step's h is unsqueezed and the steps concatenated along the time dim; directions are
// concatenated along the feature dim and feed the next layer; h_n (and c_n) stack the last
// states [layers * directions, B, H]. The weight transposes are constant permutes, folded at
// lowering. With the xnnpack recipe every step runs inside one delegate (XNNPACK's
// fully-connected per step), not as separate kernel calls.
#include <string>

#include "aot/passes/decompositions.h"
#include "aot/ir/graph_rewrite.h"

namespace ember::aot {
namespace {

NamedArgument named(const char* name, Argument a) { return {name, std::move(a), false}; }

struct Builder {
  Graph& g;
  const Node& origin;
  Rewrite* rw;
  ValueId like;  // the dtype template

  Result<ValueId> fresh(const std::string& base, std::vector<int64_t> sizes) {
    std::vector<SymInt> s;
    for (int64_t v : sizes) s.push_back(SymInt::of(v));
    return new_tensor_like(g, like, base, s);
  }
  Result<ValueId> op(const char* name, const char* overload, std::vector<NamedArgument> in,
                     const std::string& base, std::vector<int64_t> sizes) {
    EMBER_ASSIGN_OR_RETURN(ValueId out, fresh(base, std::move(sizes)));
    rw->nodes.push_back(make_op_node("aten", name, overload, std::move(in), {Argument::tensor(out)},
                                     origin));
    return out;
  }
  void op_into(const char* name, const char* overload, std::vector<NamedArgument> in, ValueId out) {
    rw->nodes.push_back(make_op_node("aten", name, overload, std::move(in), {Argument::tensor(out)},
                                     origin));
  }
  Result<ValueId> unary(const char* name, ValueId x, const std::string& base, std::vector<int64_t> s) {
    return op(name, "default", {named("self", Argument::tensor(x))}, base, std::move(s));
  }
  Result<ValueId> binary(const char* name, ValueId a, ValueId b, const std::string& base,
                         std::vector<int64_t> s) {
    return op(name, "Tensor", {named("self", Argument::tensor(a)), named("other", Argument::tensor(b))},
              base, std::move(s));
  }
  Result<ValueId> slice(ValueId x, int64_t dim, int64_t start, int64_t end, std::vector<int64_t> s) {
    return op("slice", "Tensor",
              {named("self", Argument::tensor(x)), named("dim", Argument::integer(dim)),
               named("start", Argument::integer(start)), named("end", Argument::integer(end)),
               named("step", Argument::integer(1))},
              "rnn_gate", std::move(s));
  }
  // out = a @ w^T + b (b may be kNoValue): permute(w) then addmm / mm.
  Result<ValueId> linear(ValueId a, ValueId w, ValueId b, int64_t rows, int64_t n, int64_t k,
                         const std::string& base) {
    EMBER_ASSIGN_OR_RETURN(ValueId wt, op("permute", "default",
                                          {named("self", Argument::tensor(w)),
                                           named("dims", Argument::int_list({1, 0}))},
                                          "rnn_wt", {k, n}));
    if (b == kNoValue) {
      return op("mm", "default", {named("self", Argument::tensor(a)), named("mat2", Argument::tensor(wt))},
                base, {rows, n});
    }
    return op("addmm", "default",
              {named("self", Argument::tensor(b)), named("mat1", Argument::tensor(a)),
               named("mat2", Argument::tensor(wt))},
              base, {rows, n});
  }
};

Result<std::vector<int64_t>> static_sizes(const Graph& g, ValueId v, const Node& node) {
  std::vector<int64_t> out;
  for (const SymInt& s : g.value(v).tensor.sizes) {
    if (!s.is_static) return not_supported(node.describe() + ": recurrent layers need static shapes");
    out.push_back(s.value);
  }
  return out;
}

// Shared by gru.input and lstm.input: `gates` is 3 (GRU) or 4 (LSTM).
Result<Rewrite> decompose_rnn(Graph& g, const Node& node, int64_t gates) {
  Rewrite rw;
  const bool lstm = gates == 4;
  EMBER_ASSIGN_OR_RETURN(ValueId x, tensor_input(node, "input"));
  const Argument* hx = input_arg(node, "hx");
  const Argument* params = input_arg(node, "params");
  if (hx == nullptr || params == nullptr) return invalid_program(node.describe() + ": hx or params missing");
  auto flag = [&](const char* name, bool dflt) {
    const Argument* a = input_arg(node, name);
    return a == nullptr ? dflt : a->b;
  };
  const Argument* layers_arg = input_arg(node, "num_layers");
  const int64_t layers = layers_arg == nullptr ? 1 : layers_arg->i;
  const bool biases = flag("has_biases", true), bidir = flag("bidirectional", false);
  const bool batch_first = flag("batch_first", false);
  const Argument* dropout = input_arg(node, "dropout");
  if (flag("train", false) && dropout != nullptr && dropout->f != 0.0) {
    return not_supported(node.describe() + ": recurrent dropout in training mode; export the model in eval()");
  }
  const int64_t dirs = bidir ? 2 : 1;
  const size_t per = biases ? 4 : 2;
  if (params->values.size() != per * static_cast<size_t>(layers * dirs)) {
    return not_supported(node.describe() + ": " + std::to_string(params->values.size()) +
                         " parameters for " + std::to_string(layers) + " layer(s) x " +
                         std::to_string(dirs) + " direction(s) (projections, proj_size > 0, are not supported)");
  }
  std::vector<ValueId> h0s;  // [h0] or [h0, c0]
  if (lstm) {
    if (hx->values.size() != 2) return invalid_program(node.describe() + ": hx must be [h0, c0]");
    h0s = {hx->values[0], hx->values[1]};
  } else {
    EMBER_ASSIGN_OR_RETURN(ValueId h, tensor_input(node, "hx"));
    h0s = {h};
  }
  EMBER_ASSIGN_OR_RETURN(std::vector<int64_t> xs, static_sizes(g, x, node));
  if (xs.size() != 3) return not_supported(node.describe() + ": input must be 3-D (batched)");
  const int64_t steps = batch_first ? xs[1] : xs[0], batch = batch_first ? xs[0] : xs[1];
  const int64_t tdim = batch_first ? 1 : 0;
  EMBER_ASSIGN_OR_RETURN(std::vector<int64_t> whh, static_sizes(g, params->values[1], node));
  const int64_t hidden = whh[1];
  Builder b{g, node, &rw, x};

  ValueId layer_in = x;
  int64_t in_features = xs[2];
  std::vector<ValueId> last_h, last_c;
  for (int64_t l = 0; l < layers; ++l) {
    std::vector<ValueId> dir_out;
    for (int64_t d = 0; d < dirs; ++d) {
      const size_t p0 = per * static_cast<size_t>(l * dirs + d);
      const ValueId w_ih = params->values[p0], w_hh = params->values[p0 + 1];
      const ValueId b_ih = biases ? params->values[p0 + 2] : kNoValue;
      const ValueId b_hh = biases ? params->values[p0 + 3] : kNoValue;
      const std::string tag = "rnn_l" + std::to_string(l) + (d == 1 ? "_rev" : "");
      // The input projection of every step at once.
      EMBER_ASSIGN_OR_RETURN(ValueId flat, b.op("view", "default",
                                                {named("self", Argument::tensor(layer_in)),
                                                 named("size", Argument::int_list({steps * batch, in_features}))},
                                                tag + "_x", {steps * batch, in_features}));
      EMBER_ASSIGN_OR_RETURN(ValueId gi_all, b.linear(flat, w_ih, b_ih, steps * batch, gates * hidden,
                                                      in_features, tag + "_gi"));
      std::vector<int64_t> seq3 = batch_first ? std::vector<int64_t>{batch, steps, gates * hidden}
                                              : std::vector<int64_t>{steps, batch, gates * hidden};
      EMBER_ASSIGN_OR_RETURN(ValueId gi_seq, b.op("view", "default",
                                                  {named("self", Argument::tensor(gi_all)),
                                                   named("size", Argument::int_list(seq3))},
                                                  tag + "_gi_seq", seq3));
      const int64_t slot = l * dirs + d;
      EMBER_ASSIGN_OR_RETURN(ValueId h, b.op("select", "int",
                                             {named("self", Argument::tensor(h0s[0])),
                                              named("dim", Argument::integer(0)),
                                              named("index", Argument::integer(slot))},
                                             tag + "_h0", {batch, hidden}));
      ValueId c = kNoValue;
      if (lstm) {
        EMBER_ASSIGN_OR_RETURN(c, b.op("select", "int",
                                       {named("self", Argument::tensor(h0s[1])),
                                        named("dim", Argument::integer(0)),
                                        named("index", Argument::integer(slot))},
                                       tag + "_c0", {batch, hidden}));
      }
      std::vector<ValueId> outs(static_cast<size_t>(steps));
      const std::vector<int64_t> bh = {batch, hidden};
      for (int64_t k = 0; k < steps; ++k) {
        const int64_t t = d == 0 ? k : steps - 1 - k;
        EMBER_ASSIGN_OR_RETURN(ValueId gi, b.op("select", "int",
                                                {named("self", Argument::tensor(gi_seq)),
                                                 named("dim", Argument::integer(tdim)),
                                                 named("index", Argument::integer(t))},
                                                tag + "_gi_t", {batch, gates * hidden}));
        EMBER_ASSIGN_OR_RETURN(ValueId gh, b.linear(h, w_hh, b_hh, batch, gates * hidden, hidden,
                                                    tag + "_gh"));
        if (lstm) {
          EMBER_ASSIGN_OR_RETURN(ValueId sum, b.binary("add", gi, gh, tag + "_g", {batch, gates * hidden}));
          ValueId gate[4];
          for (int64_t q = 0; q < 4; ++q) {
            EMBER_ASSIGN_OR_RETURN(ValueId s, b.slice(sum, 1, q * hidden, (q + 1) * hidden, bh));
            EMBER_ASSIGN_OR_RETURN(gate[q], b.unary(q == 2 ? "tanh" : "sigmoid", s, tag + "_act", bh));
          }
          EMBER_ASSIGN_OR_RETURN(ValueId fc, b.binary("mul", gate[1], c, tag + "_fc", bh));
          EMBER_ASSIGN_OR_RETURN(ValueId ig, b.binary("mul", gate[0], gate[2], tag + "_ig", bh));
          EMBER_ASSIGN_OR_RETURN(c, b.binary("add", fc, ig, tag + "_c", bh));
          EMBER_ASSIGN_OR_RETURN(ValueId tc, b.unary("tanh", c, tag + "_tc", bh));
          EMBER_ASSIGN_OR_RETURN(h, b.binary("mul", gate[3], tc, tag + "_h", bh));
        } else {
          ValueId ig[3], hg[3];
          for (int64_t q = 0; q < 3; ++q) {
            EMBER_ASSIGN_OR_RETURN(ig[q], b.slice(gi, 1, q * hidden, (q + 1) * hidden, bh));
            EMBER_ASSIGN_OR_RETURN(hg[q], b.slice(gh, 1, q * hidden, (q + 1) * hidden, bh));
          }
          EMBER_ASSIGN_OR_RETURN(ValueId rs, b.binary("add", hg[0], ig[0], tag + "_rs", bh));
          EMBER_ASSIGN_OR_RETURN(ValueId r, b.unary("sigmoid", rs, tag + "_r", bh));
          EMBER_ASSIGN_OR_RETURN(ValueId zs, b.binary("add", hg[1], ig[1], tag + "_zs", bh));
          EMBER_ASSIGN_OR_RETURN(ValueId z, b.unary("sigmoid", zs, tag + "_z", bh));
          EMBER_ASSIGN_OR_RETURN(ValueId rn, b.binary("mul", hg[2], r, tag + "_rn", bh));
          EMBER_ASSIGN_OR_RETURN(ValueId ns, b.binary("add", ig[2], rn, tag + "_ns", bh));
          EMBER_ASSIGN_OR_RETURN(ValueId n, b.unary("tanh", ns, tag + "_n", bh));
          EMBER_ASSIGN_OR_RETURN(ValueId hn, b.binary("sub", h, n, tag + "_hn", bh));
          EMBER_ASSIGN_OR_RETURN(ValueId hz, b.binary("mul", hn, z, tag + "_hz", bh));
          EMBER_ASSIGN_OR_RETURN(h, b.binary("add", hz, n, tag + "_h", bh));
        }
        std::vector<int64_t> one = batch_first ? std::vector<int64_t>{batch, 1, hidden}
                                               : std::vector<int64_t>{1, batch, hidden};
        EMBER_ASSIGN_OR_RETURN(outs[static_cast<size_t>(t)],
                               b.op("unsqueeze", "default",
                                    {named("self", Argument::tensor(h)), named("dim", Argument::integer(tdim))},
                                    tag + "_out_t", one));
      }
      std::vector<int64_t> seq = batch_first ? std::vector<int64_t>{batch, steps, hidden}
                                             : std::vector<int64_t>{steps, batch, hidden};
      EMBER_ASSIGN_OR_RETURN(ValueId cat, b.op("cat", "default",
                                               {named("tensors", Argument::tensor_list(outs)),
                                                named("dim", Argument::integer(tdim))},
                                               tag + "_out", seq));
      dir_out.push_back(cat);
      last_h.push_back(h);
      if (lstm) last_c.push_back(c);
    }
    in_features = dirs * hidden;
    std::vector<int64_t> seq = batch_first ? std::vector<int64_t>{batch, steps, in_features}
                                           : std::vector<int64_t>{steps, batch, in_features};
    if (dirs == 1) {
      layer_in = dir_out[0];
    } else {
      EMBER_ASSIGN_OR_RETURN(layer_in, b.op("cat", "default",
                                            {named("tensors", Argument::tensor_list(dir_out)),
                                             named("dim", Argument::integer(2))},
                                            "rnn_bidir_out", seq));
    }
  }
  // Outputs: the last layer's sequence, then h_n (and c_n) stacked over layers x directions.
  // The exported output specs are taken as contiguous (torch 2.6's LSTM export declares a
  // time-major dim order and h/c shapes [L*D, 1, B, H]: same elements, defined here by a view).
  auto define = [&](ValueId src, const std::vector<int64_t>& src_sizes, size_t k) -> Error {
    const ValueId out = node_output(node, k);
    if (out == kNoValue) return Error::Ok;
    TensorSpec& spec = g.value(out).tensor;
    spec.dim_order.clear();
    for (size_t i = 0; i < spec.sizes.size(); ++i) spec.dim_order.push_back(static_cast<uint8_t>(i));
    spec.strides.clear();
    int64_t numel = 1;
    for (int64_t v : src_sizes) numel *= v;
    if (spec.static_numel() != numel) {
      return invalid_program(node.describe() + ": output " + std::to_string(k) + " is " +
                             spec.to_string() + ", the recurrence gives " + std::to_string(numel) + " elements");
    }
    int64_t stride = 1;
    spec.strides.assign(spec.sizes.size(), SymInt::of(1));
    for (size_t i = spec.sizes.size(); i-- > 0;) {
      spec.strides[i] = SymInt::of(stride);
      stride *= spec.sizes[i].value;
    }
    std::vector<int64_t> want;
    for (const SymInt& s : spec.sizes) want.push_back(s.value);
    if (want == src_sizes) {
      b.op_into("clone", "default", {named("self", Argument::tensor(src))}, out);
    } else {
      b.op_into("view", "default", {named("self", Argument::tensor(src)), named("size", Argument::int_list(want))},
                out);
    }
    return Error::Ok;
  };
  std::vector<int64_t> seq_out = batch_first ? std::vector<int64_t>{batch, steps, dirs * hidden}
                                             : std::vector<int64_t>{steps, batch, dirs * hidden};
  EMBER_TRY(define(layer_in, seq_out, 0));
  for (size_t k = 0; k < (lstm ? 2u : 1u); ++k) {
    std::vector<ValueId> parts;
    for (ValueId v : k == 0 ? last_h : last_c) {
      EMBER_ASSIGN_OR_RETURN(ValueId u, b.op("unsqueeze", "default",
                                             {named("self", Argument::tensor(v)), named("dim", Argument::integer(0))},
                                             "rnn_last", {1, batch, hidden}));
      parts.push_back(u);
    }
    const std::vector<int64_t> stacked = {layers * dirs, batch, hidden};
    EMBER_ASSIGN_OR_RETURN(ValueId st, b.op("cat", "default",
                                            {named("tensors", Argument::tensor_list(parts)),
                                             named("dim", Argument::integer(0))},
                                            k == 0 ? "rnn_h_n" : "rnn_c_n", stacked));
    EMBER_TRY(define(st, stacked, k + 1));
  }
  return rw;
}

Result<Rewrite> decompose_gru(Graph& g, const Node& node) { return decompose_rnn(g, node, 3); }
Result<Rewrite> decompose_lstm(Graph& g, const Node& node) { return decompose_rnn(g, node, 4); }

}  // namespace

void add_rnn_decompositions(DecompositionTable* table) {
  (*table)["aten::gru.input"] = &decompose_gru;
  (*table)["aten::lstm.input"] = &decompose_lstm;
}

}  // namespace ember::aot
