// Tests for the sympy expression parser and interval arithmetic. Inputs are the exact
// strings torch 2.6 writes (pt2-format.md §4) and the older str() forms.
#include "aot/ir/sym_int.h"

#include <gtest/gtest.h>

namespace ember::aot {
namespace {

std::string infix(const std::string& text) {
  auto e = parse_sym_expr(text);
  EXPECT_TRUE(e.ok()) << format_error(e.error());
  return e.ok() ? e->to_infix() : "";
}

TEST(SymExprTest, SreprForms) {
  EXPECT_EQ(infix("Symbol('s0', positive=True, integer=True)"), "s0");
  EXPECT_EQ(infix("Mul(Integer(2), Symbol('s0', positive=True, integer=True))"), "2*s0");
  EXPECT_EQ(infix("Add(Symbol('s0', positive=True, integer=True), Symbol('s1', "
                  "positive=True, integer=True))"),
            "s0 + s1");
  EXPECT_EQ(infix("FloorDiv(Add(Symbol('s0', integer=True), Integer(1)), Integer(2))"),
            "(s0 + 1)//2");
  EXPECT_EQ(infix("Max(Integer(4), Symbol('u0', integer=True))"), "Max(4, u0)");
}

TEST(SymExprTest, StrForms) {
  EXPECT_EQ(infix("s0"), "s0");
  EXPECT_EQ(infix("2*s0"), "2*s0");
  EXPECT_EQ(infix("s0 + s1"), "s0 + s1");
  EXPECT_EQ(infix("s0 - 1"), "s0 - 1");
  EXPECT_EQ(infix("Add(Symbol('s0'), Integer(-3))"), "s0 - 3");
}

TEST(SymExprTest, Symbols) {
  auto e = parse_sym_expr("Add(Symbol('s1'), Mul(Integer(3), Symbol('s0')), Symbol('s1'))");
  ASSERT_TRUE(e.ok());
  EXPECT_EQ(e->symbols(), (std::vector<std::string>{"s0", "s1"}));
}

TEST(SymExprTest, Ranges) {
  std::map<std::string, SymRange> r = {{"s0", {1, 64}}, {"s1", {0, std::nullopt}}};
  auto sum = parse_sym_expr("s0 + s1");
  ASSERT_TRUE(sum.ok());
  EXPECT_EQ(sum->eval_range(r).to_string(), "[1, inf]");
  auto twice = parse_sym_expr("2*s0");
  ASSERT_TRUE(twice.ok());
  EXPECT_EQ(twice->eval_range(r).to_string(), "[2, 128]");
  auto half = parse_sym_expr("s0//2");
  ASSERT_TRUE(half.ok());
  EXPECT_EQ(half->eval_range(r).to_string(), "[0, 32]");
  auto unknown = parse_sym_expr("u7");
  ASSERT_TRUE(unknown.ok());
  EXPECT_EQ(unknown->eval_range(r).to_string(), "[0, inf]");
}

TEST(SymExprTest, BadInputsAreNamedErrors) {
  for (const char* bad : {"", "Symbol(", "Add(s0,", "s0 +", "Symbol(positive=True)", "s0 )",
                          "99999999999999999999", "Integer(s0)", "$"}) {
    auto e = parse_sym_expr(bad);
    EXPECT_FALSE(e.ok()) << bad;
    if (!e.ok()) {
      EXPECT_EQ(e.error(), Error::InvalidProgram);
    }
  }
  std::string deep(500, '(');
  EXPECT_FALSE(parse_sym_expr(deep + "s0").ok());
}

TEST(SymIntTest, StaticValue) {
  SymInt s = SymInt::of(784);
  EXPECT_TRUE(s.is_static);
  EXPECT_EQ(s.to_string(), "784");
  EXPECT_TRUE(s.range.contains(784));
  EXPECT_FALSE(s.range.contains(783));
}

}  // namespace
}  // namespace ember::aot
