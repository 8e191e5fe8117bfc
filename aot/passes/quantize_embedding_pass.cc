// QuantizeEmbeddingPass (see quantize_embedding_pass.h).
#include "aot/passes/quantize_embedding_pass.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <memory>
#include <utility>

#include "aot/ir/graph_rewrite.h"
#include "aot/passes/constant_weights.h"

namespace ember::aot {

namespace {

NamedArgument named(const char* name, Argument a) { return {name, std::move(a), false}; }

struct Quantized {
  std::shared_ptr<ConstantData> q, scales;
};

Quantized quantize_rows(const ConstantData& w, int64_t rows, int64_t dim) {
  Quantized out;
  out.q = std::make_shared<ConstantData>();
  out.scales = std::make_shared<ConstantData>();
  out.q->bytes.resize(size_t(rows * dim));
  out.scales->bytes.resize(size_t(rows) * 4);
  out.q->source = w.source + " (int8 per row)";
  out.scales->source = w.source + " (int8 row scales)";
  std::vector<float> row(static_cast<size_t>(dim));
  for (int64_t r = 0; r < rows; ++r) {
    std::memcpy(row.data(), w.bytes.data() + size_t(r * dim) * 4, size_t(dim) * 4);
    float m = 0.f;
    for (float v : row) m = std::max(m, std::fabs(v));
    const float scale = m > 0.f ? m / 127.f : 1.f;
    std::memcpy(out.scales->bytes.data() + size_t(r) * 4, &scale, 4);
    for (int64_t c = 0; c < dim; ++c) {
      const long q = std::lround(double(row[size_t(c)]) / double(scale));
      out.q->bytes[size_t(r * dim + c)] = uint8_t(int8_t(std::clamp<long>(q, -127, 127)));
    }
  }
  return out;
}

bool quantizable(const TensorSpec& spec) {
  if (spec.constant == nullptr || !spec.is_static() || spec.dtype != ScalarType::Float ||
      spec.rank() != 2 || spec.static_numel() <= 0) {
    return false;
  }
  if (int64_t(spec.constant->bytes.size()) != spec.static_nbytes()) return false;
  for (size_t i = 0; i < spec.constant->bytes.size() / 4; ++i) {
    float v;
    std::memcpy(&v, spec.constant->bytes.data() + i * 4, 4);
    if (!std::isfinite(v)) return false;
  }
  return true;
}

}  // namespace

Error QuantizeEmbeddingPass::run(Graph& graph) const {
  const std::vector<int32_t> uses = use_counts(graph);
  std::map<ValueId, std::pair<ValueId, ValueId>> done;  // table -> (int8 table, scales)
  for (size_t i = 0; i < graph.nodes().size(); ++i) {
    const Node node = graph.nodes()[i];
    if (!is_aten_op(node, "embedding", "default") || node.outputs.size() != 1) continue;
    const ValueId w = optional_tensor_input(node, "weight");
    const ValueId ids = optional_tensor_input(node, "indices");
    if (w == kNoValue || ids == kNoValue) continue;
    bool is_output = false;
    for (const Argument& out : graph.outputs()) is_output = is_output || tensor_of(out) == w;
    auto it = done.find(w);
    if (it == done.end()) {
      const TensorSpec& spec = graph.value(w).tensor;
      if (is_output || !quantizable(spec)) continue;
      const int64_t rows = spec.sizes[0].value, dim = spec.sizes[1].value;
      Quantized qz = quantize_rows(*spec.constant, rows, dim);
      const std::string name = graph.value(w).name;
      ValueId qv = w;
      if (uses[size_t(w)] == 1) {  // only this embedding reads it: the int8 table replaces it
        TensorSpec q = contiguous_spec(ScalarType::Char, static_sizes({rows, dim}));
        q.constant = std::move(qz.q);
        graph.value(w).tensor = std::move(q);
      } else {
        EMBER_ASSIGN_OR_RETURN(qv, add_constant_parameter(graph, name + "_int8", ScalarType::Char,
                                                 {rows, dim}, std::move(qz.q)));
      }
      EMBER_ASSIGN_OR_RETURN(ValueId sv, add_constant_parameter(graph, name + "_scales", ScalarType::Float,
                                                       {rows}, std::move(qz.scales)));
      it = done.emplace(w, std::make_pair(qv, sv)).first;
    }
    Node q = make_op_node(
        "quantized_decomposed", "embedding_byte", "default",
        {named("weight", Argument::tensor(it->second.first)),
         named("weight_scales", Argument::tensor(it->second.second)),
         named("weight_zero_points", Argument::none()),
         named("weight_quant_min", Argument::integer(-127)),
         named("weight_quant_max", Argument::integer(127)), named("indices", Argument::tensor(ids))},
        node.outputs, node);
    q.name = node.name;
    graph.nodes()[i] = std::move(q);
  }
  return Error::Ok;
}

}  // namespace ember::aot
