// Issue #13, data-dependent shapes and multi-method guards, bad input:
//  - an unbacked size (u0 = n.item()) with no upper bound in the export and no --max_dim is a
//    named error at lowering naming the symbol, the node that produces it and the flag;
//  - bad --max_dim values are named errors;
//  - at run time a data-dependent size above its planned bound is a named error naming the
//    output and the bound, and the symbol with its planned bound (item_full lowered with --max_dim u0=16 and given n = 17; nonzero
//    and _unique2 lowered with bounds tighter than the export's);
//  - a multi-method program (lower --method) keeps each method's guards, and the derived
//    size 2*b of derived_dims is checked at set_input.
// Outputs within the bounds are compared with PyTorch by e2e_test; here only errors and the
// edges (exactly at the bound) are checked.
#include <gtest/gtest.h>

#include <cstring>

#include "aot/emit/pte_writer.h"
#include "aot/recipe/export_session.h"
#include "aot/recipe/multi_method.h"
#include "aot/recipe/run_method.h"
#include "runtime/module/module.h"
#include "tests/dynamic/dynamic_util.h"

namespace ember::testing {
namespace {

using aot::HostTensor;

aot::Result<std::vector<uint8_t>> lower_with(const std::string& pt2, aot::SymbolBounds bounds) {
  aot::RecipeRegistry recipes;
  EMBER_TRY(aot::register_builtin_recipes(&recipes));
  aot::RecipeOptions ro;
  ro.max_dims = std::move(bounds);
  EMBER_ASSIGN_OR_RETURN(aot::ExportSession session,
                         aot::ExportSession::create(recipes, "portable", pt2, ro));
  EMBER_TRY(session.run());
  return *session.pte();
}

aot::SymbolBounds bound(const std::string& symbol, int64_t n) {
  aot::SymbolBounds b;
  b.per_symbol[symbol] = n;
  return b;
}

HostTensor count(int64_t k) {
  HostTensor t;
  t.dtype = aot::ScalarType::Long;
  t.bytes.resize(sizeof(k));
  std::memcpy(t.bytes.data(), &k, sizeof(k));
  return t;
}

HostTensor floats(const std::vector<int64_t>& sizes, const std::vector<float>& values) {
  HostTensor t = float_tensor(sizes);
  std::memcpy(t.bytes.data(), values.data(), values.size() * sizeof(float));
  return t;
}

std::string error_of(aot::PteRunner* r, const std::string& method, const std::vector<HostTensor>& in) {
  auto out = r->run(method, in);
  return out.ok() ? "" : ::ember::aot::format_error(out.error());
}

const char* const kVersions[] = {"torch2_6", "torch2_14"};

TEST(DataDependentTest, UnboundedSizeWithoutMaxDimNamesSymbolNodeAndFlag) {
  int seen = 0;
  for (const char* dialect : {"core_aten", "training_ir"}) {
    for (const char* v : kVersions) {
      Fixture f;
      if (!find_fixture(std::string("item_full.") + dialect + "." + v, &f)) continue;
      ++seen;
      auto pte = lower_with(f.pt2, {});
      ASSERT_FALSE(pte.ok()) << f.id;
      const std::string m = ::ember::aot::format_error(pte.error());
      EXPECT_NE(m.find("NotSupported"), std::string::npos) << m;
      EXPECT_NE(m.find("data-dependent size u0 (range [0, inf]) has no upper bound: it comes from node '"),
                std::string::npos) << m;
      const std::string producer = std::string(dialect) == "core_aten"
                                       ? "(aten::_local_scalar_dense.default, pt2_models.py:"
                                       : "(aten::item.default, pt2_models.py:";
      EXPECT_NE(m.find(producer), std::string::npos) << m;
      EXPECT_NE(m.find("give a bound with lower --max_dim u0=N"), std::string::npos) << m;
      // --max_dim N (every unbounded data-dependent size) is enough too.
      aot::SymbolBounds all;
      all.unbacked_default = 16;
      EXPECT_TRUE(lower_with(f.pt2, all).ok()) << f.id;
    }
  }
  if (seen == 0) GTEST_SKIP() << "item_full fixtures not found";
}

TEST(DataDependentTest, BadMaxDimFlags) {
  aot::SymbolBounds b;
  EXPECT_EQ(aot::parse_max_dim_flag("u0=4096", &b), aot::Error::Ok);
  EXPECT_EQ(b.per_symbol.at("u0"), 4096);
  EXPECT_EQ(aot::parse_max_dim_flag("64", &b), aot::Error::Ok);
  EXPECT_EQ(*b.unbacked_default, 64);
  EXPECT_EQ(aot::parse_max_dim_flag("u0=8", &b), aot::Error::InvalidArgument);  // twice
  EXPECT_EQ(aot::parse_max_dim_flag("u1=", &b), aot::Error::InvalidArgument);
  EXPECT_EQ(aot::parse_max_dim_flag("=3", &b), aot::Error::InvalidArgument);
  EXPECT_EQ(aot::parse_max_dim_flag("u1=-3", &b), aot::Error::InvalidArgument);
  Fixture f;
  if (!find_fixture("item_full.core_aten.torch2_6", &f)) GTEST_SKIP() << "fixture not found";
  auto unknown = lower_with(f.pt2, bound("u7", 4));
  ASSERT_FALSE(unknown.ok());
  EXPECT_NE(::ember::aot::format_error(unknown.error())
                .find("InvalidArgument (0x12): stage 'to_edge': pass 'bound_symbols' (to_edge): "
                      "--max_dim u7=4: the program has no symbol 'u7' (its symbols: u0)"),
            std::string::npos)
      << ::ember::aot::format_error(unknown.error());
}

TEST(DataDependentTest, ItemAboveItsMaxDimIsANamedErrorAtRunTime) {
  for (const char* v : kVersions) {
    Fixture f;
    if (!find_fixture(std::string("item_full.core_aten.") + v, &f)) continue;
    auto pte = lower_with(f.pt2, bound("u0", 16));
    ASSERT_TRUE(pte.ok()) << ::ember::aot::format_error(pte.error());
    auto r = aot::PteRunner::load(*pte);
    ASSERT_TRUE(r.ok());
    const HostTensor x = float_tensor({2, 3});
    EXPECT_EQ(error_of(r->get(), "forward", {x, count(16)}), "");  // exactly the bound
    const std::string m = error_of(r->get(), "forward", {x, count(17)});
    EXPECT_NE(m.find("InvalidArgument"), std::string::npos) << m;
    EXPECT_NE(m.find("aten::full.out"), std::string::npos) << m;
    EXPECT_NE(m.find("full.out: out: cannot resize float32[16] to float32[17]: 17 elements exceed the capacity of 16"),
              std::string::npos) << m;
    // The symbol and its bound, from the guard table's SymbolBound record for full's output.
    EXPECT_NE(m.find("(aten::full.out): argument 2 dim 0 is the data-dependent size u0, planned at its "
                     "bound 16 (a larger value needs lower --max_dim u0=N): full.out: out: cannot resize"),
              std::string::npos) << m;
    EXPECT_EQ(error_of(r->get(), "forward", {x, count(0)}), "");  // and usable again
  }
}

TEST(DataDependentTest, NonzeroAboveATighterBoundIsANamedError) {
  Fixture f;
  if (!find_fixture("nonzero_index.core_aten.torch2_6", &f)) GTEST_SKIP() << "fixture not found";
  // The export bounds u0 by numel = 12; the flag promises at most 4 positive elements.
  auto pte = lower_with(f.pt2, bound("u0", 4));
  ASSERT_TRUE(pte.ok()) << ::ember::aot::format_error(pte.error());
  auto r = aot::PteRunner::load(*pte);
  ASSERT_TRUE(r.ok());
  std::vector<float> v(12, -1.0f);
  for (int k = 0; k < 4; ++k) v[size_t(k * 3)] = 2.0f;
  EXPECT_EQ(error_of(r->get(), "forward", {floats({3, 4}, v)}), "");
  v[1] = 2.0f;  // a fifth
  const std::string m = error_of(r->get(), "forward", {floats({3, 4}, v)});
  EXPECT_NE(m.find("aten::nonzero.out"), std::string::npos) << m;
  EXPECT_NE(m.find("nonzero.out: out: cannot resize int64[4,2] to int64[5,2]: 10 elements exceed the capacity of 8"),
            std::string::npos) << m;
  EXPECT_NE(m.find("dim 0 is the data-dependent size u0, planned at its bound 4 (a larger value needs lower "
                   "--max_dim u0=N)"),
            std::string::npos) << m;
}

TEST(DataDependentTest, UniqueAboveATighterBoundIsANamedError) {
  Fixture f;
  if (!find_fixture("unique_counts.core_aten.torch2_14", &f)) GTEST_SKIP() << "fixture not found";
  auto pte = lower_with(f.pt2, bound("u0", 2));
  ASSERT_TRUE(pte.ok()) << ::ember::aot::format_error(pte.error());
  auto r = aot::PteRunner::load(*pte);
  ASSERT_TRUE(r.ok());
  HostTensor x;
  x.dtype = aot::ScalarType::Long;
  x.sizes = {8};
  const int64_t two[8] = {5, 1, 5, 1, 1, 5, 5, 1}, three[8] = {5, 1, 5, 1, 1, 5, 5, 7};
  x.bytes.assign(reinterpret_cast<const uint8_t*>(two), reinterpret_cast<const uint8_t*>(two) + 64);
  auto out = r->get()->run("forward", {x});
  ASSERT_TRUE(out.ok()) << ::ember::aot::format_error(out.error());
  ASSERT_EQ((*out)[0].sizes, std::vector<int64_t>{2});
  x.bytes.assign(reinterpret_cast<const uint8_t*>(three), reinterpret_cast<const uint8_t*>(three) + 64);
  const std::string m = error_of(r->get(), "forward", {x});
  EXPECT_NE(m.find("_unique2.out: more than 2 distinct values: out exceeds its upper bound of 2 elements"),
            std::string::npos) << m;
  EXPECT_NE(m.find("dim 0 is the data-dependent size u0, planned at its bound 2"), std::string::npos) << m;
}

// The xnnpack recipe on the bounded fixtures: whatever it delegates, the data-dependent ops
// stay portable and the outputs still match PyTorch (e2e_test covers the portable recipe).
TEST(DataDependentTest, XnnpackRecipeMatchesPyTorch) {
  int ran = 0;
  for (const char* model : {"nonzero_index", "masked_select_sum", "unique_counts", "item_slice"}) {
    for (const char* v : kVersions) {
      const std::string id = std::string(model) + ".core_aten." + v;
      Fixture f;
      if (!find_fixture(id, &f)) continue;
      SCOPED_TRACE(id);
      auto r = load_lowered(id, "xnnpack");
      ASSERT_NE(r, nullptr);
      for (size_t c = 0; c < f.cases.size(); ++c) {
        std::vector<HostTensor> in(f.cases[c].inputs.size());
        for (size_t i = 0; i < in.size(); ++i) ASSERT_TRUE(read_fixture_tensor(f.cases[c].inputs[i], &in[i]));
        auto out = r->run("forward", in);
        ASSERT_TRUE(out.ok()) << "case " << c << ": " << ::ember::aot::format_error(out.error());
        ASSERT_EQ(out->size(), f.cases[c].outputs.size());
        for (size_t o = 0; o < out->size(); ++o) {
          HostTensor ref;
          ASSERT_TRUE(read_fixture_tensor(f.cases[c].outputs[o], &ref));
          Comparison cmp = compare_tensors((*out)[o], ref, f.cases[c].outputs[o].exact, f.atol, f.rtol);
          EXPECT_TRUE(cmp.ok) << "case " << c << " output " << o << ": " << cmp.message;
        }
      }
      ++ran;
    }
  }
  if (ran == 0) GTEST_SKIP() << "fixtures not found";
}

TEST(DataDependentTest, MultiMethodProgramKeepsGuardsPerMethod) {
  Fixture derived, two;
  if (!find_fixture("derived_dims.core_aten.torch2_6", &derived) ||
      !find_fixture("two_dynamic_dims.core_aten.torch2_6", &two)) {
    GTEST_SKIP() << "fixtures not found";
  }
  aot::RecipeRegistry recipes;
  ASSERT_EQ(aot::register_builtin_recipes(&recipes), aot::Error::Ok);
  auto program = aot::lower_methods(recipes, "portable", {{"double", derived.pt2}, {"pair", two.pt2}});
  ASSERT_TRUE(program.ok()) << ::ember::aot::format_error(program.error());
  std::vector<std::string> names;
  for (const auto& m : program->methods) names.push_back(m.name);
  EXPECT_EQ(names, (std::vector<std::string>{"double", "pair", "__ember_guards__double",
                                             "__ember_guards__pair"}));
  std::vector<uint8_t> pte;
  ASSERT_EQ(aot::write_pte(*program, &pte), aot::Error::Ok);
  auto r = aot::PteRunner::load(pte);
  ASSERT_TRUE(r.ok());
  // double: x [b, 4], y [2b, 4].
  EXPECT_EQ(error_of(r->get(), "double", {float_tensor({3, 4}), float_tensor({6, 4})}), "");
  const std::string m = error_of(r->get(), "double", {float_tensor({3, 4}), float_tensor({5, 4})});
  EXPECT_NE(m.find("InvalidArgument"), std::string::npos) << m;
  EXPECT_NE(m.find("input 1 of method 'double': dim 0 is 5, but the export derives it as 2*s+0 with "
                   "s = input 0 dim 0 = 3, i.e. 6 (derived size from export)"),
            std::string::npos) << m;
  // pair: the equality and minimum guards of two_dynamic_dims.
  const std::string e = error_of(r->get(), "pair", {float_tensor({2, 3, 4}), float_tensor({3, 5, 4})});
  EXPECT_NE(e.find("input 1 of method 'pair': dim 0 is 3 but must equal input 0 dim 0 (2)"),
            std::string::npos) << e;
  const std::string z = error_of(r->get(), "pair", {float_tensor({0, 3, 4}), float_tensor({0, 5, 4})});
  EXPECT_NE(z.find("input 0 of method 'pair': dim 0 is 0, allowed range [1, 16]"), std::string::npos) << z;
}

}  // namespace
}  // namespace ember::testing
