// convert_to_qdq (see convert.h).
#include "aot/quantize/convert.h"

#include <cmath>
#include <cstring>
#include <array>
#include <map>
#include <memory>

#include "aot/ir/graph_rewrite.h"
#include "aot/quantize/constant_input.h"

namespace ember::aot {
namespace {

constexpr int64_t kActMin = -128, kActMax = 127, kWeightMin = -127, kWeightMax = 127;

class Converter {
 public:
  Converter(const Graph& g, const QuantPlan& plan, const std::vector<GroupParams>& params)
      : src_(g), plan_(plan), params_(params), out_group_(g.num_values(), -1) {
    for (size_t i = 0; i < plan.specs.size(); ++i) {
      const int grp = plan.group_of[i];
      if (grp < 0) continue;
      const QuantKey& k = plan.specs[i].first;
      if (k.consumer < 0) out_group_[size_t(k.value)] = grp;
    }
    for (size_t i = 0; i < plan.specs.size(); ++i) {
      const int grp = plan.group_of[i];
      const QuantKey& k = plan.specs[i].first;
      if (grp < 0 || k.consumer < 0) continue;
      if (plan.groups[size_t(grp)].kind == ObserverKind::PerChannelMinMax) {
        weight_edge_[{k.value, k.consumer}] = grp;
      } else if (grp != out_group_[size_t(k.value)]) {
        act_edge_[{k.value, k.consumer}] = grp;
        edge_groups_of_[k.value].push_back(grp);
      }
    }
  }

  Result<Graph> run() {
    g_ = src_;
    g_.nodes().clear();
    const Node origin_for_inputs = src_.nodes().empty() ? Node() : src_.nodes()[0];
    for (const Argument& in : src_.inputs()) {
      const ValueId v = tensor_of(in);
      if (v != kNoValue) EMBER_TRY(quantize_outputs(v, origin_for_inputs));
    }
    for (size_t i = 0; i < src_.nodes().size(); ++i) {
      Node n = src_.nodes()[i];
      std::map<ValueId, ValueId> repl;
      for (NamedArgument& in : n.inputs) {
        for (ValueId& v : in.arg.values) {
          if (v == kNoValue || g_.value(v).kind != ValueKind::Tensor) continue;
          auto it = repl.find(v);
          if (it == repl.end()) {
            EMBER_ASSIGN_OR_RETURN(ValueId r, input_for(v, int(i), n));
            it = repl.emplace(v, r).first;
          }
          v = it->second;
        }
      }
      g_.nodes().push_back(n);
      for (const Argument& o : n.outputs) {
        const ValueId v = tensor_of(o);
        if (v != kNoValue) EMBER_TRY(quantize_outputs(v, n));
      }
    }
    for (Argument& o : g_.outputs()) {
      const ValueId v = tensor_of(o);
      if (v == kNoValue || out_group_[size_t(v)] < 0) continue;
      const Node& origin = g_.nodes().empty() ? origin_for_inputs : g_.nodes().back();
      EMBER_ASSIGN_OR_RETURN(ValueId dq, dequantize(q_out_.at(v), out_group_[size_t(v)], origin));
      o = Argument::tensor(dq);
      for (OutputSpec& spec : g_.signature().outputs) {
        if (spec.name == g_.value(v).name) spec.name = g_.value(dq).name;
      }
    }
    drop_unused_weights();
    return std::move(g_);
  }

 private:
  // The float weights the int8 constants replace (and folded batch norms' originals) are
  // no longer read: drop those inputs so they are not written to the program, as
  // torch.export of convert_pt2e's module does not write them.
  void drop_unused_weights() {
    const std::vector<int32_t> uses = use_counts(g_);
    std::vector<Argument> inputs;
    std::vector<InputSpec> specs;
    const bool paired = g_.signature().inputs.size() == g_.inputs().size();
    for (size_t i = 0; i < g_.inputs().size(); ++i) {
      const ValueId v = tensor_of(g_.inputs()[i]);
      const InputKind kind = paired ? g_.signature().inputs[i].kind : InputKind::UserInput;
      const bool lifted = kind == InputKind::Parameter || kind == InputKind::TensorConstant ||
                          (kind == InputKind::Buffer && paired && !g_.signature().inputs[i].persistent);
      if (v != kNoValue && lifted && uses[size_t(v)] == 0) continue;
      inputs.push_back(g_.inputs()[i]);
      if (paired) specs.push_back(g_.signature().inputs[i]);
    }
    g_.inputs() = std::move(inputs);
    if (paired) g_.signature().inputs = std::move(specs);
  }

