// Where the XNNPACK recipe puts weights. By default, as upstream's exporter does, in the
// program's named_data (keyed by SHA-256, shared across delegate calls and methods) with
// the blob's constant region empty; with the compile spec xnnpack.constants=inline, in the
// blob. Both programs run and match PyTorch's reference (conv-bn-relu fixture); a program
// of two methods lowered from the same model stores each weight once; an unknown spec
// key or value is refused by name.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <iterator>

#include "apps/lower/lower_flags.h"
#include "aot/recipe/export_session.h"
#include "aot/recipe/run_method.h"
#include "apps/inspect/pte_summary.h"
#include "backends/xnnpack/aot/xnnpack_partitioner.h"
#include "backends/xnnpack/runtime/xnnpack_backend.h"
#include "runtime/backend/backend_registry.h"
#include "tests/e2e/fixture_corpus.h"

namespace ember::testing {
namespace {

using runtime::Error;

const Fixture* conv_bn_relu() {
  static const std::vector<Fixture> all = list_fixtures();
  for (const Fixture& f : all) {
    if (f.id.rfind("conv_bn_relu.core_aten.torch2_6", 0) == 0) return &f;
  }
  return nullptr;
}

aot::RecipeRegistry recipes() {
  aot::RecipeRegistry r;
  EXPECT_EQ(aot::register_builtin_recipes(&r), Error::Ok);
  EXPECT_EQ(backends::xnnpack::register_xnnpack_recipe(&r), Error::Ok);
  return r;
}

aot::RecipeOptions with_constants(const std::string& placement) {
  aot::RecipeOptions o;
  if (!placement.empty()) {
    o.compile_specs.push_back({backends::xnnpack::kConstantsSpec,
                               std::vector<uint8_t>(placement.begin(), placement.end())});
  }
  return o;
}

std::vector<uint8_t> lower(const Fixture& f, const aot::RecipeOptions& options) {
  auto session = aot::ExportSession::create(recipes(), "xnnpack", f.pt2, options, {});
  EXPECT_TRUE(session.ok()) << ::ember::aot::format_error(session.error());
  if (!session.ok()) return {};
  aot::Error st = session->run();
  EXPECT_EQ(st, Error::Ok) << ::ember::aot::format_error(st);
  return (st == Error::Ok) ? *session->pte() : std::vector<uint8_t>{};
}

// Runs case 0 and compares with PyTorch's reference.
void expect_matches_reference(const Fixture& f, const std::vector<uint8_t>& pte) {
  runtime::BackendRegistry backends;
  ASSERT_EQ(backends::xnnpack::register_backend(backends), runtime::Error::Ok);
  aot::RunOptions ro;
  ro.backends = &backends;
  auto runner = aot::PteRunner::load(pte, ro);
  ASSERT_TRUE(runner.ok()) << ::ember::aot::format_error(runner.error());
  std::vector<aot::HostTensor> inputs(f.cases[0].inputs.size());
  for (size_t i = 0; i < inputs.size(); ++i) ASSERT_TRUE(read_fixture_tensor(f.cases[0].inputs[i], &inputs[i]));
  auto outputs = runner.get()->run("forward", inputs);
  ASSERT_TRUE(outputs.ok()) << ::ember::aot::format_error(outputs.error());
  ASSERT_EQ(outputs->size(), f.cases[0].outputs.size());
  for (size_t o = 0; o < outputs->size(); ++o) {
    aot::HostTensor ref;
    ASSERT_TRUE(read_fixture_tensor(f.cases[0].outputs[o], &ref));
    Comparison cmp = compare_tensors((*outputs)[o], ref, false, f.atol, f.rtol);
    EXPECT_TRUE(cmp.ok) << "output " << o << ": " << cmp.message;
  }
}

uint64_t blob_bytes(const aot::PteSummary& s) {
  uint64_t n = 0;
  for (const auto& m : s.methods) {
    for (const auto& d : m.delegates) n += d.second;
  }
  return n;
}

TEST(XnnpackConstantsTest, NamedDataByDefaultInlineOnRequest) {
  const Fixture* f = conv_bn_relu();
  if (f == nullptr) GTEST_SKIP() << "conv_bn_relu fixture not found";
  const std::vector<uint8_t> named = lower(*f, with_constants(""));
  const std::vector<uint8_t> inline_pte = lower(*f, with_constants("inline"));
  auto named_summary = aot::summarize_pte(named);
  auto inline_summary = aot::summarize_pte(inline_pte);
  ASSERT_TRUE(named_summary.ok() && inline_summary.ok());
  // Conv weight and bias (batch norm folded in) at least: two named entries.
  EXPECT_GE(named_summary->num_named_data, 2u);
  EXPECT_EQ(inline_summary->num_named_data, 0u);
  // The inline blob holds the bytes the named data holds; the named blob holds only their
  // keys (64 hex characters each) in place of them.
  const uint64_t weights = named_summary->named_data_bytes;
  EXPECT_GE(blob_bytes(*inline_summary), weights);
  EXPECT_LT(blob_bytes(*named_summary) + weights / 2, blob_bytes(*inline_summary));
  expect_matches_reference(*f, named);
  expect_matches_reference(*f, inline_pte);
}

TEST(XnnpackConstantsTest, TwoMethodsShareTheirWeights) {
  const Fixture* f = conv_bn_relu();
  if (f == nullptr) GTEST_SKIP() << "conv_bn_relu fixture not found";
  auto single = aot::summarize_pte(lower(*f, with_constants("")));
  ASSERT_TRUE(single.ok());
  const std::string out = std::string(std::getenv("TEST_TMPDIR")) + "/two_methods.pte";
  auto written = aot::write_multi_method_program(recipes(), "xnnpack", {"a=" + f->pt2, "b=" + f->pt2},
                                                 with_constants(""), out);
  ASSERT_TRUE(written.ok()) << ::ember::aot::format_error(written.error());
  std::ifstream in(out, std::ios::binary);
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  auto both = aot::summarize_pte(bytes);
  ASSERT_TRUE(both.ok()) << ::ember::aot::format_error(both.error());
  ASSERT_EQ(both->methods.size(), 2u);
  EXPECT_EQ(both->num_named_data, single->num_named_data);
  EXPECT_EQ(both->named_data_bytes, single->named_data_bytes);
}

TEST(XnnpackConstantsTest, UnknownSpecsAreRefusedByName) {
  const Fixture* f = conv_bn_relu();
  if (f == nullptr) GTEST_SKIP() << "conv_bn_relu fixture not found";
  auto bad_value = aot::ExportSession::create(recipes(), "xnnpack", f->pt2, with_constants("segment"), {});
  ASSERT_FALSE(bad_value.ok());
  EXPECT_EQ(bad_value.error(), aot::Error::InvalidArgument);
  EXPECT_NE(std::string(::ember::runtime::last_error_message()).find("xnnpack.constants is 'segment', expected 'named_data' or 'inline'"),
            std::string::npos)
      << std::string(::ember::runtime::last_error_message());
  aot::RecipeOptions o;
  o.compile_specs.push_back({"xnnpack.weights_cache", {'1'}});
  auto bad_key = aot::ExportSession::create(recipes(), "xnnpack", f->pt2, o, {});
  ASSERT_FALSE(bad_key.ok());
  EXPECT_NE(std::string(::ember::runtime::last_error_message()).find("unknown compile spec 'xnnpack.weights_cache'"), std::string::npos)
      << std::string(::ember::runtime::last_error_message());
}

}  // namespace
}  // namespace ember::testing
