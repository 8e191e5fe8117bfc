// QuantizeStage (see quantize_stage.h).
#include "aot/recipe/quantize_stage.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <map>
#include <sstream>

#include "aot/ir/graph_rewrite.h"
#include "aot/ir/printer.h"
#include "aot/passes/functionalize_pass.h"
#include "aot/quantize/annotate.h"
#include "aot/quantize/convert.h"
#include "aot/quantize/fold_conv_bn.h"
#include "aot/quantize/observer.h"
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

// Lowers `g` with the portable pipeline (no delegate) to .pte bytes.
Result<std::vector<uint8_t>> lower_portable(Graph g, const char* what) {
  std::vector<std::unique_ptr<Stage>> stages;
  stages.push_back(std::make_unique<GraphSeedStage>(std::move(g)));
  stages.push_back(std::make_unique<ToEdgeStage>());
  stages.push_back(std::make_unique<TransformStage>());
  stages.push_back(std::make_unique<ToBackendStage>());
  stages.push_back(std::make_unique<ToExecutorchStage>());
  stages.push_back(std::make_unique<EmitStage>());
  ExportSession session(std::move(stages));
  if (Error e = session.run(); e != Error::Ok) {
    return fail(e, std::string("lowering the ") + what + " failed");
  }
  return *session.pte();
}