  const AffineQParams& act(int grp) const { return params_[size_t(grp)].act; }

  Result<ValueId> add_like(ValueId v, ScalarType dtype, const std::string& base) {
    return add_tensor_value(g_, base, contiguous_spec(dtype, g_.value(v).tensor.sizes));
  }

  // quantize_per_tensor (int8 out) or dequantize_per_tensor (float out) of `v` with group
  // `grp`'s parameters.
  Result<ValueId> per_tensor(const char* op, ValueId v, ScalarType out_dtype, int grp,
                             const Node& origin) {
    EMBER_ASSIGN_OR_RETURN(ValueId out, add_like(v, out_dtype, op));
    const AffineQParams& p = act(grp);
    g_.nodes().push_back(make_op_node(
        "quantized_decomposed", op, "default",
        {{"input", Argument::tensor(v), false},
         {"scale", Argument::floating(double(p.scale)), false},
         {"zero_point", Argument::integer(p.zero_point), false},
         {"quant_min", Argument::integer(kActMin), false},
         {"quant_max", Argument::integer(kActMax), false},
         {"dtype", Argument::scalar_type(ScalarType::Char), false}},
        {Argument::tensor(out)}, origin));
    g_.nodes().back().name = g_.value(out).name;
    return out;
  }
  Result<ValueId> quantize(ValueId v, int grp, const Node& origin) {
    return per_tensor("quantize_per_tensor", v, ScalarType::Char, grp, origin);
  }
  Result<ValueId> dequantize(ValueId q, int grp, const Node& origin) {
    return per_tensor("dequantize_per_tensor", q, ScalarType::Float, grp, origin);
  }

  Error quantize_outputs(ValueId v, const Node& origin) {
    if (out_group_[size_t(v)] >= 0) {
      EMBER_ASSIGN_OR_RETURN(ValueId q, quantize(v, out_group_[size_t(v)], origin));
      q_out_[v] = q;
    }
    auto it = edge_groups_of_.find(v);
    if (it == edge_groups_of_.end()) return Error::Ok;
    for (int grp : it->second) {
      if (q_edge_.count({v, grp})) continue;
      ValueId src = v;
      if (out_group_[size_t(v)] >= 0) {
        EMBER_ASSIGN_OR_RETURN(src, dequantize(q_out_.at(v), out_group_[size_t(v)], origin));
      }
      EMBER_ASSIGN_OR_RETURN(ValueId q, quantize(src, grp, origin));
      q_edge_[{v, grp}] = q;
    }
    return Error::Ok;
  }

  Result<ValueId> constant(const std::string& base, ScalarType dtype, std::vector<int64_t> sizes,
                           std::vector<uint8_t> bytes, const std::string& source) {
    return add_constant_input(g_, base, dtype, sizes, std::move(bytes), source);
  }

  Result<ValueId> weight_constants(ValueId w, int grp, ValueId* scales_v, ValueId* zps_v) {
    auto it = weights_.find(w);
    if (it != weights_.end()) {
      *scales_v = it->second[1];
      *zps_v = it->second[2];
      return it->second[0];
    }
    const TensorSpec& ws = src_.value(w).tensor;
    const std::vector<float>& scales = params_[size_t(grp)].scales;
    std::vector<int64_t> sizes;
    for (const SymInt& s : ws.sizes) sizes.push_back(s.value);
    std::vector<float> data(size_t(ws.static_numel()));
    std::memcpy(data.data(), ws.constant->bytes.data(), data.size() * 4);
    std::vector<int8_t> q = quantize_weight_per_channel(data, scales, kWeightMin, kWeightMax);
    std::vector<uint8_t> qb(q.size()), sb(scales.size() * 4), zb(scales.size() * 8, 0);
    std::memcpy(qb.data(), q.data(), q.size());
    std::memcpy(sb.data(), scales.data(), sb.size());
    const std::string name = src_.value(w).name;
    EMBER_ASSIGN_OR_RETURN(ValueId qv, constant(name + "_int8", ScalarType::Char, sizes, std::move(qb),
                                                "int8 per channel of " + name));
    EMBER_ASSIGN_OR_RETURN(*scales_v, constant(name + "_scales", ScalarType::Float,
                                               {int64_t(scales.size())}, std::move(sb),
                                               "scales of " + name));
    EMBER_ASSIGN_OR_RETURN(*zps_v, constant(name + "_zero_points", ScalarType::Long,
                                            {int64_t(scales.size())}, std::move(zb),
                                            "zero points of " + name));
    weights_[w] = {qv, *scales_v, *zps_v};
    return qv;
  }

