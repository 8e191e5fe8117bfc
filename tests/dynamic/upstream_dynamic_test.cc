// Issue #8, "Must hold" 2: upstream ExecuTorch programs with DYNAMIC_BOUND inputs run on
// Ember below their bounds: dynamic.pte (x*2 on FLOAT[8], XNNPACK), the 1024x1024
// bounded conv model (simple-torch-model, FLOAT[1,1,1024,1024] -> [1,10]) and
// xnnpack_simpleconv (FLOAT[1,3,1024,1024] in and out). Expected outputs are upstream
// ExecuTorch v1.4.1's (reference/manifest.json cases with files, tolerance from the
// manifest). All cases of one program run on ONE loaded method, in manifest order and
// then reversed, so the delegate sees shrinking and growing shapes. An input above the
// bound gets the named per-dim error.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "aot/recipe/run_method.h"
#include "tests/dynamic/dynamic_util.h"
#include "tests/support/shared_fixtures.h"

namespace ember::testing {
namespace {

struct RefCase {
  std::string id;
  std::vector<aot::HostTensor> inputs, outputs;
  double atol = 1e-5, rtol = 1e-4;
};

std::string fixtures_dir() {
  const std::string s = shared_dir();
  return s.empty() ? "" : s + "/fixtures/executorch-pte/";
}

// Cases with reference files for `stem` (expect "ok").
std::vector<RefCase> load_cases(const std::string& stem) {
  std::vector<RefCase> out;
  std::ifstream in(fixtures_dir() + "reference/manifest.json");
  nlohmann::json m = nlohmann::json::parse(in, nullptr, false);
  if (m.is_discarded()) return out;
  for (const auto& c : m["cases"]) {
    if (c.value("fixture", "") != stem + ".pte" || c.value("expect", "") != "ok") continue;
    RefCase rc;
    rc.id = c.value("id", "");
    bool complete = true;
    for (const char* key : {"inputs", "outputs"}) {
      for (const auto& t : c[key]) {
        if (!t.contains("file") || !t["file"].is_string()) {
          complete = false;
          continue;
        }
        aot::HostTensor h;
        if (!read_float_file(fixtures_dir() + t["file"].get<std::string>(),
                             t["shape"].get<std::vector<int64_t>>(), &h)) {
          complete = false;
        }
        if (std::string(key) == "outputs" && t.contains("tolerance")) {
          rc.atol = t["tolerance"].value("atol", rc.atol);
          rc.rtol = t["tolerance"].value("rtol", rc.rtol);
        }
        (std::string(key) == "inputs" ? rc.inputs : rc.outputs).push_back(std::move(h));
      }
    }
    if (complete) out.push_back(std::move(rc));
  }
  return out;
}

void run_below_bounds(const std::string& stem, size_t min_cases) {
  if (fixtures_dir().empty()) GTEST_SKIP() << skip_message();
  std::vector<uint8_t> pte;
  ASSERT_TRUE(read_file(fixtures_dir() + stem + ".pte", &pte)) << stem;
  std::vector<RefCase> cases = load_cases(stem);
  ASSERT_GE(cases.size(), min_cases) << "reference cases for " << stem;
  aot::RunOptions ro;
  ro.backends = &xnnpack_backends();
  auto runner = aot::PteRunner::load(pte, ro);
  ASSERT_TRUE(runner.ok()) << ::ember::aot::format_error(runner.error());
  std::vector<size_t> order;
  for (size_t c = 0; c < cases.size(); ++c) order.push_back(c);
  for (size_t c = cases.size(); c-- > 0;) order.push_back(c);
  for (size_t c : order) {
    SCOPED_TRACE(cases[c].id);
    auto outs = runner.get()->run("forward", cases[c].inputs);
    ASSERT_TRUE(outs.ok()) << ::ember::aot::format_error(outs.error());
    ASSERT_EQ(outs->size(), cases[c].outputs.size());
    for (size_t o = 0; o < outs->size(); ++o) {
      EXPECT_EQ((*outs)[o].sizes, cases[c].outputs[o].sizes) << "output " << o << " shape";
      Comparison cmp = compare_tensors((*outs)[o], cases[c].outputs[o], false, cases[c].atol, cases[c].rtol);
      EXPECT_TRUE(cmp.ok) << "output " << o << ": " << cmp.message;
    }
  }
}

TEST(UpstreamDynamicTest, DynamicPteBelowBound) {
  // Reference shapes 8, 4, 1, 8, 5 of FLOAT[8] DYNAMIC_BOUND.
  run_below_bounds("corey-cole__executorch-numpy-runtime__dynamic", 5);
}

TEST(UpstreamDynamicTest, BoundedConvModel1024BelowBound) {
  // [1,1,1024,1024] and [1,1,192,256].
  run_below_bounds("corey-cole__simple-torch-model__model", 2);
}

TEST(UpstreamDynamicTest, XnnpackSimpleConvBelowBound) {
  // [1,3,192,256] and [1,3,17,23]; output resized to the input's spatial size.
  run_below_bounds("balthazarneveu__executorch_smoothly__xnnpack_simpleconv", 2);
}

TEST(UpstreamDynamicTest, DynamicPteAboveBoundAndHandMath) {
  if (fixtures_dir().empty()) GTEST_SKIP() << skip_message();
  std::vector<uint8_t> pte;
  ASSERT_TRUE(read_file(fixtures_dir() + "corey-cole__executorch-numpy-runtime__dynamic.pte", &pte));
  aot::RunOptions ro;
  ro.backends = &xnnpack_backends();
  auto runner = aot::PteRunner::load(pte, ro);
  ASSERT_TRUE(runner.ok()) << ::ember::aot::format_error(runner.error());
  auto bad = runner.get()->run("forward", {float_tensor({9})});
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(::ember::aot::format_error(bad.error()).find("dim 0 is 9, allowed range [0, 8]"), std::string::npos)
      << ::ember::aot::format_error(bad.error());
  // Every size 0..8 (the catalog: x * 2.0); 0 elements is inside [0, 8] for upstream too.
  for (int64_t n = 1; n <= 8; ++n) {
    aot::HostTensor x = float_tensor({n});
    auto out = runner.get()->run("forward", {x});
    ASSERT_TRUE(out.ok()) << "n=" << n << ": " << ::ember::aot::format_error(out.error());
    ASSERT_EQ((*out)[0].sizes, std::vector<int64_t>{n});
    const float* in = reinterpret_cast<const float*>(x.bytes.data());
    const float* got = reinterpret_cast<const float*>((*out)[0].bytes.data());
    for (int64_t k = 0; k < n; ++k) EXPECT_EQ(got[k], in[k] * 2.0f) << "n=" << n << " k=" << k;
  }
}

}  // namespace
}  // namespace ember::testing