// Adds `v` as an extra user output of `g` (once); returns its output index.
size_t add_output(Graph& g, ValueId v, std::map<ValueId, size_t>* index) {
  auto it = index->find(v);
  if (it != index->end()) return it->second;
  const size_t i = g.outputs().size();
  (*index)[v] = i;
  g.outputs().push_back(Argument::tensor(v));
  OutputSpec spec;
  spec.kind = OutputKind::UserOutput;
  spec.name = g.value(v).name;
  g.signature().outputs.push_back(spec);
  return i;
}

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
      if (!spec.is_static()) {
        return fail(Error::NotSupported,
                    "input '" + graph.value(ins[i]).name + "' has dynamic sizes (" +
                        shape_of(spec) +
                        "); post-training quantization needs static input "
                        "shapes (export the float model without dynamic_shapes)");
      }
      HostTensor& t = out[k][i];
      const int64_t want = spec.static_nbytes();
      const bool raw = t.dtype == ScalarType::Undefined;
      std::string file;
      if (k < names.size() && i < names[k].size()) file = ", file " + names[k][i];
      if ((!raw && t.dtype != spec.dtype) || want < 0 || int64_t(t.bytes.size()) != want) {
        return fail(Error::InvalidArgument,
                    "calibration sample " + std::to_string(k) + " input " + std::to_string(i) +
                        " ('" + graph.value(ins[i]).name + "'" + file +
                        "): " + std::to_string(t.bytes.size()) + " bytes, expected " +
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

// Runs the QDQ graph `q` (portable kernels) with every activation quantize's int8 output as
// an extra output, dequantizes it on the host and compares it with the float program's
// value at the same place: the error each layer has accumulated.
Result<std::vector<TensorError>> QuantizeStage::per_layer_errors(
    const Graph& q, const std::vector<std::vector<HostTensor>>& samples,
    const std::map<ValueId, std::vector<HostTensor>>& float_values) const {
  Graph pg = q;
  std::map<ValueId, size_t> index;
  for (size_t i = 0; i < pg.outputs().size(); ++i) {
    const ValueId v = tensor_of(pg.outputs()[i]);
    if (v != kNoValue) index.emplace(v, i);
  }
  struct Probe {
    ValueId value;  // float value in the original graph
    size_t output;  // int8 output of the quantize
    double scale;
    int64_t zero_point;
  };
  std::vector<Probe> probes;
  std::map<ValueId, bool> seen;
  for (const Node& n : q.nodes()) {
    if (n.op.ns != "quantized_decomposed" || n.op.name != "quantize_per_tensor") continue;
    const ValueId v = tensor_of(n.inputs[0].arg);
    if (!float_values.count(v) || seen[v]) continue;
    seen[v] = true;
    probes.push_back(
        {v, add_output(pg, tensor_of(n.outputs[0]), &index), n.inputs[1].arg.f, n.inputs[2].arg.i});
  }
  EMBER_ASSIGN_OR_RETURN(std::vector<uint8_t> pte,
                         lower_portable(std::move(pg), "QDQ probe program"));
  std::vector<TensorError> errors(probes.size());
  std::vector<double> signal(probes.size(), 0), noise(probes.size(), 0);
  for (size_t k = 0; k < samples.size(); ++k) {
    auto outs = options_.runner(pte, options_.method, samples[k]);
    if (!outs.ok()) return fail(outs.error(), "running the QDQ probe program");
    for (size_t p = 0; p < probes.size(); ++p) {
      const HostTensor& qt = (*outs)[probes[p].output];
      HostTensor deq;
      deq.dtype = ScalarType::Float;
      deq.sizes = qt.sizes;
      deq.bytes.resize(qt.bytes.size() * 4);
      for (size_t e = 0; e < qt.bytes.size(); ++e) {
        const float f =
            float((int64_t(int8_t(qt.bytes[e])) - probes[p].zero_point) * probes[p].scale);
        std::memcpy(deq.bytes.data() + e * 4, &f, 4);
      }
      errors[p].name = q.value(probes[p].value).name;
      EMBER_TRY(accumulate_error(float_values.at(probes[p].value)[k], deq, &signal[p], &noise[p],
                                 &errors[p]));
    }
  }
  for (size_t p = 0; p < probes.size(); ++p) {
    errors[p].sqnr_db = noise[p] == 0 ? std::numeric_limits<double>::infinity()
                                      : 10.0 * std::log10(signal[p] / noise[p]);
  }
  return errors;
}

std::vector<std::pair<std::string, std::string>> QuantizeStage::extra_dumps() const {
  if (!done()) return {};
  return {{"quantize_annotated.txt", results_->annotated},
          {"quantize_calibration.json", results_->statistics_json}};
}

namespace {

// Where the calibration runs find each observed tensor: a user input of the sample, an output
// of the calibration program, or a constant of the graph.
struct ObservedTensors {
  std::map<ValueId, size_t> input;   // user input index
  std::map<ValueId, size_t> output;  // calibration program output index
  size_t user_outputs = 0;           // the float program's own outputs come first
};

// The float graph with every observed activation that is neither a user input nor a constant
// added as an output.
Graph calibration_graph(const Graph& g, const QuantPlan& plan, ObservedTensors* where) {
  Graph cg = g;
  where->user_outputs = cg.outputs().size();
  for (size_t i = 0; i < cg.outputs().size(); ++i) {
    const ValueId v = tensor_of(cg.outputs()[i]);
    if (v != kNoValue && !where->output.count(v)) where->output[v] = i;
  }
  const std::vector<ValueId> user_inputs = g.inputs_of_kind(InputKind::UserInput);
  for (size_t i = 0; i < user_inputs.size(); ++i) where->input[user_inputs[i]] = i;
  for (const ObserverGroup& grp : plan.groups) {
    if (grp.kind != ObserverKind::Histogram) continue;
    for (ValueId v : grp.observed) {
      const TensorSpec& t = g.value(v).tensor;
      if (where->input.count(v) || t.constant != nullptr || t.dtype != ScalarType::Float) continue;
      add_output(cg, v, &where->output);
    }
  }
  return cg;
}

// The observed tensor `v` of one calibration run; nullptr when it is not float.
const HostTensor* observed_tensor(const Graph& g, ValueId v, const ObservedTensors& where,
                                  const std::vector<HostTensor>& sample,
                                  const std::vector<HostTensor>& outputs, HostTensor* scratch) {
  const HostTensor* t = nullptr;
  if (auto i = where.input.find(v); i != where.input.end()) {
    t = &sample[i->second];
  } else if (auto o = where.output.find(v); o != where.output.end()) {
    t = &outputs[o->second];
  } else if (const TensorSpec& spec = g.value(v).tensor; spec.constant != nullptr) {
    scratch->dtype = spec.dtype;
    scratch->sizes.clear();
    for (const SymInt& d : spec.sizes) scratch->sizes.push_back(d.value);
    scratch->bytes = spec.constant->bytes;
    t = scratch;
  }
  return t != nullptr && t->dtype == ScalarType::Float ? t : nullptr;
}

// One group's entry of the calibration statistics.
std::string group_json(const Graph& g, size_t gi, const ObserverGroup& grp,
                       const HistogramObserver& h, const GroupParams& p) {
  std::ostringstream js;
  js << "  {\"group\": " << gi << ", \"observes\": [";
  for (size_t k = 0; k < grp.observed.size(); ++k) {
    js << (k ? ", " : "") << "\"" << json_escape(g.value(grp.observed[k]).name) << "\"";
  }
  js << "]";
  if (grp.kind == ObserverKind::Histogram) {
    float smin = 0, smax = 0;
    if (h.initialized()) h.search_range(&smin, &smax);
    js << ", \"observer\": \"HistogramObserver\", \"dtype\": \"int8\", \"quant_min\": -128, "
          "\"quant_max\": 127, \"qscheme\": \"per_tensor_affine\", \"min_val\": "
       << num(h.min_val()) << ", \"max_val\": " << num(h.max_val())
       << ", \"search_min\": " << num(smin) << ", \"search_max\": " << num(smax)
       << ", \"scale\": " << num(p.act.scale) << ", \"zero_point\": " << p.act.zero_point << "}";
    return js.str();
  }
  js << ", \"observer\": \"PerChannelMinMaxObserver\", \"dtype\": \"int8\", \"quant_min\": "
        "-127, \"quant_max\": 127, \"qscheme\": \"per_channel_symmetric\", \"axis\": 0, "
        "\"scales\": [";
  for (size_t c = 0; c < p.scales.size(); ++c) js << (c ? ", " : "") << num(p.scales[c]);
  js << "], \"zero_points\": 0}";
  return js.str();
}

// Per-channel weight scales from the constant weight the group observes.
Result<std::vector<float>> weight_scales(const Graph& g, const ObserverGroup& grp) {
  const TensorSpec& ws = g.value(grp.observed[0]).tensor;
  if (ws.constant == nullptr || ws.dtype != ScalarType::Float || !ws.is_static() || ws.rank() < 1) {
    return fail(Error::NotSupported,
                "weight '" + g.value(grp.observed[0]).name + "' is not a constant float tensor");
  }
  return symmetric_per_channel_scales(reinterpret_cast<const float*>(ws.constant->bytes.data()),
                                      ws.static_numel(), ws.sizes[0].value, -127, 127, kEps);
}

// The first node of the core-ATen form of what the quantizer annotates in the training IR
// (aten.convolution for conv1d/conv2d, aten.addmm for linear), or nullptr.
const Node* first_core_aten_node(const Graph& g) {
  for (const Node& n : g.nodes()) {
    if (n.op.ns == "aten" && (n.op.name == "convolution" || n.op.name == "addmm")) return &n;
  }
  return nullptr;
}

// Decision 34: a core-ATen graph is refused even when the quantizer would annotate some of it
// (a residual add, a pooling): its convolutions and matmuls would stay float, and the int8
// recipe used to write an fp32-sized program with an int8 accuracy report and no warning.
Error refuse_core_aten(const Node& n) {
  return fail(Error::NotSupported,
              "nothing to quantize in this form: the graph is core ATen (it has " + n.describe() +
                  "), and the XNNPACK quantizer annotates the training IR's aten.conv2d and "
                  "aten.linear, so the int8 program would stay float. PT2E quantization starts "
                  "from torch.export.export_for_training's graph: export the float model that "
                  "way, or lower this file with the float recipe (xnnpack or portable).");
}

// NotSupported when nothing is annotated.
Error nothing_to_quantize() {
  return fail(Error::NotSupported,
              "nothing to quantize: no operator the XNNPACK quantizer annotates "
              "(conv1d/conv2d, linear, add, mul, cat, adaptive_avg_pool2d).");
}

}  // namespace

Result<StageArtifact> QuantizeStage::transform(const StageArtifact& previous,
                                               const StageContext&) const {
  if (previous.graph == nullptr) {
    return fail(Error::InvalidState, "quantize needs a graph from the previous stage");
  }
  if (!options_.runner) {
    return fail(Error::InvalidState, "no MethodRunner to run the calibration program");
  }
  Graph g = *previous.graph;
  EMBER_ASSIGN_OR_RETURN(std::vector<std::vector<HostTensor>> samples,
                         bind_calibration_samples(g, options_.samples, options_.sample_names));
  if (const Node* core = first_core_aten_node(g)) return refuse_core_aten(*core);
  // In-place ops (hardtanh_ in torchvision's ReLU6) become functional first: PyTorch's
  // observer after a convolution runs before the in-place op mutates its output, so the
  // calibration program must expose the value before the mutation.
  EMBER_TRY(FunctionalizePass().run(g));
  EMBER_ASSIGN_OR_RETURN(int folded, fold_conv_batch_norm(g));
  const QuantPlan plan = annotate_xnnpack_symmetric(g);
  if (plan.groups.empty()) return nothing_to_quantize();

  ObservedTensors where;
  EMBER_ASSIGN_OR_RETURN(
      std::vector<uint8_t> calib_pte,
      lower_portable(calibration_graph(g, plan, &where), "float calibration program"));
  std::vector<HistogramObserver> hist(plan.groups.size());
  std::map<ValueId, std::vector<HostTensor>> float_values;  // per_layer_report: per sample
  results_->float_outputs.clear();
  for (size_t k = 0; k < samples.size(); ++k) {
    auto outs = options_.runner(calib_pte, options_.method, samples[k]);
    if (!outs.ok()) {
      return fail(outs.error(),
                  "calibration sample " + std::to_string(k) + " failed on the float program");
    }
    if (outs->size() < where.output.size() || outs->size() < where.user_outputs) {
      return fail(Error::Internal,
                  "calibration program returned " + std::to_string(outs->size()) + " outputs");
    }
    results_->float_outputs.emplace_back(outs->begin(), outs->begin() + long(where.user_outputs));
    for (size_t gi = 0; gi < plan.groups.size(); ++gi) {
      if (plan.groups[gi].kind != ObserverKind::Histogram) continue;
      for (ValueId v : plan.groups[gi].observed) {  // in execution order
        HostTensor scratch;
        const HostTensor* t = observed_tensor(g, v, where, samples[k], *outs, &scratch);
        if (t == nullptr) continue;
        if (options_.per_layer_report) float_values[v].push_back(*t);
        hist[gi].observe(reinterpret_cast<const float*>(t->bytes.data()), size_t(t->numel()));
      }
    }
  }

  std::vector<GroupParams> params(plan.groups.size());
  std::string js = "{\n \"observers\": [";
  for (size_t gi = 0; gi < plan.groups.size(); ++gi) {
    if (plan.groups[gi].kind == ObserverKind::Histogram) {
      params[gi].act = hist[gi].qparams(-128, 127, kEps);
    } else {
      EMBER_ASSIGN_OR_RETURN(params[gi].scales, weight_scales(g, plan.groups[gi]));
    }
    js += (gi ? ",\n" : "\n") + group_json(g, gi, plan.groups[gi], hist[gi], params[gi]);
  }
  js += "\n ],\n \"samples\": " + std::to_string(samples.size()) +
        ",\n \"folded_batch_norms\": " + std::to_string(folded) + "\n}\n";

  EMBER_ASSIGN_OR_RETURN(Graph q, convert_to_qdq(g, plan, params));
  if (options_.per_layer_report) {
    EMBER_ASSIGN_OR_RETURN(results_->layers, per_layer_errors(q, samples, float_values));
  }
  std::string annotated = "# annotations (XNNPACKQuantizer symmetric, per-channel weights)\n";
  for (const std::string& line : plan.annotations) annotated += "#   " + line + "\n";
  annotated += print_graph(g);
  results_->annotated = std::move(annotated);
  results_->statistics_json = std::move(js);
  results_->folded_batch_norms = folded;
  results_->samples = std::move(samples);
  results_->observer_groups = int(plan.groups.size());
  StageArtifact out = previous;
  out.graph = std::make_shared<const Graph>(std::move(q));
  return out;
}

}  // namespace ember::aot
