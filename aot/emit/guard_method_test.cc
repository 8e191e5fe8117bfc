// derive_input_guards and guard_method. Expected records come from PyTorch's exports as
// recorded in tests/fixtures/pt2/manifest.json: two_dynamic_dims has x [s0, s1, 4] and
// y [s0, s3, 4] with every symbol in [1, .] (torch 2.14 names them s17, s27, s94);
// transformer_dynamic_seq has src [2, s0, 32] with s0 in [2, 64]; mlp is static. The
// hand-built graphs cover what no fixture has: derived sizes, a parameter before the user
// inputs, an open lower end, and more guards than the runtime reads.
#include "aot/emit/guard_method.h"

#include <gtest/gtest.h>

#include <cstdlib>

#include "aot/frontend/pt2_reader.h"

#include "tests/support/shared_fixtures.h"

namespace ember::aot {
namespace {

using ember::testing::committed_pt2_fixture;

using R = InputGuardRecord;

std::vector<R> guards_of_fixture(const std::string& name) {
  auto g = read_pt2_file(committed_pt2_fixture(name));
  EXPECT_TRUE(g.ok()) << format_error(g.error());
  if (!g.ok()) return {};
  auto guards = derive_input_guards(*g);
  EXPECT_TRUE(guards.ok()) << format_error(guards.error());
  return guards.ok() ? *guards : std::vector<R>{};
}

TEST(GuardMethodTest, SharedBatchGivesEqualityAndEverySymbolItsMin) {
  const std::vector<R> want = {{InputGuardKind::MinSize, 0, 0, 1, 0},
                               {InputGuardKind::MinSize, 0, 1, 1, 0},
                               {InputGuardKind::EqualSize, 1, 0, 0, 0},
                               {InputGuardKind::MinSize, 1, 1, 1, 0}};
  EXPECT_EQ(guards_of_fixture("two_dynamic_dims.core_aten.torch2_6.pt2"), want);
  EXPECT_EQ(guards_of_fixture("two_dynamic_dims.core_aten.torch2_14.pt2"), want);
}

TEST(GuardMethodTest, TransformerSeqMinTwo) {
  const std::vector<R> want = {{InputGuardKind::MinSize, 0, 1, 2, 0}};
  EXPECT_EQ(guards_of_fixture("transformer_dynamic_seq.core_aten.torch2_6.pt2"), want);
  EXPECT_EQ(guards_of_fixture("transformer_dynamic_seq.training_ir.torch2_14.pt2"), want);
}

TEST(GuardMethodTest, StaticModelHasNone) {
  EXPECT_TRUE(guards_of_fixture("mlp.training_ir.torch2_6.pt2").empty());
}

SymInt symbolic(const std::string& expr, const std::string& text) {
  SymInt s;
  s.is_static = false;
  s.expr = expr;
  s.text = text;
  return s;
}

// A graph whose inputs are a parameter, then user tensors of the given sizes.
Graph graph_with_inputs(const std::vector<std::vector<SymInt>>& inputs) {
  Graph g;
  Value p;
  p.name = "p_weight";
  p.tensor.dtype = ScalarType::Float;
  p.tensor.sizes = {SymInt::of(4)};
  g.inputs().push_back(Argument::tensor(*g.add_value(p)));
  g.signature().inputs.push_back({InputKind::Parameter, "p_weight", "weight", true, {}});
  for (size_t k = 0; k < inputs.size(); ++k) {
    Value v;
    v.name = "x" + std::to_string(k);
    v.tensor.dtype = ScalarType::Float;
    v.tensor.sizes = inputs[k];
    g.inputs().push_back(Argument::tensor(*g.add_value(v)));
    g.signature().inputs.push_back({InputKind::UserInput, v.name, "", true, {}});
  }
  return g;
}

R derived(int64_t input, int64_t dim, int64_t ref_input, int64_t ref_dim, int64_t mul, int64_t add,
          int64_t min) {
  R r{InputGuardKind::DerivedSize, input, dim, ref_input, ref_dim};
  r.mul = mul;
  r.add = add;
  r.min = min;
  return r;
}

// derived_dims: x [s0, 4], y [2*s0, 4] with Dim("db", 1..8) and 2*db (torch's derived Dim).
TEST(GuardMethodTest, DerivedDimOfTheFixtureIsGuarded) {
  const std::vector<R> want = {{InputGuardKind::MinSize, 0, 0, 1, 0}, derived(1, 0, 0, 0, 2, 0, 1)};
  EXPECT_EQ(guards_of_fixture("derived_dims.core_aten.torch2_6.pt2"), want);
  EXPECT_EQ(guards_of_fixture("derived_dims.training_ir.torch2_14.pt2"), want);
  auto m = guard_method("forward", want);
  ASSERT_TRUE(m.ok()) << format_error(m.error());
  std::vector<int64_t> ints;
  for (int32_t o : m->outputs) ints.push_back(m->values[static_cast<size_t>(o)].int_value);
  // The count is of records: the derived size takes two (3 ..., then 4 mul add min 0).
  EXPECT_EQ(ints, (std::vector<int64_t>{1, 3, 1, 0, 0, 1, 0, 3, 1, 0, 0, 0, 4, 2, 0, 1, 0}));
}

TEST(GuardMethodTest, AffineSizesWithoutAPlainSymbolAndNonAffineOnes) {
  Graph g = graph_with_inputs({{symbolic("Add(Mul(Integer(2), Symbol('s0')), Integer(1))", "2*s0 + 1"),
                                symbolic("Add(Symbol('s1'), Symbol('s2'))", "s1 + s2")}});
  g.range_constraints()["s0"] = SymRange{2, 8};
  auto guards = derive_input_guards(g);
  ASSERT_TRUE(guards.ok()) << format_error(guards.error());
  // 2*s0 + 1 with s0 in no input dim: a = -1 and s0's min; s1 + s2 is not affine in one symbol.
  EXPECT_EQ(*guards, (std::vector<R>{derived(0, 0, -1, 0, 2, 1, 2)}));
}

TEST(GuardMethodTest, DerivedSizesOpenMinAndParametersAreSkipped) {
  Graph g = graph_with_inputs({{symbolic("Mul(Integer(2), Symbol('s0'))", "2*s0"), symbolic("s1", "s1")},
                               {symbolic("s1", "s1"), symbolic("s0", "s0")}});
  g.range_constraints()["s0"] = SymRange{3, 8};
  g.range_constraints()["s1"] = SymRange{std::nullopt, 8};
  auto guards = derive_input_guards(g);
  ASSERT_TRUE(guards.ok()) << format_error(guards.error());
  // s1 (open min) only its equality; s0 first appears as input 1 dim 1, and 2*s0 (input 0
  // dim 0) is derived from it, after the plain symbols.
  const std::vector<R> want = {{InputGuardKind::EqualSize, 1, 0, 0, 1}, {InputGuardKind::MinSize, 1, 1, 3, 0},
                               derived(0, 0, 1, 1, 2, 0, 3)};
  EXPECT_EQ(*guards, want);
}

TEST(GuardMethodTest, MoreGuardsThanTheRuntimeReadsIsNamed) {
  std::vector<SymInt> dims;
  for (int d = 0; d < 33; ++d) {
    const std::string s = "s" + std::to_string(d);
    dims.push_back(symbolic(s, s));
  }
  Graph g = graph_with_inputs({dims});
  for (int d = 0; d < 33; ++d) g.range_constraints()["s" + std::to_string(d)] = SymRange{1, 4};
  auto guards = derive_input_guards(g);
  ASSERT_FALSE(guards.ok());
  EXPECT_EQ(guards.error(), Error::NotSupported);
  EXPECT_NE(std::string(last_error_message()).find("33 dynamic-shape guards"), std::string::npos)
      << format_error(guards.error());
  EXPECT_NE(std::string(last_error_message()).find("at most 32"), std::string::npos);
}

TEST(GuardMethodTest, UnparsableSizeNamesTheInput) {
  Graph g = graph_with_inputs({{symbolic("Mul(", "?")}});
  auto guards = derive_input_guards(g);
  ASSERT_FALSE(guards.ok());
  EXPECT_NE(format_error(guards.error()).find("input 0 ('x0') dim 0"), std::string::npos)
      << format_error(guards.error());
}

TEST(GuardMethodTest, EncodingIsVersionCountRecords) {
  auto m = guard_method("forward", {{InputGuardKind::MinSize, 0, 1, 2, 0}, {InputGuardKind::EqualSize, 1, 0, 0, 0}});
  ASSERT_TRUE(m.ok()) << format_error(m.error());
  EXPECT_EQ(m->name, "__ember_guards__forward");
  EXPECT_TRUE(m->inputs.empty());
  EXPECT_TRUE(m->instructions.empty());
  std::vector<int64_t> ints;
  for (int32_t o : m->outputs) {
    ASSERT_EQ(m->values[static_cast<size_t>(o)].kind, EmitValueKind::Int);
    ints.push_back(m->values[static_cast<size_t>(o)].int_value);
  }
  EXPECT_EQ(ints, (std::vector<int64_t>{1, 2, 1, 0, 1, 2, 0, 2, 1, 0, 0, 0}));
}

}  // namespace
}  // namespace ember::aot
