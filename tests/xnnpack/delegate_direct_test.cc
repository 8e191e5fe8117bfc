// Runs the XNNPACK delegates of upstream's .pte fixtures directly (no Method):
// every delegate must initialise; programs made only of DelegateCalls are run on
// the manifest's reference inputs and compared with upstream's outputs within
// the manifest's tolerance. (upstream_files_test.cc does the same through
// Program/Method, with portable kernels, for every file.)
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>

#include "runtime/core/diagnostics.h"
#include "tests/support/shared_fixtures.h"
#include "tests/xnnpack/pte_delegate_harness.h"

namespace ember::testing {
namespace {

const char* const kFixtures[] = {
    "corey-cole__executorch-numpy-runtime__add",
    "corey-cole__djl-executorch-engine__add_unplanned",
    "corey-cole__djl-executorch-engine__clamp5",
    "corey-cole__djl-executorch-engine__conv",
    "corey-cole__djl-executorch-engine__lin129",
    "corey-cole__djl-executorch-engine__lin129_planned",
    "corey-cole__executorch-numpy-runtime__dynamic",
    "corey-cole__executorch-numpy-runtime__quantized",
    "corey-cole__djl-executorch-engine__stress_mlp",
    "corey-cole__simple-torch-model__model",
    "balthazarneveu__executorch_smoothly__xnnpack_simpleconv",
    "kadu-v__yolox-executorch-ios__yolox_nano_xnnpack",
    "berndporr__dnf_executorch__dnf_xnnpack_2026-03-07",
};

class DelegateDirect : public ::testing::TestWithParam<const char*> {};

// The manifest's "splitmix64-uniform" generator (for inputs too big to store).
std::vector<uint8_t> generate_uniform(const nlohmann::json& gen, size_t nbytes) {
  uint64_t state = gen["seed"].get<uint64_t>();
  const double low = gen["low"], high = gen["high"];
  std::vector<uint8_t> bytes(nbytes);
  float* out = reinterpret_cast<float*>(bytes.data());
  for (size_t i = 0; i < nbytes / sizeof(float); ++i) {
    state += 0x9E3779B97F4A7C15ull;
    uint64_t z = state;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    const double m = double(z >> 40) / double(1 << 24);
    out[i] = float(low + (high - low) * m);
  }
  return bytes;
}

// Reference values of an output: the stored file, or the manifest's samples
// (every `stride`-th element) when the file was too big to keep.
bool reference_values(const std::string& dir, const nlohmann::json& out, size_t* stride,
                      std::vector<float>* values) {
  if (!out["file"].is_null()) {
    std::vector<uint8_t> ref;
    if (!read_file(dir + "/" + out["file"].get<std::string>(), &ref)) return false;
    values->resize(ref.size() / sizeof(float));
    std::memcpy(values->data(), ref.data(), values->size() * sizeof(float));
    *stride = 1;
    return true;
  }
  if (!out.contains("samples")) return false;
  *stride = out["samples"]["stride"];
  *values = out["samples"]["values"].get<std::vector<float>>();
  return true;
}

nlohmann::json load_manifest(const std::string& dir) {
  std::ifstream in(dir + "/reference/manifest.json");
  return nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
}

TEST_P(DelegateDirect, MatchesUpstream) {
  const std::string shared = shared_dir();
  if (shared.empty()) GTEST_SKIP() << skip_message();
  const std::string dir = shared + "/fixtures/executorch-pte";
  const std::string stem = GetParam();
  PteDelegateHarness h;
  std::string err;
  ASSERT_TRUE(h.load(dir + "/" + stem + ".pte", &err)) << err;
  const runtime::Error init = h.init_delegates("forward");
  ASSERT_EQ(init, runtime::Error::Ok) << runtime::last_error_message();
  // The program also has KernelCalls (stress_mlp, yolox_nano, dnf): running it needs the
  // executor and the portable kernels, which upstream_files_test does end to end. Here its
  // delegates were initialised (above); their outputs need the kernels' inputs.
  if (!h.only_delegate_calls()) {
    GTEST_SKIP() << h.num_delegates() << " delegate(s) initialised; the method also has "
                 << "KernelCalls, run end to end by upstream_files_test";
  }
  const nlohmann::json manifest = load_manifest(dir);
  ASSERT_FALSE(manifest.is_discarded());
  int cases = 0;
  for (const auto& c : manifest["cases"]) {
    if (c["fixture"] != stem + ".pte" || c["method"] != "forward" || c["expect"] != "ok") continue;
    SCOPED_TRACE(c["id"].get<std::string>());
    ++cases;
    for (const auto& in : c["inputs"]) {
      std::vector<uint8_t> bytes;
      if (in["file"].is_null()) {
        ASSERT_EQ(in["generator"]["algorithm"], "splitmix64-uniform");
        bytes = generate_uniform(in["generator"], in["nbytes"]);
      } else {
        ASSERT_TRUE(read_file(dir + "/" + in["file"].get<std::string>(), &bytes));
      }
      ASSERT_EQ(h.set_input(in["index"], in["shape"].get<std::vector<int32_t>>(), bytes),
                runtime::Error::Ok);
    }
    ASSERT_EQ(h.execute(), runtime::Error::Ok) << runtime::last_error_message();
    for (const auto& out : c["outputs"]) {
      size_t stride = 1;
      std::vector<float> want;
      ASSERT_TRUE(reference_values(dir, out, &stride, &want));
      const runtime::Tensor& t = h.output(out["index"]);
      const auto shape = out["shape"].get<std::vector<int32_t>>();
      ASSERT_EQ(t.dim(), shape.size());
      for (size_t d = 0; d < shape.size(); ++d) EXPECT_EQ(t.size(d), shape[d]);
      ASSERT_EQ(t.nbytes(), out["nbytes"].get<size_t>());
      const double atol = out["tolerance"]["atol"], rtol = out["tolerance"]["rtol"];
      const float* got = t.const_data_ptr<float>();
      size_t bad = 0;
      for (size_t k = 0; k < want.size() && k * stride < t.numel(); ++k) {
        const double g = got[k * stride], w = want[k];
        if (!(std::fabs(g - w) <= atol + rtol * std::fabs(w))) {
          if (++bad <= 3) ADD_FAILURE() << "element " << k * stride << ": got " << g << ", want " << w;
        }
      }
      EXPECT_EQ(bad, 0u);
    }
  }
  std::printf("%s: %d case(s) run on the delegates alone\n", stem.c_str(), cases);
  EXPECT_GT(cases, 0);
}

INSTANTIATE_TEST_SUITE_P(Fixtures, DelegateDirect, ::testing::ValuesIn(kFixtures),
                         [](const ::testing::TestParamInfo<const char*>& info) {
                           std::string s = info.param;
                           s = s.substr(s.rfind("__") + 2);
                           for (char& ch : s) if (!isalnum(static_cast<unsigned char>(ch))) ch = '_';
                           return s;
                         });

}  // namespace
}  // namespace ember::testing
