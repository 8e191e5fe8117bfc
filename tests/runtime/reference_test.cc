// End-to-end: every case of the upstream ExecuTorch 1.4.1 reference corpus
// (../shared/fixtures/executorch-pte/reference/manifest.json). A case whose
// operators and backends Ember has must match upstream's outputs within the
// manifest's tolerance; one needing a kernel or backend Ember lacks must fail
// at load with a named error naming it (counted as skipped); an `error` case
// must fail with upstream's error. Prints a coverage summary.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <map>
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
using runtime::Module;

struct Coverage {
  int matched = 0, expected_errors = 0;
  std::map<std::string, int> skipped;  // reason -> cases
  std::vector<std::string> failures;
};

class ReferenceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (shared_dir().empty()) GTEST_SKIP() << skip_message();
    dir_ = shared_dir() + "/fixtures/executorch-pte";
    std::ifstream in(dir_ + "/reference/manifest.json");
    ASSERT_TRUE(in.good());
    manifest_ = nlohmann::json::parse(in);
    ASSERT_EQ(runtime::register_prim_ops(kernels_), Error::Ok);
    ASSERT_EQ(register_reference_kernels(kernels_), Error::Ok);
    ASSERT_EQ(backends::xnnpack::register_backend(backends_), Error::Ok);
  }

  std::unique_ptr<Module> open(const std::string& fixture, const nlohmann::json& data_file) {
    const nlohmann::json* entry = nullptr;
    for (const auto& f : manifest_["fixtures"]) {
      if (f["file"] == fixture) entry = &f;
    }
    std::unique_ptr<Module> module;
    if (entry != nullptr && entry->contains("bundled") && (*entry)["bundled"].is_object()) {
      std::vector<uint8_t> bytes;
      read_file(dir_ + "/" + fixture, &bytes);
      const size_t offset = (*entry)["bundled"]["inner_program_offset"];
      const size_t size = (*entry)["bundled"]["inner_program_size"];
      module = std::make_unique<Module>(bytes.data() + offset, size);
    } else {
      module = std::make_unique<Module>(dir_ + "/" + fixture);
    }
    if (data_file.is_string()) module->set_data_path(dir_ + "/" + data_file.get<std::string>());
    Module::Options options;
    options.method.kernels = &kernels_;
    options.method.backends = &backends_;
    module->set_options(options);
    return module;
  }

  // Why a load error is acceptable as "Ember lacks X", or "" if it is not.
  static std::string skip_reason(Error err, const std::string& message) {
    const auto after = [&](const std::string& marker) {
      const size_t at = message.find(marker);
      if (at == std::string::npos) return std::string();
      const size_t begin = at + marker.size();
      return message.substr(begin, message.find('\'', begin) - begin);
    };
    if (err == Error::OperatorMissing && message.find("no registered kernel: ") != std::string::npos) {
      return "kernel " + message.substr(message.find("no registered kernel: ") + 22);
    }
    if (err == Error::NotFound && !after("needs backend '").empty()) return "backend " + after("needs backend '");
    if (err == Error::InvalidState && message.find("no data map (.ptd)") != std::string::npos) {
      return ".ptd data map support";
    }
    return "";
  }

  void run_ok_case(const nlohmann::json& c) {
    const std::string id = c["id"];
    for (const auto& o : c["outputs"]) {
      if (o.value("nbytes", size_t(0)) > (size_t(64) << 20)) {
        cov_.skipped["a unit-test memory budget (output above 64 MiB)"]++;
        return;
      }
    }
    std::unique_ptr<Module> module = open(c["fixture"], c["data_file"]);
    const std::string method = c["method"];
    Error err = module->load();
    if (err == Error::Ok) err = module->load_method(method).error();
    if (err != Error::Ok) {
      const std::string reason = skip_reason(err, runtime::last_error_message());
      if (reason.empty()) {
        fail(id, std::string("load failed: ") + runtime::error_name(err) + ": " + runtime::last_error_message());
      } else {
        cov_.skipped[reason]++;
      }
      return;
    }
    CaseInputs inputs;
    const std::string problem = build_inputs(c, dir_, &inputs);
    if (!problem.empty()) return fail(id, problem);
    auto outputs = module->execute(method, inputs.values);
    if (!outputs.ok()) {
      return fail(id, std::string("execute: ") + runtime::error_name(outputs.error()) + ": " +
                          runtime::last_error_message());
    }
    for (const auto& expected : c["outputs"]) {
      const size_t index = expected["index"];
      if (index >= outputs->size()) return fail(id, "missing output " + std::to_string(index));
      const std::string diff = compare_output(expected, (*outputs)[index], dir_);
      if (diff.rfind("SKIP: ", 0) == 0) {
        cov_.skipped[diff.substr(6)]++;
        return;
      }
      if (!diff.empty()) return fail(id, "output " + std::to_string(index) + ": " + diff);
    }
    cov_.matched++;
  }

  // `expected` is an expected_error / default_build object: stage, error, upstream_log.
  void check_expected_error(const std::string& id, const std::string& fixture, const nlohmann::json& data_file,
                            const std::string& method, const nlohmann::json& expected, const nlohmann::json* c) {
    const std::string want = expected["error"].get<std::string>().substr(7);  // "Error::X"
    const std::string stage = expected["stage"];
    std::unique_ptr<Module> module = open(fixture, data_file);
    Error err = module->load();
    if (err == Error::Ok && stage != "program_load") err = module->load_method(method).error();
    if (err == Error::Ok && stage == "set_input" && c != nullptr) {
      CaseInputs inputs;
      ASSERT_EQ(build_inputs(*c, dir_, &inputs), "");
      err = module->execute(method, inputs.values).error();
    }
    const std::string message = runtime::last_error_message();
    if (stage == "program_load" && err == Error::Ok) {
      cov_.skipped["deprecated constant_buffer files run (upstream default build rejects them)"]++;
      return;
    }
    if (err == Error::InvalidState && want == "InvalidExternalData" &&
        message.find("no data map (.ptd)") != std::string::npos) {
      cov_.skipped[".ptd data map support"]++;
      return;
    }
    if (want != runtime::error_name(err)) {
      return fail(id, "expected " + want + " at " + stage + ", got " + runtime::error_name(err) + ": " + message);
    }
    // The message must name what is missing, as upstream's log does.
    for (const auto& line : expected["upstream_log"]) {
      const std::string log = line;
      for (const std::string marker : {"Backend ", "kernel '"}) {
        const size_t at = log.find(marker);
        if (at == std::string::npos) continue;
        const size_t begin = at + marker.size();
        const std::string name = log.substr(begin, log.find_first_of(" '", begin) - begin);
        if (message.find(name) == std::string::npos) {
          return fail(id, "error message does not name '" + name + "': " + message);
        }
      }
    }
    cov_.expected_errors++;
  }

  void fail(const std::string& id, const std::string& why) {
    cov_.failures.push_back(id + ": " + why);
    ADD_FAILURE() << id << ": " << why;
  }

  std::string dir_;
  nlohmann::json manifest_;
  runtime::FixedKernelRegistry<512> kernels_;
  runtime::BackendRegistry backends_;
  Coverage cov_;
};

