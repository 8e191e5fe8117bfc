// Differential interop: for every "ok" case of the upstream reference corpus
// (shared/fixtures/executorch-pte/reference/manifest.json) whose original file
// runs on Ember's runtime (prim ops, the portable kernels and the XNNPACK
// backend), the same program
// re-emitted by our writer (lift_pte + write_pte) must also run and match
// upstream ExecuTorch's stored outputs within the case's tolerance.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <set>

#include "aot/emit/pte_writer.h"
#include "backends/xnnpack/runtime/xnnpack_backend.h"
#include "kernels/portable/register_kernels.h"
#include "runtime/backend/backend_registry.h"
#include "runtime/kernel/prim_ops/prim_ops.h"
#include "runtime/module/module.h"
#include "tests/emit/pte_view.h"
#include "tests/runtime/reference_case.h"
#include "tests/support/shared_fixtures.h"

namespace ember::aot {
namespace {

namespace fb = executorch_flatbuffer;
using runtime::Error;
using runtime::Module;

class ReemitReferenceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    shared_ = ember::testing::shared_dir();
    if (shared_.empty()) GTEST_SKIP() << ember::testing::skip_message();
    dir_ = shared_ + "/fixtures/executorch-pte";
    std::ifstream in(dir_ + "/reference/manifest.json");
    ASSERT_TRUE(in.good());
    manifest_ = nlohmann::json::parse(in);
    ASSERT_EQ(runtime::register_prim_ops(kernels_), Error::Ok);
    ASSERT_EQ(kernels::portable::register_kernels(kernels_), Error::Ok);
    ASSERT_EQ(backends::xnnpack::register_backend(backends_), Error::Ok);
  }

  void configure(Module* module) {
    Module::Options options;
    options.method.kernels = &kernels_;
    options.method.backends = &backends_;
    module->set_options(options);
  }

  // Runs `c` on `module`; "" when every output matches upstream.
  std::string run_case(Module* module, const nlohmann::json& c) {
    const std::string method = c["method"];
    if (module->load() != Error::Ok) return "program load failed";
    if (!module->load_method(method).ok()) return "method load failed";
    ember::testing::CaseInputs inputs;
    std::string problem = ember::testing::build_inputs(c, dir_, &inputs);
    if (!problem.empty()) return problem;
    auto outputs = module->execute(method, inputs.values);
    if (!outputs.ok()) return std::string("execute: ") + runtime::error_name(outputs.error());
    for (const auto& expected : c["outputs"]) {
      const size_t index = expected["index"];
      if (index >= outputs->size()) return "missing output";
      std::string diff = ember::testing::compare_output(expected, (*outputs)[index], dir_);
      if (!diff.empty()) return diff;
    }
    return "";
  }

  std::string shared_, dir_;
  nlohmann::json manifest_;
  runtime::FixedKernelRegistry<512> kernels_;
  runtime::BackendRegistry backends_;
};

TEST_F(ReemitReferenceTest, ReemittedProgramsMatchUpstreamOutputs) {
  int matched = 0, skipped = 0;
  for (const auto& c : manifest_["cases"]) {
    const std::string fixture = c["fixture"];
    if (c["expect"] != "ok" || fixture.size() < 4 || fixture.substr(fixture.size() - 4) != ".pte") {
      continue;
    }
    SCOPED_TRACE(c["id"].get<std::string>());
    Module original(dir_ + "/" + fixture);
    configure(&original);
    if (!run_case(&original, c).empty()) {
      ++skipped;  // Ember cannot run the original here (kernel, backend or .ptd missing)
      continue;
    }
    std::vector<uint8_t> bytes;
    ASSERT_TRUE(ember::testing::read_file(dir_ + "/" + fixture, &bytes));
    emit_test::PteView view(bytes);
    ASSERT_TRUE(view.ok());
    EmitProgram program;
    std::string why;
    ASSERT_TRUE(emit_test::lift_pte(view, &program, &why)) << why;
    std::vector<uint8_t> reemitted;
    Error s = write_pte(program, &reemitted);
    ASSERT_EQ(s, Error::Ok) << format_error(s);
    Module ours(reemitted.data(), reemitted.size());
    configure(&ours);
    std::string diff = run_case(&ours, c);
    EXPECT_EQ(diff, "");
    matched += diff.empty();
  }
  std::printf("re-emitted programs matching upstream outputs: %d (skipped %d)\n", matched, skipped);
  EXPECT_GE(matched, 100);  // 107 of 112 when written
}

}  // namespace
}  // namespace ember::aot
