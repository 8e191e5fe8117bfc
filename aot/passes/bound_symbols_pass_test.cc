// BoundSymbolsPass on hand-made graphs: x -> nonzero (int64 [u0, 2]) -> mul, with u0's range
// set per test (real exports: //tests/dynamic:data_dependent_test and e2e_test).
#include "aot/passes/bound_symbols_pass.h"

#include <gtest/gtest.h>

#include "aot/ir/testing/graph_builder.h"

namespace ember::aot {
namespace {

SymInt unbacked(const std::string& name) {
  SymInt s;
  s.is_static = false;
  s.expr = "Symbol('" + name + "', integer=True)";
  s.text = name;
  s.range = SymRange{0, std::nullopt};
  return s;
}

// x [3, 4] -> nonzero [u0, 2] -> mul [u0, 2]; u0 in `range`.
Graph nonzero_graph(SymRange range) {
  testing::GraphBuilder b;
  ValueId x = b.input("x", {3, 4});
  ValueId nz = b.op("aten::nonzero.default", {{"self", x}}, "nonzero", {1, 2}, {}, ScalarType::Long);
  ValueId y = b.op("aten::mul.Tensor", {{"self", nz}, {"other", nz}}, "mul", {1, 2}, {}, ScalarType::Long);
  b.output(y);
  Graph g = b.take();
  g.value(nz).tensor.sizes[0] = unbacked("u0");
  g.value(y).tensor.sizes[0] = unbacked("u0");
  g.range_constraints()["u0"] = range;
  return g;
}

SymbolBounds bound(const std::string& symbol, int64_t n) {
  SymbolBounds b;
  b.per_symbol[symbol] = n;
  return b;
}

const SymInt& rows_of(const Graph& g, const char* value) {
  return g.value(g.find_value(value)).tensor.sizes[0];
}

TEST(BoundSymbolsPassTest, ExportBoundIsKeptWithoutFlags) {
  Graph g = nonzero_graph(SymRange{0, 12});
  ASSERT_EQ(BoundSymbolsPass().run(g), Error::Ok) << last_error_message();
  EXPECT_EQ(g.range_constraints().at("u0").max, 12);
}

TEST(BoundSymbolsPassTest, UnboundedSymbolNamesProducerConsumerAndFlag) {
  Graph g = nonzero_graph(SymRange{0, std::nullopt});
  ASSERT_EQ(BoundSymbolsPass().run(g), Error::NotSupported);
  const std::string m = last_error_message();
  EXPECT_NE(m.find("data-dependent size u0 (range [0, inf]) has no upper bound: it comes from node "
                   "'nonzero' (aten::nonzero.default"),
            std::string::npos) << m;
  EXPECT_NE(m.find("and sizes the output of node 'nonzero'"), std::string::npos) << m;
  EXPECT_NE(m.find("give a bound with lower --max_dim u0=N (or --max_dim N for every unbounded "
                   "data-dependent size)"),
            std::string::npos) << m;
}

TEST(BoundSymbolsPassTest, FlagBoundsTheSymbolAndEverySizeUsingIt) {
  Graph g = nonzero_graph(SymRange{0, std::nullopt});
  ASSERT_EQ(BoundSymbolsPass(bound("u0", 5)).run(g), Error::Ok) << last_error_message();
  EXPECT_EQ(g.range_constraints().at("u0").max, 5);
  EXPECT_EQ(rows_of(g, "nonzero").range.max, 5);
  EXPECT_EQ(rows_of(g, "mul").range.max, 5);
}

TEST(BoundSymbolsPassTest, TighterOfExportAndFlagWins) {
  Graph g = nonzero_graph(SymRange{0, 12});
  ASSERT_EQ(BoundSymbolsPass(bound("u0", 100)).run(g), Error::Ok);
  EXPECT_EQ(rows_of(g, "mul").range.max, 12);
  Graph h = nonzero_graph(SymRange{0, 12});
  ASSERT_EQ(BoundSymbolsPass(bound("u0", 4)).run(h), Error::Ok);
  EXPECT_EQ(rows_of(h, "mul").range.max, 4);
}

TEST(BoundSymbolsPassTest, DefaultBoundsOnlyUnboundedUnbackedSymbols) {
  SymbolBounds all;
  all.unbacked_default = 7;
  Graph g = nonzero_graph(SymRange{0, std::nullopt});
  ASSERT_EQ(BoundSymbolsPass(all).run(g), Error::Ok);
  EXPECT_EQ(rows_of(g, "mul").range.max, 7);
  Graph h = nonzero_graph(SymRange{0, 3});
  ASSERT_EQ(BoundSymbolsPass(all).run(h), Error::Ok);
  EXPECT_EQ(h.range_constraints().at("u0").max, 3);  // already bounded: untouched
}

TEST(BoundSymbolsPassTest, BadFlagsAreNamed) {
  Graph g = nonzero_graph(SymRange{2, std::nullopt});
  ASSERT_EQ(BoundSymbolsPass(bound("u9", 5)).run(g), Error::InvalidArgument);
  EXPECT_STREQ(last_error_message(), "--max_dim u9=5: the program has no symbol 'u9' (its symbols: u0)");
  ASSERT_EQ(BoundSymbolsPass(bound("u0", 1)).run(g), Error::InvalidArgument);
  EXPECT_STREQ(last_error_message(), "--max_dim u0=1: 1 is below the minimum 2 of symbol u0 (range [2, inf])");
}

TEST(BoundSymbolsPassTest, ParsesTheFlag) {
  SymbolBounds b;
  EXPECT_EQ(parse_max_dim_flag("u0=4096", &b), Error::Ok);
  EXPECT_EQ(parse_max_dim_flag("16", &b), Error::Ok);
  EXPECT_EQ(b.per_symbol.at("u0"), 4096);
  EXPECT_EQ(*b.unbacked_default, 16);
  EXPECT_EQ(parse_max_dim_flag("17", &b), Error::InvalidArgument);
  EXPECT_EQ(parse_max_dim_flag("u0", &b), Error::InvalidArgument);
  EXPECT_TRUE(is_unbacked_symbol("u12"));
  EXPECT_FALSE(is_unbacked_symbol("s0"));
  EXPECT_FALSE(is_unbacked_symbol("u"));
}

}  // namespace
}  // namespace ember::aot
