// QuantizeStage (see quantize_stage.h).
#include "aot/recipe/quantize_stage.h"

#include <cstdio>
#include <cstring>
#include <map>
#include <sstream>

#include "aot/ir/graph_rewrite.h"
#include "aot/ir/printer.h"
#include "aot/quantize/annotate.h"
#include "aot/quantize/convert.h"
#include "aot/quantize/fold_conv_bn.h"
#include "aot/quantize/observer.h"
#include "aot/passes/functionalize_pass.h"
#include "aot/recipe/export_session.h"
#include "aot/recipe/stages.h"

namespace ember::aot {
namespace {

constexpr float kEps = 1.0f / 4096;  // 2**-12, get_symmetric_quantization_config's eps

// The first stage of the calibration session: hands over a graph made in memory.
class GraphSeedStage final : public Stage {
 public:
  explicit GraphSeedStage(Graph g) : g_(std::make_shared<const Graph>(std::move(g))) {}
  const char* name() const override { return "load"; }

 protected:
  Result<StageArtifact> transform(const StageArtifact&, const StageContext&) const override {
    StageArtifact a;
    a.graph = g_;
    return a;
  }

 private:
  std::shared_ptr<const Graph> g_;
};

std::string json_escape(const std::string& s) {
  std::string o;
  for (char c : s) {
    if (c == '"' || c == '\\') o += '\\';
    if (static_cast<unsigned char>(c) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      o += buf;
      continue;
    }
    o += c;
  }
  return o;
}

std::string num(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

std::string shape_of(const TensorSpec& s) { return s.to_string(); }

}  // namespace

Result<std::vector<std::vector<HostTensor>>> bind_calibration_samples(
    const Graph& graph, const std::vector<std::vector<HostTensor>>& samples,
    const std::vector<std::vector<std::string>>& names) {
  if (samples.empty()) {
    return fail(Error::InvalidArgument,
                "calibration needs at least one sample (got 0): pass --calibrate FILES or "
                "--calibration-list FILE");
  }
  const std::vector<ValueId> ins = graph.inputs_of_kind(InputKind::UserInput);
  std::vector<std::vector<HostTensor>> out = samples;
  for (size_t k = 0; k < samples.size(); ++k) {
    if (samples[k].size() != ins.size()) {
      return fail(Error::InvalidArgument,
                  "calibration sample " + std::to_string(k) + " has " +
                      std::to_string(samples[k].size()) + " input(s), the method takes " +
                      std::to_string(ins.size()) + " (one file per input, in order)");
    }
    for (size_t i = 0; i < ins.size(); ++i) {
      const TensorSpec& spec = graph.value(ins[i]).tensor;
      HostTensor& t = out[k][i];
      const int64_t want = spec.static_nbytes();
      const bool raw = t.dtype == ScalarType::Undefined;
      std::string file;
      if (k < names.size() && i < names[k].size()) file = ", file " + names[k][i];
      if ((!raw && t.dtype != spec.dtype) || want < 0 || int64_t(t.bytes.size()) != want) {
        return fail(Error::InvalidArgument,
                    "calibration sample " + std::to_string(k) + " input " + std::to_string(i) +
                        " ('" + graph.value(ins[i]).name + "'" + file + "): " +
                        std::to_string(t.bytes.size()) + " bytes, expected " +
                        std::to_string(want) + " (" + shape_of(spec) + ")");
      }
      if (raw) {
        t.dtype = spec.dtype;
        t.sizes.clear();
        for (const SymInt& d : spec.sizes) t.sizes.push_back(d.value);
      }
    }
  }
  return out;
}

std::vector<std::pair<std::string, std::string>> QuantizeStage::extra_dumps() const {
  if (!done()) return {};
  return {{"quantize_annotated.txt", results_->annotated},
          {"quantize_calibration.json", results_->statistics_json}};
}

Result<StageArtifact> QuantizeStage::transform(const StageArtifact& previous,
                                                 const StageContext& context) const {
  if (previous.graph == nullptr) {
    return fail(Error::InvalidState, "quantize needs a graph from the previous stage");
  }
  if (!options_.runner) {
    return fail(Error::InvalidState, "quantize: no MethodRunner to run the calibration program");
  }
  Graph g = *previous.graph;
  EMBER_ASSIGN_OR_RETURN(std::vector<std::vector<HostTensor>> samples,
                         bind_calibration_samples(g, options_.samples, options_.sample_names));
  // In-place ops (hardtanh_ in torchvision's ReLU6) become functional first: PyTorch's
  // observer after a convolution runs before the in-place op mutates its output, so the
  // calibration program must expose the value before the mutation.
  EMBER_TRY(FunctionalizePass().run(g));
  EMBER_ASSIGN_OR_RETURN(int folded, fold_conv_batch_norm(g));
  const QuantPlan plan = annotate_xnnpack_symmetric(g);

  // Calibration program: the float graph with every observed activation as an extra output.
  Graph cg = g;
  const size_t user_outputs = cg.outputs().size();
  std::map<ValueId, size_t> output_index;
  for (size_t i = 0; i < cg.outputs().size(); ++i) {
    const ValueId v = tensor_of(cg.outputs()[i]);
    if (v != kNoValue && !output_index.count(v)) output_index[v] = i;
  }
  std::map<ValueId, size_t> input_index;
  const std::vector<ValueId> user_inputs = g.inputs_of_kind(InputKind::UserInput);
  for (size_t i = 0; i < user_inputs.size(); ++i) input_index[user_inputs[i]] = i;
  for (const ObserverGroup& grp : plan.groups) {
    if (grp.kind != ObserverKind::Histogram) continue;
    for (ValueId v : grp.observed) {
      if (input_index.count(v) || output_index.count(v)) continue;
      if (g.value(v).tensor.dtype != ScalarType::Float) continue;
      output_index[v] = cg.outputs().size();
      cg.outputs().push_back(Argument::tensor(v));
      OutputSpec spec;
      spec.kind = OutputKind::UserOutput;
      spec.name = cg.value(v).name;
      cg.signature().outputs.push_back(spec);
    }
  }
  std::vector<std::unique_ptr<Stage>> stages;
  stages.push_back(std::make_unique<GraphSeedStage>(std::move(cg)));
  stages.push_back(std::make_unique<ToEdgeStage>());
  stages.push_back(std::make_unique<TransformStage>());
  stages.push_back(std::make_unique<ToBackendStage>());
  stages.push_back(std::make_unique<ToExecutorchStage>());
  stages.push_back(std::make_unique<EmitStage>());
  SessionOptions so;
  ExportSession calib(std::move(stages), std::move(so));
  if (Error e = calib.run(); e != Error::Ok) {
    return fail(e, "quantize: lowering the float calibration program failed");
  }

  std::vector<HistogramObserver> hist(plan.groups.size());
  results_->float_outputs.clear();
  for (size_t k = 0; k < samples.size(); ++k) {
    const std::vector<HostTensor>& sample = samples[k];
    auto outs = options_.runner(*calib.pte(), options_.method, sample);
    if (!outs.ok()) {
      return fail(outs.error(), "quantize: calibration sample " + std::to_string(k) +
                                    " failed on the float program");
    }
    const std::vector<HostTensor>& o = outs.get();
    if (o.size() < output_index.size()) {
      return fail(Error::Internal, "quantize: calibration program returned " +
                                       std::to_string(o.size()) + " outputs");
    }
    results_->float_outputs.emplace_back(o.begin(), o.begin() + long(user_outputs));
    for (size_t gi = 0; gi < plan.groups.size(); ++gi) {
      if (plan.groups[gi].kind != ObserverKind::Histogram) continue;
      for (ValueId v : plan.groups[gi].observed) {
        const HostTensor* t = nullptr;
        if (input_index.count(v)) {
          t = &sample[input_index[v]];
        } else if (output_index.count(v)) {
          t = &o[output_index[v]];
        }
        if (t == nullptr || t->dtype != ScalarType::Float) continue;
        hist[gi].observe(reinterpret_cast<const float*>(t->bytes.data()), size_t(t->numel()));
      }
    }
  }

  std::vector<GroupParams> params(plan.groups.size());
  std::ostringstream js;
  js << "{\n \"observers\": [";
  for (size_t gi = 0; gi < plan.groups.size(); ++gi) {
    const ObserverGroup& grp = plan.groups[gi];
    js << (gi ? ",\n" : "\n") << "  {\"group\": " << gi << ", \"observes\": [";
    for (size_t k = 0; k < grp.observed.size(); ++k) {
      js << (k ? ", " : "") << "\"" << json_escape(g.value(grp.observed[k]).name) << "\"";
    }
    js << "]";
    if (grp.kind == ObserverKind::Histogram) {
      const HistogramObserver& h = hist[gi];
      params[gi].act = h.qparams(-128, 127, kEps);
      float smin = 0, smax = 0;
      if (h.initialized()) h.search_range(&smin, &smax);
      js << ", \"observer\": \"HistogramObserver\", \"dtype\": \"int8\", \"quant_min\": -128, "
            "\"quant_max\": 127, \"qscheme\": \"per_tensor_affine\", \"min_val\": "
         << num(h.min_val()) << ", \"max_val\": " << num(h.max_val())
         << ", \"search_min\": " << num(smin) << ", \"search_max\": " << num(smax)
         << ", \"scale\": " << num(params[gi].act.scale)
         << ", \"zero_point\": " << params[gi].act.zero_point << "}";
    } else {
      const TensorSpec& ws = g.value(grp.observed[0]).tensor;
      if (ws.constant == nullptr || ws.dtype != ScalarType::Float || !ws.is_static() ||
          ws.rank() < 1) {
        return fail(Error::NotSupported, "quantize: weight '" + g.value(grp.observed[0]).name +
                                             "' is not a constant float tensor");
      }
      const int64_t channels = ws.sizes[0].value;
      params[gi].scales = symmetric_per_channel_scales(
          reinterpret_cast<const float*>(ws.constant->bytes.data()), ws.static_numel(), channels,
          -127, 127, kEps);
      js << ", \"observer\": \"PerChannelMinMaxObserver\", \"dtype\": \"int8\", \"quant_min\": "
            "-127, \"quant_max\": 127, \"qscheme\": \"per_channel_symmetric\", \"axis\": 0, "
            "\"scales\": [";
      for (size_t c = 0; c < params[gi].scales.size(); ++c) {
        js << (c ? ", " : "") << num(params[gi].scales[c]);
      }
      js << "], \"zero_points\": 0}";
    }
  }
  js << "\n ],\n \"samples\": " << samples.size()
     << ",\n \"folded_batch_norms\": " << folded << "\n}\n";

  EMBER_ASSIGN_OR_RETURN(Graph q, convert_to_qdq(g, plan, params));
  std::string annotated = "# annotations (XNNPACKQuantizer symmetric, per-channel weights)\n";
  for (const std::string& line : plan.annotations) annotated += "#   " + line + "\n";
  annotated += print_graph(g);
  results_->annotated = std::move(annotated);
  results_->statistics_json = js.str();
  results_->folded_batch_norms = folded;
  results_->samples = std::move(samples);
  results_->observer_groups = int(plan.groups.size());
  StageArtifact out = previous;
  out.graph = std::make_shared<const Graph>(std::move(q));
  return out;
}

}  // namespace ember::aot