  Result<ValueId> input_for(ValueId v, int consumer, const Node& n) {
    auto we = weight_edge_.find({v, consumer});
    if (we != weight_edge_.end()) {
      const TensorSpec& ws = src_.value(v).tensor;
      if (ws.constant == nullptr || ws.dtype != ScalarType::Float || !ws.is_static() ||
          ws.rank() < 1) {
        return fail(Error::NotSupported, n.describe() + ": weight '" + src_.value(v).name +
                                             "' is not a constant float tensor; PTQ quantizes "
                                             "constant weights only");
      }
      if (int64_t(params_[size_t(we->second)].scales.size()) != ws.sizes[0].value) {
        return fail(Error::InvalidProgram,
                    n.describe() + ": per-channel scales for '" + src_.value(v).name + "' hold " +
                        std::to_string(params_[size_t(we->second)].scales.size()) +
                        " values, axis 0 has " + std::to_string(ws.sizes[0].value));
      }
      ValueId scales = kNoValue, zps = kNoValue;
      EMBER_ASSIGN_OR_RETURN(ValueId qv, weight_constants(v, we->second, &scales, &zps));
      EMBER_ASSIGN_OR_RETURN(ValueId d, add_like(qv, ScalarType::Float, "dequantize_per_channel"));
      g_.nodes().push_back(make_op_node(
          "quantized_decomposed", "dequantize_per_channel", "default",
          {{"input", Argument::tensor(qv), false},
           {"scales", Argument::tensor(scales), false},
           {"zero_points", Argument::tensor(zps), false},
           {"axis", Argument::integer(0), false},
           {"quant_min", Argument::integer(kWeightMin), false},
           {"quant_max", Argument::integer(kWeightMax), false},
           {"dtype", Argument::scalar_type(ScalarType::Char), false}},
          {Argument::tensor(d)}, n));
      g_.nodes().back().name = g_.value(d).name;
      return d;
    }
    auto ae = act_edge_.find({v, consumer});
    if (ae != act_edge_.end()) return dequantize(q_edge_.at({v, ae->second}), ae->second, n);
    if (out_group_[size_t(v)] >= 0) return dequantize(q_out_.at(v), out_group_[size_t(v)], n);
    return v;
  }

  const Graph& src_;
  const QuantPlan& plan_;
  const std::vector<GroupParams>& params_;
  Graph g_;
  std::vector<int> out_group_;
  std::map<std::pair<ValueId, int>, int> weight_edge_, act_edge_;
  std::map<ValueId, std::vector<int>> edge_groups_of_;
  std::map<ValueId, ValueId> q_out_;
  std::map<std::pair<ValueId, int>, ValueId> q_edge_;
  std::map<ValueId, std::array<ValueId, 3>> weights_;
};

}  // namespace

std::vector<int8_t> quantize_weight_per_channel(const std::vector<float>& w,
                                                const std::vector<float>& scales,
                                                int64_t quant_min, int64_t quant_max) {
  std::vector<int8_t> out(w.size());
  if (scales.empty()) return out;
  const size_t per = w.size() / scales.size();
  for (size_t c = 0; c < scales.size(); ++c) {
    const float inv = 1.0f / scales[c];
    for (size_t k = 0; k < per; ++k) {
      float q = std::nearbyint(w[c * per + k] * inv);
      q = std::fmin(std::fmax(q, float(quant_min)), float(quant_max));
      out[c * per + k] = int8_t(q);
    }
  }
  return out;
}

Result<Graph> convert_to_qdq(const Graph& graph, const QuantPlan& plan,
                             const std::vector<GroupParams>& params) {
  if (params.size() != plan.groups.size()) {
    return fail(Error::InvalidArgument, "convert_to_qdq: " + std::to_string(params.size()) +
                                            " parameter sets for " +
                                            std::to_string(plan.groups.size()) + " observer groups");
  }
  return Converter(graph, plan, params).run();
}

}  // namespace ember::aot
