// bundle_cases; see bundle_cases.h.
#include "apps/lower/bundle_cases.h"

#include <algorithm>
#include <cstring>
#include <nlohmann/json.hpp>

#include "aot/frontend/pt2_reader.h"
#include "runtime/module/module.h"

namespace ember::aot {
namespace {

using Resolve = std::function<std::string(const std::string&)>;

// One input or output of a case as the user gave it: a file, maybe with its actual shape.
struct Slot {
  std::string file;  // as resolve() takes it
  bool has_shape = false;
  std::vector<int32_t> shape;
};

// One case before reading: where it came from (for messages) and its slots.
struct CaseSpec {
  std::string origin;  // "--bundle_inputs 'a.bin'" or "cases.json case 2"
  std::vector<Slot> inputs;
  std::vector<Slot> outputs;
};

std::vector<Slot> split_commas(const std::string& text) {
  std::vector<Slot> out;
  size_t start = 0;
  while (true) {
    const size_t comma = text.find(',', start);
    Slot slot;
    slot.file = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    out.push_back(std::move(slot));
    if (comma == std::string::npos) return out;
    start = comma + 1;
  }
}

std::string shape_text(runtime::ScalarType dtype, const std::vector<int32_t>& sizes) {
  std::string s = std::string(runtime::scalar_type_name(dtype)) + "[";
  for (size_t d = 0; d < sizes.size(); ++d) s += (d ? ", " : "") + std::to_string(sizes[d]);
  return s + "]";
}

// The tensor's shape for this slot: the declared one, or the given one checked against it.
Result<std::vector<int32_t>> tensor_shape(const runtime::TensorInfo& info, const Slot& slot,
                                          const std::string& at) {
  std::vector<int32_t> declared(info.sizes().begin(), info.sizes().end());
  if (!slot.has_shape) return declared;
  const std::string want =
      shape_text(info.scalar_type(), declared) + (info.is_dynamic() ? " (upper bounds)" : "");
  if (slot.shape.size() != declared.size()) {
    return invalid_argument(at + ": shape " + shape_text(info.scalar_type(), slot.shape) +
                            " has another rank than " + want);
  }
  for (size_t d = 0; d < declared.size(); ++d) {
    const bool fits = info.is_dynamic() ? slot.shape[d] >= 0 && slot.shape[d] <= declared[d]
                                        : slot.shape[d] == declared[d];
    if (!fits) {
      return invalid_argument(at + ": shape " + shape_text(info.scalar_type(), slot.shape) +
                              " does not fit " + want);
    }
  }
  return slot.shape;
}

// One value from `slot`, typed by the method's `tag` / `info`.
Result<BundledIoValue> read_value(runtime::Result<runtime::Tag> tag,
                                  runtime::Result<runtime::TensorInfo> info, const Slot& slot,
                                  const std::string& at, const Resolve& resolve) {
  if (!tag.ok()) return fail(tag.error(), at + ": the method does not describe it");
  BundledIoValue v;
  size_t need = 0;
  std::string what;
  switch (*tag) {
    case runtime::Tag::Tensor: {
      if (!info.ok()) return fail(info.error(), at + ": no tensor description");
      v.kind = BundledIoValue::Kind::Tensor;
      v.dtype = info->scalar_type();
      EMBER_ASSIGN_OR_RETURN(v.sizes, tensor_shape(*info, slot, at));
      v.dim_order.assign(info->dim_order().begin(), info->dim_order().end());
      need = runtime::element_size(v.dtype);
      for (int32_t s : v.sizes) need *= size_t(s);
      what = shape_text(v.dtype, v.sizes);
      break;
    }
    case runtime::Tag::Int:
      v.kind = BundledIoValue::Kind::Int;
      need = 8;
      what = "an Int, int64";
      break;
    case runtime::Tag::Double:
      v.kind = BundledIoValue::Kind::Double;
      need = 8;
      what = "a Double, float64";
      break;
    case runtime::Tag::Bool:
      v.kind = BundledIoValue::Kind::Bool;
      need = 1;
      what = "a Bool";
      break;
    default:
      return not_supported(at + ": only tensors, Int, Double and Bool can be bundled");
  }
  if (slot.has_shape && v.kind != BundledIoValue::Kind::Tensor) {
    return invalid_argument(at + ": a \"shape\" for " + what + ", which is not a tensor");
  }
  EMBER_ASSIGN_OR_RETURN(std::vector<uint8_t> bytes, read_file_bytes(resolve(slot.file)));
  if (bytes.size() != need) {
    return invalid_argument(at + ": '" + slot.file + "' has " + std::to_string(bytes.size()) +
                            " bytes, " + what + " needs " + std::to_string(need));
  }
  if (v.kind == BundledIoValue::Kind::Tensor) {
    v.data = std::move(bytes);
  } else if (v.kind == BundledIoValue::Kind::Int) {
    std::memcpy(&v.int_value, bytes.data(), 8);
  } else if (v.kind == BundledIoValue::Kind::Double) {
    std::memcpy(&v.double_value, bytes.data(), 8);
  } else {
    v.bool_value = bytes[0] != 0;
  }
  return v;
}

// A JSON slot: "file" or {"file": ..., "shape": [...]}; relative files against `dir`.
Result<Slot> json_slot(const nlohmann::json& j, const std::string& dir, const std::string& at) {
  Slot slot;
  const nlohmann::json* file = &j;
  if (j.is_object()) {
    auto f = j.find("file");
    if (f == j.end()) return invalid_argument(at + ": an object needs \"file\"");
    file = &*f;
    if (auto s = j.find("shape"); s != j.end()) {
      if (!s->is_array()) return invalid_argument(at + ": \"shape\" must be a list of sizes");
      for (const nlohmann::json& d : *s) {
        if (!d.is_number_integer() || d.get<int64_t>() < 0 || d.get<int64_t>() > INT32_MAX) {
          return invalid_argument(at + ": \"shape\" must hold sizes from 0 to 2^31-1");
        }
        slot.shape.push_back(int32_t(d.get<int64_t>()));
      }
      slot.has_shape = true;
    }
  }
  if (!file->is_string() || file->get<std::string>().empty()) {
    return invalid_argument(at + ": expected a file name or {\"file\": ..., \"shape\": [...]}");
  }
  slot.file = file->get<std::string>();
  if (slot.file[0] != '/' && !dir.empty()) slot.file = dir + "/" + slot.file;
  return slot;
}

// One method's cases as given ("" method: the program's only method).
struct SuiteSpec {
  std::string method;
  std::vector<CaseSpec> cases;
};

// The "cases" list of one suite object of a cases file.
Error read_case_list(const nlohmann::json& suite, const std::string& at, const std::string& dir,
                     SuiteSpec* out) {
  auto cases = suite.find("cases");
  if (cases == suite.end() || !cases->is_array()) {
    return invalid_argument(at + ": needs a \"cases\" list");
  }
  for (size_t c = 0; c < cases->size(); ++c) {
    const nlohmann::json& j = (*cases)[c];
    CaseSpec spec{at + " case " + std::to_string(c), {}, {}};
    if (!j.is_object() || !j.contains("inputs") || !j["inputs"].is_array() ||
        !j.contains("expected_outputs") || !j["expected_outputs"].is_array()) {
      return invalid_argument(spec.origin + ": needs \"inputs\" and \"expected_outputs\" lists");
    }
    for (const nlohmann::json& s : j["inputs"]) {
      EMBER_ASSIGN_OR_RETURN(Slot slot, json_slot(s, dir, spec.origin));
      spec.inputs.push_back(std::move(slot));
    }
    for (const nlohmann::json& s : j["expected_outputs"]) {
      EMBER_ASSIGN_OR_RETURN(Slot slot, json_slot(s, dir, spec.origin));
      spec.outputs.push_back(std::move(slot));
    }
    out->cases.push_back(std::move(spec));
  }
  return Error::Ok;
}

// The suites of a cases file: {"method"?, "cases"} or {"suites": [{"method", "cases"}...]}.
Error read_cases_file(const std::string& path, const Resolve& resolve,
                      std::vector<SuiteSpec>* out) {
  EMBER_ASSIGN_OR_RETURN(std::vector<uint8_t> text, read_file_bytes(resolve(path)));
  const nlohmann::json doc =
      nlohmann::json::parse(text.begin(), text.end(), nullptr, /*allow_exceptions=*/false);
  const std::string at = "--bundle_cases '" + path + "'";
  if (doc.is_discarded() || !doc.is_object()) return invalid_argument(at + ": not a JSON object");
  const size_t slash = path.find_last_of('/');
  const std::string dir = slash == std::string::npos ? "" : path.substr(0, slash);
  const bool listed = doc.contains("suites");
  if (listed && !doc["suites"].is_array()) {
    return invalid_argument(at + ": \"suites\" must be a list");
  }
  const nlohmann::json single = nlohmann::json::array({doc});
  const nlohmann::json& suites = listed ? doc["suites"] : single;
  for (size_t s = 0; s < suites.size(); ++s) {
    const std::string where = listed ? at + " suite " + std::to_string(s) : at;
    if (!suites[s].is_object()) return invalid_argument(where + ": not a JSON object");
    SuiteSpec suite;
    if (auto m = suites[s].find("method"); m != suites[s].end()) {
      if (!m->is_string()) return invalid_argument(where + ": \"method\" must be a string");
      suite.method = m->get<std::string>();
    } else if (listed) {
      return invalid_argument(where + ": needs a \"method\"");
    }
    EMBER_TRY(read_case_list(suites[s], where, dir, &suite));
    out->push_back(std::move(suite));
  }
  return Error::Ok;
}

Result<BundledTestCase> read_case(const runtime::MethodMeta& meta, const CaseSpec& spec,
                                  const std::string& at, const Resolve& resolve) {
  if (spec.inputs.size() != meta.num_inputs()) {
    return invalid_argument(
        at + ": " + spec.origin + " names " + std::to_string(spec.inputs.size()) +
        " input file(s), the method takes " + std::to_string(meta.num_inputs()) + " input(s)");
  }
  if (spec.outputs.size() != meta.num_outputs()) {
    return invalid_argument(
        at + ": " + spec.origin + " names " + std::to_string(spec.outputs.size()) +
        " output file(s), the method gives " + std::to_string(meta.num_outputs()) + " output(s)");
  }
  BundledTestCase test_case;
  for (size_t i = 0; i < spec.inputs.size(); ++i) {
    EMBER_ASSIGN_OR_RETURN(BundledIoValue v,
                           read_value(meta.input_tag(i), meta.input_tensor_meta(i), spec.inputs[i],
                                      at + " input " + std::to_string(i), resolve));
    test_case.inputs.push_back(std::move(v));
  }
  for (size_t i = 0; i < spec.outputs.size(); ++i) {
    EMBER_ASSIGN_OR_RETURN(
        BundledIoValue v,
        read_value(meta.output_tag(i), meta.output_tensor_meta(i), spec.outputs[i],
                   at + " expected output " + std::to_string(i), resolve));
    test_case.expected_outputs.push_back(std::move(v));
  }
  return test_case;
}

}  // namespace

Result<std::vector<BundledTestSuite>> bundle_cases(const std::vector<uint8_t>& pte,
                                                   const std::vector<std::string>& input_flags,
                                                   const std::vector<std::string>& output_flags,
                                                   const std::string& cases_file,
                                                   const Resolve& resolve) {
  if (input_flags.size() != output_flags.size()) {
    return invalid_argument(
        "--bundle_inputs and --bundle_outputs make one test case per pair: got " +
        std::to_string(input_flags.size()) + " --bundle_inputs and " +
        std::to_string(output_flags.size()) + " --bundle_outputs");
  }
  std::vector<SuiteSpec> given(1);  // [0]: the flags' cases, for the only method
  for (size_t c = 0; c < input_flags.size(); ++c) {
    given[0].cases.push_back(CaseSpec{
        "--bundle_inputs '" + input_flags[c] + "' / --bundle_outputs '" + output_flags[c] + "'",
        split_commas(input_flags[c]), split_commas(output_flags[c])});
  }
  if (!cases_file.empty()) EMBER_TRY(read_cases_file(cases_file, resolve, &given));
  runtime::Module module(pte.data(), pte.size());
  if (runtime::Error err = module.load(); err != runtime::Error::Ok) {
    return annotate(err, "bundling: the lowered program does not load");
  }
  EMBER_ASSIGN_OR_RETURN(std::vector<std::string> methods, module.method_names());
  std::vector<BundledTestSuite> suites;
  size_t total = 0;
  for (const SuiteSpec& spec : given) {
    if (spec.cases.empty()) continue;
    std::string method = spec.method;
    if (method.empty()) {
      if (methods.size() != 1) {
        return invalid_argument("bundling: the program has " + std::to_string(methods.size()) +
                                " methods; name each one's cases in --bundle_cases "
                                "{\"suites\": [{\"method\": ..., \"cases\": [...]}]}");
      }
      method = methods[0];
    }
    if (std::find(methods.begin(), methods.end(), method) == methods.end()) {
      return invalid_argument("bundling: the program has no method '" + method + "'");
    }
    EMBER_ASSIGN_OR_RETURN(runtime::MethodMeta meta, module.method_meta(method));
    auto suite = std::find_if(suites.begin(), suites.end(),
                              [&](const BundledTestSuite& s) { return s.method == method; });
    if (suite == suites.end()) suite = suites.insert(suites.end(), BundledTestSuite{method, {}});
    for (const CaseSpec& c : spec.cases) {
      const std::string at =
          "bundled case " + std::to_string(suite->cases.size()) + " of method '" + method + "'";
      EMBER_ASSIGN_OR_RETURN(BundledTestCase test_case, read_case(meta, c, at, resolve));
      suite->cases.push_back(std::move(test_case));
      ++total;
    }
  }
  if (total == 0) return invalid_argument("bundling: no test case given");
  return suites;
}

std::string bundled_output_path(const std::string& pte_path, const std::string& bundle_out) {
  if (!bundle_out.empty()) return bundle_out;
  const size_t slash = pte_path.find_last_of('/');
  const size_t dot = pte_path.find_last_of('.');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash))
    return pte_path + ".bpte";
  return pte_path.substr(0, dot) + ".bpte";
}

}  // namespace ember::aot
