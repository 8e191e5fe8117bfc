// Fixture listing and comparison (see fixture_corpus.h).
#include "tests/e2e/fixture_corpus.h"

#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>

#include "tests/support/shared_fixtures.h"

namespace ember::testing {
namespace {

using Json = nlohmann::json;

bool exists(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0;
}

std::string runfiles_dir() {
  const char* srcdir = std::getenv("TEST_SRCDIR");
  const char* ws = std::getenv("TEST_WORKSPACE");
  if (srcdir == nullptr || ws == nullptr) return "";
  return std::string(srcdir) + "/" + ws;
}

// The committed fixture folder `sub` ("pt2", "pt2_quant").
std::string repo_fixture_dir(const std::string& sub) {
  std::string r = runfiles_dir();
  return r.empty() ? "tests/fixtures/" + sub : r + "/tests/fixtures/" + sub;
}

// Where external entries of folder `sub` live: $EMBER_LARGE_FIXTURES_DIR/<sub>, else
// large_fixtures/<sub> beside the checkout; "" when absent.
std::string external_dir(const std::string& sub) {
  if (const char* env = std::getenv("EMBER_LARGE_FIXTURES_DIR"); env != nullptr && *env != 0) {
    return std::string(env) + "/" + sub;
  }
  std::string marker = runfiles_dir() + "/WORKSPACE";
  char real[PATH_MAX];
  if (runfiles_dir().empty() || realpath(marker.c_str(), real) == nullptr) {
    return exists("/work/large_fixtures/" + sub) ? "/work/large_fixtures/" + sub : "";
  }
  std::string repo(real);
  repo = repo.substr(0, repo.find_last_of('/'));
  std::string dir = repo.substr(0, repo.find_last_of('/')) + "/large_fixtures/" + sub;
  return exists(dir) ? dir : "";
}

aot::ScalarType dtype_of(const std::string& name) {
  if (name == "float32") return aot::ScalarType::Float;
  if (name == "int64") return aot::ScalarType::Long;
  if (name == "int32") return aot::ScalarType::Int;
  if (name == "bool") return aot::ScalarType::Bool;
  if (name == "float64") return aot::ScalarType::Double;
  return aot::ScalarType::Undefined;
}

FixtureTensor tensor_of(const Json& j, const std::string& dir) {
  FixtureTensor t;
  t.file = dir + "/" + j.value("file", "");
  t.dtype = dtype_of(j.value("dtype", ""));
  for (const auto& d : j.at("shape")) t.shape.push_back(d.get<int64_t>());
  t.exact = j.value("exact", false);
  t.quant_scale = j.value("quant_scale", 0.0);
  return t;
}

// Adds the models of `dir`/manifest.json whose .pt2 exists; external entries are looked up
// in `ext`.
void add_manifest(const std::string& dir, const std::string& ext, const std::string& prefix,
                  std::vector<Fixture>* out) {
  std::ifstream in(dir + "/manifest.json");
  if (!in.good()) return;
  Json m = Json::parse(in, nullptr, false);
  if (m.is_discarded() || !m.contains("models")) return;
  for (auto& [id, model] : m["models"].items()) {
    const bool external = model.value("location", "repo") == "external";
    std::string base = external ? ext : dir;
    if (base.empty() || !exists(base + "/" + model.value("file", ""))) continue;
    Fixture f;
    f.id = prefix + id;
    f.pt2 = base + "/" + model.value("file", "");
    f.dialect = model.value("dialect", "");
    f.stateful = model.value("stateful", false);
    f.external = external;
    for (const auto& t : model.value("greedy_tokens", Json::array())) {
      f.greedy_tokens.push_back(t.get<int64_t>());
    }
    if (model.contains("tolerance")) {
      f.atol = model["tolerance"].value("atol", f.atol);
      f.rtol = model["tolerance"].value("rtol", f.rtol);
      f.quant_steps = model["tolerance"].value("quant_steps", f.quant_steps);
      f.min_fraction = model["tolerance"].value("min_fraction", f.min_fraction);
    }
    for (const auto& c : model.value("cases", Json::array())) {
      FixtureCase fc;
      for (const auto& t : c.at("inputs")) fc.inputs.push_back(tensor_of(t, base));
      for (const auto& t : c.at("outputs")) fc.outputs.push_back(tensor_of(t, base));
      f.cases.push_back(std::move(fc));
    }
    out->push_back(std::move(f));
  }
}

double element(const aot::HostTensor& t, int64_t i) {
  switch (t.dtype) {
    case aot::ScalarType::Float: { float v; std::memcpy(&v, t.bytes.data() + 4 * i, 4); return v; }
    case aot::ScalarType::Double: { double v; std::memcpy(&v, t.bytes.data() + 8 * i, 8); return v; }
    case aot::ScalarType::Long: { int64_t v; std::memcpy(&v, t.bytes.data() + 8 * i, 8); return static_cast<double>(v); }
    case aot::ScalarType::Int: { int32_t v; std::memcpy(&v, t.bytes.data() + 4 * i, 4); return v; }
    case aot::ScalarType::Bool: return t.bytes[static_cast<size_t>(i)] != 0;
    default: return std::nan("");
  }
}

void sort_by_id(std::vector<Fixture>* v) {
  std::sort(v->begin(), v->end(), [](const Fixture& a, const Fixture& b) { return a.id < b.id; });
}

}  // namespace

std::vector<Fixture> list_fixtures() {
  std::vector<Fixture> out;
  add_manifest(repo_fixture_dir("pt2"), external_dir("pt2"), "", &out);
  std::string shared = shared_dir();
  if (!shared.empty()) {
    add_manifest(shared + "/fixtures/pt2/generated", external_dir("pt2"), "shared:", &out);
  }
  sort_by_id(&out);
  return out;
}

std::vector<Fixture> list_quantized_fixtures() {
  std::vector<Fixture> out;
  add_manifest(repo_fixture_dir("pt2_quant"), external_dir("pt2_quant"), "", &out);
  sort_by_id(&out);
  return out;
}

std::vector<Fixture> list_llm_fixtures() {
  std::vector<Fixture> out;
  add_manifest(repo_fixture_dir("llm"), external_dir("llm"), "", &out);
  sort_by_id(&out);
  return out;
}

bool read_fixture_tensor(const FixtureTensor& t, aot::HostTensor* out) {
  std::vector<uint8_t> bytes;
  if (!read_file(t.file, &bytes)) return false;
  out->dtype = t.dtype;
  out->sizes = t.shape;
  size_t expected = static_cast<size_t>(out->numel()) * aot::element_size(t.dtype);
  if (bytes.size() != expected) return false;
  out->bytes = std::move(bytes);
  return true;
}

Comparison compare_tensors(const aot::HostTensor& got, const aot::HostTensor& ref, bool exact,
                           double atol, double rtol) {
  Comparison c;
  if (got.dtype != ref.dtype || got.sizes != ref.sizes) {
    c.ok = false;
    c.message = "dtype/shape mismatch: got dtype " + std::to_string(static_cast<int>(got.dtype)) +
                " rank " + std::to_string(got.sizes.size()) + ", expected dtype " +
                std::to_string(static_cast<int>(ref.dtype)) + " rank " + std::to_string(ref.sizes.size());
    return c;
  }
  bool is_float = ref.dtype == aot::ScalarType::Float || ref.dtype == aot::ScalarType::Double;
  for (int64_t i = 0; i < ref.numel(); ++i) {
    double g = element(got, i), r = element(ref, i);
    double diff = std::fabs(g - r);
    if (std::isnan(r) && std::isnan(g)) continue;
    c.max_abs = std::max(c.max_abs, std::isnan(diff) ? INFINITY : diff);
    if (std::fabs(r) >= 1e-3) c.max_rel = std::max(c.max_rel, diff / std::fabs(r));
    double tol = (exact || !is_float) ? 0.0 : atol + rtol * std::fabs(r);
    double frac = tol == 0 ? (diff == 0 ? 0 : INFINITY) : diff / tol;
    c.worst_fraction = std::max(c.worst_fraction, std::isnan(frac) ? INFINITY : frac);
    if (!(diff <= tol) && c.ok) {
      c.ok = false;
      c.message = "element " + std::to_string(i) + ": got " + std::to_string(g) + ", expected " +
                  std::to_string(r) + " (tolerance " + std::to_string(tol) + ")";
    }
  }
  return c;
}

QuantComparison compare_quantized(const aot::HostTensor& got, const aot::HostTensor& ref,
                                  double step, double steps, double min_fraction) {
  QuantComparison c;
  if (got.dtype != ref.dtype || got.sizes != ref.sizes) {
    c.ok = false;
    c.within = 0;
    c.message = "dtype/shape mismatch";
    return c;
  }
  const int64_t n = ref.numel();
  int64_t inside = 0;
  for (int64_t i = 0; i < n; ++i) {
    const double d = std::fabs(element(got, i) - element(ref, i)) / step;
    c.max_steps = std::max(c.max_steps, std::isnan(d) ? INFINITY : d);
    // Both sides sit on the same grid; the slack absorbs float rounding of the grid values.
    if (d <= steps + 1e-3) ++inside;
  }
  c.within = n == 0 ? 1.0 : static_cast<double>(inside) / static_cast<double>(n);
  if (c.within < min_fraction) {
    c.ok = false;
    c.message = std::to_string(n - inside) + " of " + std::to_string(n) + " elements differ by more than " +
                std::to_string(steps) + " step(s) of " + std::to_string(step) + " (max " +
                std::to_string(c.max_steps) + " steps)";
  }
  return c;
}

std::string compare_output(const aot::HostTensor& got, const aot::HostTensor& ref,
                           const FixtureTensor& want, const Fixture& f, double steps,
                           OutputStats* stats) {
  if (want.quant_scale > 0) {
    QuantComparison q = compare_quantized(got, ref, want.quant_scale, steps, f.min_fraction);
    stats->max_steps = std::max(stats->max_steps, q.max_steps);
    stats->within = std::min(stats->within, q.within);
    return q.message;
  }
  Comparison c = compare_tensors(got, ref, want.exact, f.atol, f.rtol);
  stats->max_abs = std::max(stats->max_abs, c.max_abs);
  return c.message;
}

}  // namespace ember::testing
