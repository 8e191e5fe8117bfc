// Weight-quantized LLMs (issue #31 item 5): every committed decoder fixture of tests/fixtures/llm
// lowered with xnnpack-8da8w / portable-8da8w (int8 weights per channel) and xnnpack-8da4w /
// portable-8da4w (4-bit weights per block of 32), both with int8 dynamic activations and the KV cache in mutable buffers, runs
// PyTorch's prompt and 16 decode steps (each step fed PyTorch's greedy token, as in
// llm_e2e_test) on one loaded program. Per recipe: the logit SQNR against PyTorch's float
// logits and how many of the 17 steps pick PyTorch's greedy token, each over all fixtures and
// per fixture, against bounds stated below; the table is printed. Also the lower tool's report
// (aot/recipe/decode_report.h) on one fixture: float vs itself is exact, float vs 8da4w is not.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "aot/recipe/decode_report.h"
#include "aot/recipe/export_session.h"
#include "aot/recipe/quant_report.h"
#include "aot/recipe/run_method.h"
#include "backends/xnnpack/aot/xnnpack_partitioner.h"
#include "tests/e2e/fixture_corpus.h"
#include "tests/xnnpack_aot/xnnpack_test_util.h"

namespace ember::testing {
namespace {

using aot::last_argmax;

using aot::HostTensor;

aot::Result<std::vector<uint8_t>> lower(const std::string& recipe, const std::string& pt2) {
  aot::RecipeRegistry recipes;
  EMBER_TRY(aot::register_builtin_recipes(&recipes));
  EMBER_TRY(backends::xnnpack::register_xnnpack_recipe(&recipes));
  EMBER_ASSIGN_OR_RETURN(aot::ExportSession session,
                         aot::ExportSession::create(recipes, recipe, pt2, {}, {}));
  EMBER_TRY(session.run());
  return *session.pte();
}

double sqnr(double signal, double noise) {
  return noise == 0 ? std::numeric_limits<double>::infinity() : 10 * std::log10(signal / noise);
}

float at(const HostTensor& t, int64_t i) {
  float v;
  std::memcpy(&v, t.bytes.data() + 4 * i, 4);
  return v;
}

// Whether a greedy token that differs from PyTorch's is one PyTorch ranks within the step's
// noise of its best: ref[best] - ref[chosen] <= 2 * max |ref - got| over the last position.
bool within_noise(const HostTensor& ref, const HostTensor& got, int64_t best, int64_t chosen) {
  const int64_t vocab = ref.sizes.back(), base = ref.numel() - vocab;
  double err = 0;
  for (int64_t i = 0; i < vocab; ++i) err = std::max(err, double(std::fabs(at(ref, base + i) - at(got, base + i))));
  return double(at(ref, base + best)) - double(at(ref, base + chosen)) <= 2 * err;
}

struct Totals {
  double signal = 0, noise = 0;
  int steps = 0, agree = 0, fixtures = 0, unexplained = 0;
  double worst_fixture_db = std::numeric_limits<double>::infinity();
  int worst_fixture_agree = 1 << 30;
};

// Runs `f` lowered with `recipe`; adds to `totals`, returns the table line.
std::string run_fixture(const Fixture& f, const std::string& recipe, Totals* totals) {
  auto pte = lower(recipe, f.pt2);
  if (!pte.ok()) {
    ADD_FAILURE() << recipe << ": " << aot::format_error(pte.error());
    return f.id + ": not lowered\n";
  }
  aot::RunOptions options;
  options.backends = &xnnpack_registry();
  auto runner = aot::PteRunner::load(*pte, options);
  if (!runner.ok()) {
    ADD_FAILURE() << aot::format_error(runner.error());
    return f.id + ": not loaded\n";
  }
  double signal = 0, noise = 0;
  int agree = 0;
  aot::TensorError err;
  err.name = f.id;
  for (size_t c = 0; c < f.cases.size(); ++c) {
    std::vector<HostTensor> inputs(f.cases[c].inputs.size());
    for (size_t i = 0; i < inputs.size(); ++i) {
      EXPECT_TRUE(read_fixture_tensor(f.cases[c].inputs[i], &inputs[i]));
    }
    auto outputs = runner.get()->run("forward", inputs);
    if (!outputs.ok()) {
      ADD_FAILURE() << "case " << c << ": " << aot::format_error(outputs.error());
      return f.id + ": failed\n";
    }
    HostTensor ref;
    EXPECT_TRUE(read_fixture_tensor(f.cases[c].outputs[0], &ref));
    EXPECT_EQ(aot::accumulate_error(ref, (*outputs)[0], &signal, &noise, &err), aot::Error::Ok);
    const int64_t chosen = last_argmax((*outputs)[0]);
    agree += chosen == f.greedy_tokens[c] ? 1 : 0;
    if (chosen != f.greedy_tokens[c] && !within_noise(ref, (*outputs)[0], f.greedy_tokens[c], chosen)) {
      ADD_FAILURE() << "case " << c << ": token " << chosen << " instead of "
                    << f.greedy_tokens[c] << ", which PyTorch prefers by more than the noise";
      ++totals->unexplained;
    }
  }
  const double db = sqnr(signal, noise);
  totals->signal += signal;
  totals->noise += noise;
  totals->steps += int(f.cases.size());
  totals->agree += agree;
  totals->fixtures += 1;
  totals->worst_fixture_db = std::min(totals->worst_fixture_db, db);
  totals->worst_fixture_agree = std::min(totals->worst_fixture_agree, agree);
  char line[256];
  std::snprintf(line, sizeof(line), "%-48s %-14s SQNR %6.2f dB, max error %.3g, %2d/%zu tokens\n",
                f.id.c_str(), recipe.c_str(), db, err.max_abs_error, agree, f.cases.size());
  return line;
}

Totals run_all(const std::string& recipe) {
  Totals totals;
  std::string table;
  for (const Fixture& f : list_llm_fixtures()) {
    if (f.external) continue;
    SCOPED_TRACE(f.id + " [" + recipe + "]");
    EXPECT_EQ(f.greedy_tokens.size(), f.cases.size());
    table += run_fixture(f, recipe, &totals);
  }
  std::printf("%sall %d fixtures [%s]: SQNR %.2f dB, %d/%d greedy tokens agree (%d differ by "
              "more than the noise); worst fixture %.2f dB, %d tokens\n",
              table.c_str(), totals.fixtures, recipe.c_str(), sqnr(totals.signal, totals.noise),
              totals.agree, totals.steps, totals.unexplained, totals.worst_fixture_db,
              totals.worst_fixture_agree);
  EXPECT_GE(totals.fixtures, 8);
  return totals;
}

// Every step's token is checked: one that differs from PyTorch's must be a token PyTorch ranks
// within twice the step's largest logit error of its best (these random-weight fixtures have
// near-ties: decision "random weights that discriminate" spreads logits only so far). The
// bounds sit below the measured figures (session 11): int8 37.9 dB over all fixtures, worst
// fixture 32.8 dB, 294/306 tokens agree.
TEST(LlmQuantTest, Int8WeightsKeepPyTorchsGreedyTokens) {
  const Totals t = run_all("xnnpack-8da8w");
  EXPECT_GE(sqnr(t.signal, t.noise), 34.0);
  EXPECT_GE(t.worst_fixture_db, 30.0);
  EXPECT_GE(t.agree * 100, t.steps * 92);
  EXPECT_EQ(t.unexplained, 0);
}

// 4-bit weights per block of 32: these fixtures are 32 wide, so a hidden-size row is one
// block of 32 Gaussian weights with one scale (no outlier structure of trained weights to
// exploit); measured 15.4 dB over all fixtures, worst fixture 11.4 dB, 204/306 tokens agree.
TEST(LlmQuantTest, FourBitWeightsMostlyKeepPyTorchsGreedyTokens) {
  const Totals t = run_all("xnnpack-8da4w");
  EXPECT_GE(sqnr(t.signal, t.noise), 13.0);
  EXPECT_GE(t.worst_fixture_db, 9.0);
  EXPECT_GE(t.agree * 100, t.steps * 55);
  EXPECT_EQ(t.unexplained, 0);
}

// The same schemes on the portable kernels (ember_quantized::linear_8da8w / linear_8da4w, no
// XNNPACK): int8 weights per channel as above; 4-bit with llama.cpp q4_0's rounding (all 16
// levels, step max/8 instead of XNNPACK's max/7). Bounds below the measured figures (session 12):
// int8 37.3 dB over all fixtures, worst fixture 32.3 dB, 296/306 tokens agree; 4-bit 15.2 dB,
// worst fixture 12.5 dB, 234/306 tokens agree.
TEST(LlmQuantTest, PortableInt8WeightsKeepPyTorchsGreedyTokens) {
  const Totals t = run_all("portable-8da8w");
  EXPECT_GE(sqnr(t.signal, t.noise), 34.0);
  EXPECT_GE(t.worst_fixture_db, 30.0);
  EXPECT_GE(t.agree * 100, t.steps * 92);
  EXPECT_EQ(t.unexplained, 0);
}

TEST(LlmQuantTest, PortableFourBitWeightsMostlyKeepPyTorchsGreedyTokens) {
  const Totals t = run_all("portable-8da4w");
  EXPECT_GE(sqnr(t.signal, t.noise), 13.0);
  EXPECT_GE(t.worst_fixture_db, 9.0);
  EXPECT_GE(t.agree * 100, t.steps * 55);
  EXPECT_EQ(t.unexplained, 0);
}

// The lower tool's report: a program against itself is exact and all 17 tokens agree; the
// 4-bit program is not exact but reports its SQNR over the same 17 calls.
TEST(LlmQuantTest, DecodeReportComparesWithTheFloatProgram) {
  const std::vector<Fixture> all = list_llm_fixtures();
  const Fixture* f = nullptr;
  for (const Fixture& x : all) {
    if (x.id.rfind("llm_smollm.", 0) == 0) f = &x;
  }
  ASSERT_NE(f, nullptr);
  auto fp = lower("xnnpack", f->pt2);
  auto q4 = lower("xnnpack-8da4w", f->pt2);
  ASSERT_TRUE(fp.ok() && q4.ok());
  std::vector<HostTensor> prompt(2);
  ASSERT_TRUE(read_fixture_tensor(f->cases[0].inputs[0], &prompt[0]));
  ASSERT_TRUE(read_fixture_tensor(f->cases[0].inputs[1], &prompt[1]));
  ASSERT_TRUE(aot::is_decoder_step(prompt));
  aot::RunOptions options;
  options.backends = &xnnpack_registry();
  auto same = aot::compare_greedy_decode(*fp, *fp, prompt, 16, options);
  ASSERT_TRUE(same.ok()) << aot::format_error(same.error());
  EXPECT_EQ(same->calls, 17);
  EXPECT_EQ(same->tokens_agree, 17);
  EXPECT_TRUE(std::isinf(same->logits.sqnr_db));
  // The float program's greedy tokens are PyTorch's (the prompt is the fixture's).
  EXPECT_EQ(same->float_tokens, f->greedy_tokens);
  auto cmp = aot::compare_greedy_decode(*fp, *q4, prompt, 16, options);
  ASSERT_TRUE(cmp.ok()) << aot::format_error(cmp.error());
  EXPECT_EQ(cmp->calls, 17);
  EXPECT_TRUE(std::isfinite(cmp->logits.sqnr_db));
  EXPECT_GT(cmp->logits.sqnr_db, 5.0);
  EXPECT_GT(cmp->logits.max_abs_error, 0.0);
  std::printf("%s", aot::format_decode_comparison(*cmp).c_str());
}

}  // namespace
}  // namespace ember::testing
