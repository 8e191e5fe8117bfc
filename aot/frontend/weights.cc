// Raw-payload reading and weight attachment.
#include "aot/frontend/weights.h"

#include <map>

#include "aot/frontend/json_util.h"
#include "aot/frontend/tensor_meta_json.h"

namespace ember::aot {
namespace {

Result<LoadedTensor> raw_tensor(
    const ZipReader& zip, const std::string& fqn, const Json& entry, const std::string& dir,
    const std::string& what,
    std::map<std::string, std::shared_ptr<const std::vector<uint8_t>>>* cache) {
  if (const Json* p = json_field(entry, "use_pickle")) {
    bool use_pickle = false;
    EMBER_TRY(json_bool(*p, what + ".use_pickle", &use_pickle));
    if (use_pickle) {
      return not_supported(what + ": pickled payload for '" + fqn +
                           "' (tensor subclass or custom object) is not supported");
    }
  }
  std::string path;
  EMBER_ASSIGN_OR_RETURN(const Json* pn, json_require(entry, "path_name", what));
  EMBER_TRY(json_string(*pn, what + ".path_name", &path));
  EMBER_ASSIGN_OR_RETURN(const Json* meta, json_require(entry, "tensor_meta", what));
  EMBER_ASSIGN_OR_RETURN(TensorSpec spec, decode_tensor_meta(*meta, {}, what + ".tensor_meta"));
  LoadedTensor t;
  t.dtype = spec.dtype;
  t.storage_offset = spec.storage_offset;
  t.origin = dir + path;
  for (size_t i = 0; i < spec.sizes.size(); ++i) {
    if (!spec.sizes[i].is_static || (i < spec.strides.size() && !spec.strides[i].is_static)) {
      return invalid_data(what + ": weight '" + fqn + "' has a symbolic size or stride");
    }
    t.sizes.push_back(spec.sizes[i].value);
    t.strides.push_back(i < spec.strides.size() ? spec.strides[i].value : 0);
  }
  if (spec.strides.empty()) {  // no strides given: contiguous
    int64_t s = 1;
    for (size_t i = t.sizes.size(); i-- > 0;) {
      t.strides[i] = s;
      s *= t.sizes[i] > 0 ? t.sizes[i] : 1;
    }
  }
  auto it = cache->find(path);
  if (it == cache->end()) {
    EMBER_ASSIGN_OR_RETURN(std::vector<uint8_t> data, zip.read(dir + path));
    it = cache->emplace(path, std::make_shared<const std::vector<uint8_t>>(std::move(data))).first;
  }
  t.storage = it->second;
  if (t.storage->empty()) {  // zero-length record: a tensor of zeros
    int64_t n = spec.static_nbytes();
    if (n < 0 || n > (int64_t{256} << 20)) {
      return invalid_data(what + ": zero-length record for '" + fqn + "' of size " +
                          std::to_string(n) + " bytes (expected a known size up to 256 MiB)");
    }
    EMBER_TRY(zip.budget()->charge(static_cast<uint64_t>(n),
                                   what + ": zeros for the zero-length record of '" + fqn + "'"));
    t.storage = std::make_shared<const std::vector<uint8_t>>(static_cast<size_t>(n), 0);
    t.storage_offset = 0;
    int64_t s = 1;
    for (size_t i = t.sizes.size(); i-- > 0;) {
      t.strides[i] = s;
      s *= t.sizes[i] > 0 ? t.sizes[i] : 1;
    }
  }
  return t;
}

bool attaches_constant(InputKind kind) {
  return kind == InputKind::Parameter || kind == InputKind::Buffer ||
         kind == InputKind::TensorConstant;
}

}  // namespace

std::set<std::string> weight_names(const Graph& graph) {
  std::set<std::string> names;
  for (const InputSpec& spec : graph.signature().inputs) {
    if (attaches_constant(spec.kind)) names.insert(spec.target);
  }
  return names;
}

Result<TensorMap> read_raw_payload(const ZipReader& zip, const std::string& config_path,
                                   const std::string& dir, const std::set<std::string>& wanted) {
  EMBER_ASSIGN_OR_RETURN(std::string text, zip.read_text(config_path));
  EMBER_ASSIGN_OR_RETURN(Json root, parse_json(text, config_path));
  TensorMap out;
  std::map<std::string, std::shared_ptr<const std::vector<uint8_t>>> cache;
  try {
    EMBER_ASSIGN_OR_RETURN(const Json* config, json_require(root, "config", config_path));
    if (!config->is_object()) return invalid_data(config_path + ": 'config' is not an object");
    for (auto it = config->begin(); it != config->end(); ++it) {
      if (wanted.count(it.key()) == 0) continue;  // not in the graph: never read
      std::string what = config_path + "['" + it.key() + "']";
      auto t = raw_tensor(zip, it.key(), *it, dir, what, &cache);
      if (!t.ok()) {
        Error s = t.error();
        // Structural problems in the config are external-data errors.
        if (s == Error::InvalidProgram) s = invalid_data(std::string(last_error_message()));
        return s;
      }
      out.emplace(it.key(), std::move(t.get()));
    }
  } catch (const std::bad_alloc&) {  // out of memory is never "malformed"
    return out_of_memory(config_path);
  } catch (const std::exception& e) {
    return invalid_data(config_path + ": unexpected JSON structure: " + e.what());
  }
  return out;
}

Error attach_weights(const TensorMap& tensors, Graph* graph) {
  const GraphSignature& sig = graph->signature();
  for (size_t i = 0; i < sig.inputs.size() && i < graph->inputs().size(); ++i) {
    const InputSpec& spec = sig.inputs[i];
    if (!attaches_constant(spec.kind)) continue;
    ValueId id = graph->inputs()[i].value();
    if (id == kNoValue) continue;
    std::string what = std::string(to_string(spec.kind)) + " '" + spec.target + "' (graph input %" +
                       graph->value(id).name + ")";
    auto it = tensors.find(spec.target);
    if (it == tensors.end()) {
      return not_found("no weights for " + what + " in the file's payloads");
    }
    TensorSpec& t = graph->value(id).tensor;
    const LoadedTensor& w = it->second;
    if (w.dtype != t.dtype) {
      return invalid_data(what + ": graph says " + to_string(t.dtype) + ", weights are " +
                          to_string(w.dtype));
    }
    bool same_shape = w.sizes.size() == t.sizes.size();
    for (size_t d = 0; same_shape && d < w.sizes.size(); ++d) {
      same_shape = t.sizes[d].is_static && t.sizes[d].value == w.sizes[d];
    }
    if (!same_shape) {
      std::string ws = "[";
      for (size_t d = 0; d < w.sizes.size(); ++d)
        ws += (d ? ", " : "") + std::to_string(w.sizes[d]);
      return invalid_data(what + ": graph shape " + t.to_string() + ", weights shape " + ws + "]");
    }
    EMBER_ASSIGN_OR_RETURN(std::vector<uint8_t> bytes,
                           contiguous_bytes(w, what + " from " + w.origin));
    if (static_cast<int64_t>(bytes.size()) != t.static_nbytes()) {
      return invalid_data(what + ": " + std::to_string(bytes.size()) + " bytes, expected " +
                          std::to_string(t.static_nbytes()));
    }
    auto data = std::make_shared<ConstantData>();
    data->bytes = std::move(bytes);
    data->source = w.origin;
    t.constant = std::move(data);
    // The bytes are C-contiguous now, whatever the exported strides were.
    int64_t stride = 1;
    t.strides.assign(t.sizes.size(), SymInt::of(1));
    for (size_t d = t.sizes.size(); d-- > 0;) {
      t.strides[d] = SymInt::of(stride);
      stride *= t.sizes[d].value > 0 ? t.sizes[d].value : 1;
    }
    t.dim_order = dim_order_from_strides(t.sizes, t.strides);
  }
  return Error::Ok;
}

}  // namespace ember::aot
