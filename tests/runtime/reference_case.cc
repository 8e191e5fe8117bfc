#include "tests/runtime/reference_case.h"

#include <cmath>
#include <cstring>

#include "runtime/core/half.h"
#include "tests/support/shared_fixtures.h"

namespace ember::testing {

using runtime::EValue;
using runtime::ScalarType;

bool parse_dtype(const std::string& name, ScalarType* out) {
  for (int code = 0; code < runtime::kNumScalarTypes; ++code) {
    const ScalarType t = static_cast<ScalarType>(code);
    if (runtime::is_valid(t) && name == runtime::scalar_type_name(t)) {
      *out = t;
      return true;
    }
  }
  return false;
}

namespace {

// The manifest's input generators (reference/README.md, "Input generation").
struct SplitMix64 {
  uint64_t state;
  uint64_t next() {
    state += 0x9E3779B97F4A7C15ull;
    uint64_t z = state;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
};

// Regenerates an input that the manifest did not store; "" on success.
std::string generate(const nlohmann::json& in, ScalarType type, size_t numel, std::vector<uint8_t>* bytes) {
  if (in.contains("values") && in["values"].size() == numel && type == ScalarType::Float) {
    bytes->resize(numel * 4);
    for (size_t i = 0; i < numel; ++i) {
      const float v = in["values"][i].get<float>();
      std::memcpy(bytes->data() + 4 * i, &v, 4);
    }
    return "";
  }
  if (!in.contains("generator") || !in["generator"].contains("seed")) return "input not stored and no generator";
  const auto& g = in["generator"];
  SplitMix64 rng{g["seed"].get<uint64_t>()};
  const std::string algorithm = g["algorithm"];
  if (algorithm == "splitmix64-uniform" && type == ScalarType::Float) {
    const double low = g.value("low", -1.0), high = g.value("high", 1.0);
    bytes->resize(numel * 4);
    for (size_t i = 0; i < numel; ++i) {
      const double m = double(rng.next() >> 40);
      const float v = float(low + (high - low) * m / 16777216.0);
      std::memcpy(bytes->data() + 4 * i, &v, 4);
    }
    return "";
  }
  return "unsupported generator " + algorithm;
}

}  // namespace

std::string build_inputs(const nlohmann::json& c, const std::string& dir, CaseInputs* out) {
  const auto& inputs = c["inputs"];
  out->values.resize(inputs.size());
  for (const auto& in : inputs) {
    const size_t index = in["index"].get<size_t>();
    const std::string kind = in["kind"];
    std::vector<uint8_t> bytes;
    if (in.contains("file") && in["file"].is_string() && !read_file(dir + "/" + in["file"].get<std::string>(), &bytes)) {
      return "cannot read " + in["file"].get<std::string>();
    }
    if (kind == "Int") {
      int64_t v = 0;
      if (bytes.size() == 8) std::memcpy(&v, bytes.data(), 8); else v = in["value"].get<int64_t>();
      out->values[index] = EValue(v);
    } else if (kind == "Double") {
      double v = 0;
      if (bytes.size() == 8) std::memcpy(&v, bytes.data(), 8); else v = in["value"].get<double>();
      out->values[index] = EValue(v);
    } else if (kind == "Bool") {
      out->values[index] = EValue(bytes.empty() ? in["value"].get<bool>() : bytes[0] != 0);
    } else if (kind == "Tensor") {
      ScalarType type;
      if (!parse_dtype(in["dtype"], &type)) return "unknown dtype " + in["dtype"].get<std::string>();
      std::vector<int32_t> sizes = in["shape"].get<std::vector<int32_t>>();
      if (bytes.empty() && in["nbytes"].get<size_t>() > 0) {
        size_t numel = 1;
        for (int32_t s : sizes) numel *= size_t(s);
        const std::string why = generate(in, type, numel, &bytes);
        if (!why.empty()) return why;
      }
      std::vector<uint8_t> order(sizes.size());
      for (size_t d = 0; d < order.size(); ++d) order[d] = uint8_t(d);
      out->data.push_back(std::move(bytes));
      out->sizes.push_back(std::move(sizes));
      out->dim_orders.push_back(std::move(order));
      out->strides.emplace_back(out->sizes.back().size());
      out->tensors.push_back(std::make_unique<runtime::Tensor>(
          type, out->sizes.back().size(), out->sizes.back().data(), out->dim_orders.back().data(),
          out->strides.back().data(), out->data.back().data()));
      if (out->tensors.back()->nbytes() != out->data.back().size()) return "input size mismatch";
      out->values[index] = EValue(out->tensors.back().get());
    } else {
      return "unsupported input kind " + kind;
    }
  }
  return "";
}

namespace {

double element(ScalarType t, const void* p, size_t i) {
  switch (t) {
    case ScalarType::Float: return static_cast<const float*>(p)[i];
    case ScalarType::Double: return static_cast<const double*>(p)[i];
    case ScalarType::Half: return float(static_cast<const runtime::Half*>(p)[i]);
    case ScalarType::Long: return double(static_cast<const int64_t*>(p)[i]);
    case ScalarType::Int: return static_cast<const int32_t*>(p)[i];
    case ScalarType::Short: return static_cast<const int16_t*>(p)[i];
    case ScalarType::Char: return static_cast<const int8_t*>(p)[i];
    case ScalarType::Byte: case ScalarType::Bool: return static_cast<const uint8_t*>(p)[i];
    default: return NAN;
  }
}

std::string compare_tensor(const nlohmann::json& e, const runtime::Tensor& t, const std::string& dir) {
  ScalarType type;
  if (!parse_dtype(e["dtype"], &type) || type != t.scalar_type()) {
    return "dtype " + std::string(runtime::scalar_type_name(t.scalar_type())) + ", expected " +
           e["dtype"].get<std::string>();
  }
  const auto shape = e["shape"].get<std::vector<int32_t>>();
  if (shape.size() != t.dim()) return "rank differs";
  for (size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] != t.size(d)) return "shape differs at dim " + std::to_string(d);
  }
  std::vector<uint8_t> ref;
  if ((!e.contains("file") || !e["file"].is_string()) && e.contains("samples") && e["samples"].is_object()) {
    const size_t stride = e["samples"]["stride"];
    const auto& values = e["samples"]["values"];
    const double atol = e["tolerance"].value("atol", 0.0), rtol = e["tolerance"].value("rtol", 0.0);
    for (size_t k = 0; k < values.size(); ++k) {
      const double want = values[k], got = element(type, t.const_data_ptr(), k * stride);
      if (!(std::fabs(got - want) <= atol + rtol * std::fabs(want))) {
        return "sample " + std::to_string(k) + ": got " + std::to_string(got) + ", want " + std::to_string(want);
      }
    }
    return "";
  }
  if (!e.contains("file") || !e["file"].is_string()) return "SKIP: reference output not stored";
  if (!read_file(dir + "/" + e["file"].get<std::string>(), &ref)) return "cannot read reference";
  if (ref.size() != t.nbytes()) return "byte size differs";
  double atol = 0, rtol = 0;
  if (e.contains("tolerance")) {
    atol = e["tolerance"].value("atol", 0.0);
    rtol = e["tolerance"].value("rtol", 0.0);
  }
  for (size_t i = 0; i < t.numel(); ++i) {
    const double got = element(type, t.const_data_ptr(), i), want = element(type, ref.data(), i);
    if (std::isnan(got) && std::isnan(want)) continue;
    if (!(std::fabs(got - want) <= atol + rtol * std::fabs(want))) {
      return "element " + std::to_string(i) + ": got " + std::to_string(got) + ", want " + std::to_string(want);
    }
  }
  return "";
}

}  // namespace

std::string compare_output(const nlohmann::json& e, const EValue& got, const std::string& dir) {
  const std::string kind = e["kind"];
  if (kind == "Tensor") {
    if (!got.is_tensor()) return std::string("expected a Tensor, got ") + runtime::tag_name(got.tag());
    return compare_tensor(e, got.to_tensor(), dir);
  }
  if (kind == "Int") {
    if (!got.is_int() || got.to_int() != e["value"].get<int64_t>()) return "Int value differs";
  } else if (kind == "Double") {
    if (!got.is_double() || std::fabs(got.to_double() - e["value"].get<double>()) > 1e-12) return "Double differs";
  } else if (kind == "Bool") {
    if (!got.is_bool() || got.to_bool() != e["value"].get<bool>()) return "Bool differs";
  } else if (kind == "String") {
    if (!got.is_string() || got.to_string() != e["value"].get<std::string>()) return "String differs";
  } else {
    return "unsupported output kind " + kind;
  }
  return "";
}

}  // namespace ember::testing