TEST_F(ReferenceTest, EveryCaseMatchesUpstreamOrFailsWithANamedError) {
  for (const auto& c : manifest_["cases"]) {
    if (c["expect"] == "ok") {
      run_ok_case(c);
    } else {
      check_expected_error(c["id"], c["fixture"], c["data_file"], c["method"], c["expected_error"], &c);
    }
  }
  // Methods upstream cannot run and that have no stored case.
  for (const auto& f : manifest_["fixtures"]) {
    for (const auto& m : f["methods"]) {
      if (!m["cases"].empty() || !m.contains("default_build") || m["default_build"]["status"] != "error") continue;
      check_expected_error(f["file"].get<std::string>() + "/" + m["name"].get<std::string>(), f["file"],
                           f["data_file"], m["name"], m["default_build"], nullptr);
    }
  }
  int skipped = 0;
  for (const auto& [reason, n] : cov_.skipped) skipped += n;
  printf("\nReference coverage: %d cases matched upstream, %d expected errors reproduced, %d skipped, %zu failed\n",
         cov_.matched, cov_.expected_errors, skipped, cov_.failures.size());
  for (const auto& [reason, n] : cov_.skipped) printf("  skipped %3d awaiting %s\n", n, reason.c_str());
  EXPECT_GT(cov_.matched, 0);
}

}  // namespace
}  // namespace ember::testing
