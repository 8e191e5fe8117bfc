// QuantizeLinearPass (see quantize_linear_pass.h).
#include "aot/passes/quantize_linear_pass.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <memory>
#include <utility>
#include <vector>

#include "aot/ir/graph_rewrite.h"
#include "aot/ir/graph_util.h"
#include "aot/passes/constant_weights.h"
#include "aot/passes/linear_views.h"

namespace ember::aot {
namespace {

NamedArgument named(const char* name, Argument a) { return {name, std::move(a), false}; }

// A static finite float32 [N, K] constant, or false.
bool quantizable(const TensorSpec& s, int64_t group) {
  if (s.constant == nullptr || !s.is_static() || s.dtype != ScalarType::Float || s.rank() != 2 ||
      s.static_numel() <= 0 || int64_t(s.constant->bytes.size()) != s.static_nbytes()) {
    return false;
  }
  if (group != 0 && s.sizes[1].value % group != 0) return false;
  const float* w = reinterpret_cast<const float*>(s.constant->bytes.data());
  for (int64_t i = 0; i < s.static_numel(); ++i) {
    if (!std::isfinite(w[i])) return false;
  }
  return true;
}

struct Quantized {
  std::shared_ptr<ConstantData> q, scales;
  ScalarType q_dtype;
  std::vector<int64_t> q_sizes, scale_sizes;
};

Quantized quantize(const ConstantData& c, int64_t n, int64_t k, int64_t group) {
  std::vector<float> w(size_t(n * k));
  std::memcpy(w.data(), c.bytes.data(), w.size() * 4);
  Quantized out;
  out.q = std::make_shared<ConstantData>();
  out.scales = std::make_shared<ConstantData>();
  std::vector<float> scales;
  if (group == 0) {
    out.q_dtype = ScalarType::Char;
    out.q_sizes = {n, k};
    out.scale_sizes = {n};
    out.q->bytes.resize(size_t(n * k));
    out.q->source = c.source + " (int8 per channel)";
    for (int64_t j = 0; j < n; ++j) {
      float m = 0.f;
      for (int64_t i = 0; i < k; ++i) m = std::max(m, std::fabs(w[size_t(j * k + i)]));
      const float s = m > 0.f ? m / 127.f : 1.f;
      scales.push_back(s);
      for (int64_t i = 0; i < k; ++i) {
        const long q = std::lround(double(w[size_t(j * k + i)]) / double(s));
        out.q->bytes[size_t(j * k + i)] = uint8_t(int8_t(std::clamp<long>(q, -127, 127)));
      }
    }
  } else {
    out.q_dtype = ScalarType::Byte;
    out.q_sizes = {n, k / 2};
    out.scale_sizes = {n, k / group};
    out.q->bytes.assign(size_t(n * k / 2), 0);
    out.q->source = c.source + " (4-bit per block of " + std::to_string(group) + ")";
    for (int64_t j = 0; j < n; ++j) {
      for (int64_t b = 0; b < k / group; ++b) {
        const float* src = w.data() + j * k + b * group;
        float m = 0.f;  // the value of largest magnitude, with its sign
        for (int64_t i = 0; i < group; ++i) {
          if (std::fabs(src[i]) > std::fabs(m)) m = src[i];
        }
        const float d = m != 0.f ? m / -8.f : 1.f;
        scales.push_back(d);
        for (int64_t i = 0; i < group; ++i) {
          const long q = std::clamp<long>(std::lround(double(src[i]) / double(d)), -8, 7);
          const int64_t c = b * group + i;  // input channel; runs of 32: byte = c, c + 16
          uint8_t& byte = out.q->bytes[size_t(j * (k / 2) + (c / 32) * 16 + (c % 16))];
          byte |= (c % 32) < 16 ? uint8_t(q + 8) : uint8_t((q + 8) << 4);
        }
      }
    }
  }
  out.scales->bytes.resize(scales.size() * 4);
  std::memcpy(out.scales->bytes.data(), scales.data(), scales.size() * 4);
  out.scales->source = c.source + " (weight scales)";
  return out;
}

struct Match {
  size_t node;
  ValueId x, w, wt, bias;  // wt: the permute's output, kNoValue for linear
};

}  // namespace

Error QuantizeLinearPass::run(Graph& graph) const {
  if (group_size_ != 0 && group_size_ != 32 && group_size_ != 64 && group_size_ != 128) {
    return invalid_argument("quantize_linear: group size " + std::to_string(group_size_) +
                            " is not 32, 64 or 128");
  }
  const std::vector<int> producer = value_producers(graph);
  const std::vector<int32_t> uses = use_counts(graph);
  const ValueUses users = compute_uses(graph);
  std::vector<Match> matches;
  std::map<ValueId, int32_t> rewritten_reads;  // per weight: reads through the matched nodes
  for (size_t i = 0; i < graph.nodes().size(); ++i) {
    const Node& n = graph.nodes()[i];
    if (n.outputs.size() != 1) continue;
    Match m{i, kNoValue, kNoValue, kNoValue, kNoValue};
    if (is_aten_op(n, "linear", "default")) {
      m.x = optional_tensor_input(n, "input");
      m.w = optional_tensor_input(n, "weight");
      m.bias = optional_tensor_input(n, "bias");
    } else if (is_aten_op(n, "mm", "default") || is_aten_op(n, "addmm", "default")) {
      const bool addmm = is_aten_op(n, "addmm", "default");
      m.x = optional_tensor_input(n, addmm ? "mat1" : "self");
      m.wt = optional_tensor_input(n, "mat2");
      if (m.wt == kNoValue) continue;
      m.w = transposed_constant(graph, producer, m.wt);
      if (addmm) {
        if (!is_one(n, "beta") || !is_one(n, "alpha")) continue;
        m.bias = optional_tensor_input(n, "self");
        if (m.bias == kNoValue) continue;
      }
    } else {
      continue;
    }
    if (m.x == kNoValue || m.w == kNoValue) continue;
    const TensorSpec& ws = graph.value(m.w).tensor;
    if (!quantizable(ws, group_size_)) continue;
    const TensorSpec& xs = graph.value(m.x).tensor;
    if (xs.dtype != ScalarType::Float || xs.rank() < 1) continue;
    if (m.bias != kNoValue) {
      const TensorSpec& bs = graph.value(m.bias).tensor;
      if (bs.dtype != ScalarType::Float || bs.rank() != 1 || !bs.sizes[0].is_static ||
          bs.sizes[0].value != ws.sizes[0].value) {
        continue;
      }
    }
    matches.push_back(m);
  }
  if (matches.empty()) return Error::Ok;
  // Reads of each weight that go away: a linear's direct read, or a permute read only by
  // matched nodes (then the permute goes too).
  std::map<ValueId, int32_t> permute_reads;
  for (const Match& m : matches) {
    if (m.wt == kNoValue) {
      ++rewritten_reads[m.w];
    } else {
      ++permute_reads[m.wt];
    }
  }
  std::vector<bool> drop(graph.nodes().size(), false);
  for (const auto& [wt, count] : permute_reads) {
    bool is_output = false;
    for (const Argument& out : graph.outputs()) is_output = is_output || tensor_of(out) == wt;
    if (count == uses[size_t(wt)] && !is_output) {
      drop[size_t(producer[size_t(wt)])] = true;
      ++rewritten_reads[transposed_constant(graph, producer, wt)];
    }
  }
  std::map<ValueId, std::pair<ValueId, ValueId>> done;  // weight -> (quantized, scales)
  for (const Match& m : matches) {
    auto it = done.find(m.w);
    if (it == done.end()) {
      const std::string base = graph.value(m.w).name;
      const TensorSpec& ws = graph.value(m.w).tensor;
      const int64_t n = ws.sizes[0].value, k = ws.sizes[1].value;
      Quantized qz = quantize(*ws.constant, n, k, group_size_);
      bool is_output = false;
      for (const Argument& out : graph.outputs()) is_output = is_output || tensor_of(out) == m.w;
      ValueId qv = m.w;
      if (!is_output && rewritten_reads[m.w] == uses[size_t(m.w)]) {  // no float reader left
        TensorSpec q = contiguous_spec(qz.q_dtype, static_sizes(qz.q_sizes));
        q.constant = std::move(qz.q);
        graph.value(m.w).tensor = std::move(q);
      } else {
        EMBER_ASSIGN_OR_RETURN(qv, add_constant_parameter(graph, base + (group_size_ ? "_q4" : "_q8"),
                                                 qz.q_dtype, qz.q_sizes, std::move(qz.q)));
      }
      EMBER_ASSIGN_OR_RETURN(ValueId sv, add_constant_parameter(graph, base + "_qscales", ScalarType::Float,
                                                       qz.scale_sizes, std::move(qz.scales)));
      it = done.emplace(m.w, std::make_pair(qv, sv)).first;
    }
    Node& node = graph.nodes()[m.node];
    std::vector<NamedArgument> in;
    in.push_back(named("input", Argument::tensor(m.x)));
    in.push_back(named("weight", Argument::tensor(it->second.first)));
    in.push_back(named("weight_scales", Argument::tensor(it->second.second)));
    if (group_size_ != 0) in.push_back(named("group_size", Argument::integer(group_size_)));
    in.push_back(named("bias", m.bias == kNoValue ? Argument::none() : Argument::tensor(m.bias)));
    Node q = make_op_node("ember_quantized", group_size_ ? "linear_8da4w" : "linear_8da8w",
                          "default", std::move(in), node.outputs, node);
    q.name = node.name;
    node = std::move(q);
    absorb_linear_views(graph, producer, users, m.node, &drop);
  }
  remove_nodes(graph, drop);
  return Error::Ok;
}

}  // namespace ember::aot
