// End-to-end: the XNNPACK programs of the upstream corpus
// (../shared/fixtures/executorch-pte) run through ember::runtime::Module
// (Program + Method) with the XNNPACK backend, prim ops and the reference kernel
// set (the portable kernels), and are compared with upstream ExecuTorch 1.4.1's
// reference outputs within the manifest's tolerance, every case of every method. A program that also needs a portable kernel Ember's
// test set lacks must fail at load with OperatorMissing naming it (skipped,
// with the name printed); XNNPACK-only programs must match.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "backends/xnnpack/runtime/xnnpack_backend.h"
#include "runtime/backend/backend_registry.h"
#include "runtime/core/diagnostics.h"
#include "runtime/kernel/prim_ops/prim_ops.h"
#include "runtime/module/module.h"
#include "tests/runtime/reference_case.h"
#include "tests/runtime/reference_kernels.h"
#include "tests/support/shared_fixtures.h"

namespace ember::testing {
namespace {

using runtime::Error;

struct Fixture {
  const char* stem;
  bool xnnpack_only;  // every instruction is a DelegateCall: must match
};

const Fixture kFixtures[] = {
    {"corey-cole__executorch-numpy-runtime__add", true},
    {"corey-cole__djl-executorch-engine__add_unplanned", true},
    {"corey-cole__djl-executorch-engine__clamp5", true},
    {"corey-cole__djl-executorch-engine__conv", true},
    {"corey-cole__djl-executorch-engine__lin129", true},
    {"corey-cole__djl-executorch-engine__lin129_planned", true},
    {"corey-cole__executorch-numpy-runtime__dynamic", true},
    {"corey-cole__executorch-numpy-runtime__quantized", true},
    {"corey-cole__simple-torch-model__model", true},
    {"balthazarneveu__executorch_smoothly__xnnpack_simpleconv", true},
    {"corey-cole__djl-executorch-engine__stress_mlp", false},
    {"kadu-v__yolox-executorch-ios__yolox_nano_xnnpack", false},
    {"berndporr__dnf_executorch__dnf_xnnpack_2026-03-07", false},
};

class UpstreamFiles : public ::testing::TestWithParam<Fixture> {
 protected:
  void SetUp() override {
    if (shared_dir().empty()) GTEST_SKIP() << skip_message();
    dir_ = shared_dir() + "/fixtures/executorch-pte";
    std::ifstream in(dir_ + "/reference/manifest.json");
    ASSERT_TRUE(in.good());
    manifest_ = nlohmann::json::parse(in, nullptr, false);
    ASSERT_FALSE(manifest_.is_discarded());
    ASSERT_EQ(runtime::register_prim_ops(kernels_), Error::Ok);
    ASSERT_EQ(register_reference_kernels(kernels_), Error::Ok);
    ASSERT_EQ(backends::xnnpack::register_backend(backends_), Error::Ok);
  }

  std::string dir_;
  nlohmann::json manifest_;
  runtime::FixedKernelRegistry<512> kernels_;
  runtime::BackendRegistry backends_;
};

TEST_P(UpstreamFiles, MatchesReference) {
  const Fixture fx = GetParam();
  runtime::Module module(dir_ + "/" + fx.stem + ".pte");
  runtime::Module::Options options;
  options.method.kernels = &kernels_;
  options.method.backends = &backends_;
  module.set_options(options);
  ASSERT_EQ(module.load(), Error::Ok) << runtime::last_error_message();
  const Error load = module.load_method("forward").error();
  if (load != Error::Ok) {
    const std::string message = runtime::last_error_message();
    ASSERT_FALSE(fx.xnnpack_only) << runtime::error_name(load) << ": " << message;
    ASSERT_EQ(load, Error::OperatorMissing) << message;  // not an XNNPACK failure
    GTEST_SKIP() << "needs a kernel Ember's test set lacks: " << message;
  }
  int matched = 0, compared = 0, regenerated = 0;  // cases run, outputs compared, left out
  for (const auto& c : manifest_["cases"]) {
    if (c["fixture"] != std::string(fx.stem) + ".pte" || c["expect"] != "ok") continue;
    bool stored = true;
    for (const auto& in : c["inputs"]) stored &= in.contains("file") && in["file"].is_string();
    if (!stored) {  // too big to store; delegate_direct_test regenerates it
      ++regenerated;
      continue;
    }
    SCOPED_TRACE(c["id"].get<std::string>());
    CaseInputs inputs;
    ASSERT_EQ(build_inputs(c, dir_, &inputs), "");
    // Every method with cases (dnf's training-metadata methods besides forward).
    const std::string method = c["method"];
    auto outputs = module.execute(method, inputs.values);
    ASSERT_TRUE(outputs.ok()) << runtime::error_name(outputs.error()) << ": "
                              << runtime::last_error_message();
    for (const auto& expected : c["outputs"]) {
      const size_t index = expected["index"];
      ASSERT_LT(index, outputs->size());
      const std::string diff = compare_output(expected, (*outputs)[index], dir_);
      if (diff.rfind("SKIP: ", 0) == 0) continue;
      EXPECT_EQ(diff, "") << "output " << index;
      ++compared;
    }
    ++matched;
  }
  std::printf("%s: %d case(s) matched, %d output(s) compared, %d case(s) left to "
              "delegate_direct_test (inputs regenerated)\n",
              fx.stem, matched, compared, regenerated);
  EXPECT_GT(matched, 0);
  EXPECT_GT(compared, 0);
}

INSTANTIATE_TEST_SUITE_P(Fixtures, UpstreamFiles, ::testing::ValuesIn(kFixtures),
                         [](const ::testing::TestParamInfo<Fixture>& info) {
                           std::string s = info.param.stem;
                           s = s.substr(s.rfind("__") + 2);
                           for (char& ch : s) {
                             if (!isalnum(static_cast<unsigned char>(ch))) ch = '_';
                           }
                           return s;
                         });

}  // namespace
}  // namespace ember::testing
