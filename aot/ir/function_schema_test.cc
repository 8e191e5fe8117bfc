// Tests for the function schema parser. Expected fields are read off the schema text by hand.
#include "aot/ir/function_schema.h"

#include <gtest/gtest.h>

namespace ember::aot {
namespace {

OpSchema parse_ok(const std::string& text) {
  auto r = parse_function_schema(text);
  EXPECT_TRUE(r.ok()) << text << ": " << format_error(r.error());
  return r.ok() ? r.get() : OpSchema{};
}

std::string parse_error(const std::string& text) {
  auto r = parse_function_schema(text);
  EXPECT_FALSE(r.ok()) << text;
  EXPECT_EQ(r.ok() ? Error::Ok : r.error(), Error::InvalidArgument);
  return last_error_message();
}

TEST(FunctionSchemaTest, OutVariantWithDefaultKeywordOnlyAndAlias) {
  OpSchema s = parse_ok(
      "mylib::scaled_add.out(Tensor a, Tensor b, float alpha=1.0, *, Tensor(a!) out) -> Tensor(a!)");
  EXPECT_EQ(s.op.ns, "mylib");
  EXPECT_EQ(s.op.name, "scaled_add");
  EXPECT_EQ(s.op.overload, "out");
  ASSERT_EQ(s.args.size(), 4u);
  EXPECT_EQ(s.args[0].name, "a");
  EXPECT_EQ(s.args[0].type.base, BaseType::Tensor);
  EXPECT_FALSE(s.args[0].kw_only);
  EXPECT_FALSE(s.args[0].is_mutable);
  EXPECT_EQ(s.args[2].name, "alpha");
  EXPECT_EQ(s.args[2].type.base, BaseType::Float);
  EXPECT_TRUE(s.args[2].has_default);
  EXPECT_EQ(s.args[2].default_value.kind, ArgKind::Float);
  EXPECT_DOUBLE_EQ(s.args[2].default_value.f, 1.0);
  EXPECT_EQ(s.args[3].name, "out");
  EXPECT_TRUE(s.args[3].kw_only);
  EXPECT_TRUE(s.args[3].is_mutable);
  ASSERT_EQ(s.returns.size(), 1u);
  EXPECT_EQ(s.returns[0].base, BaseType::Tensor);
  EXPECT_EQ(function_schema_text(s),
            "mylib::scaled_add.out(Tensor a, Tensor b, float alpha=1.0, *, Tensor(a!) out) -> "
            "Tensor(a!)");
}

TEST(FunctionSchemaTest, NoOverloadIsTheDefaultOverload) {
  OpSchema s = parse_ok("mylib::scaled_add(Tensor a, Tensor b, float alpha=1.0) -> Tensor");
  EXPECT_EQ(s.op.qualified(), "mylib::scaled_add.default");
  EXPECT_EQ(function_schema_text(s), "mylib::scaled_add(Tensor a, Tensor b, float alpha=1.0) -> Tensor");
}

TEST(FunctionSchemaTest, EveryArgumentType) {
  OpSchema s = parse_ok(
      "ns::all.out(Tensor t, Tensor? opt, Tensor[] list, Tensor?[] opts, int i, int[] is, "
      "int[2] pair, SymInt si, SymInt[] sis, float f, bool b, str s, ScalarType dt, Scalar sc, "
      "ScalarType? odt=None, *, Tensor(a!) out) -> Tensor(a!)");
  ASSERT_EQ(s.args.size(), 16u);
  struct Want {
    BaseType base;
    bool optional, list, optional_elements;
    int list_size;
  };
  const Want want[] = {
      {BaseType::Tensor, false, false, false, 0}, {BaseType::Tensor, true, false, false, 0},
      {BaseType::Tensor, false, true, false, 0},  {BaseType::Tensor, false, true, true, 0},
      {BaseType::Int, false, false, false, 0},    {BaseType::Int, false, true, false, 0},
      {BaseType::Int, false, true, false, 2},     {BaseType::SymInt, false, false, false, 0},
      {BaseType::SymInt, false, true, false, 0},  {BaseType::Float, false, false, false, 0},
      {BaseType::Bool, false, false, false, 0},   {BaseType::Str, false, false, false, 0},
      {BaseType::ScalarType, false, false, false, 0}, {BaseType::Scalar, false, false, false, 0},
      {BaseType::ScalarType, true, false, false, 0},
  };
  for (size_t i = 0; i < 15; ++i) {
    const SchemaType& t = s.args[i].type;
    EXPECT_EQ(t.base, want[i].base) << i;
    EXPECT_EQ(t.optional, want[i].optional) << i;
    EXPECT_EQ(t.list, want[i].list) << i;
    EXPECT_EQ(t.optional_elements, want[i].optional_elements) << i;
    EXPECT_EQ(t.list_size, want[i].list_size) << i;
  }
  EXPECT_EQ(s.args[14].default_value.kind, ArgKind::None);
}

TEST(FunctionSchemaTest, Defaults) {
  OpSchema s = parse_ok(
      "ns::d(Tensor x, int k=-3, int[] dims=[0, 1], int[2] stride=1, bool flag=True, "
      "str mode=\"mean\", str other='sum', Scalar s=2, float eps=1e-05, Tensor? w=None) -> Tensor");
  ASSERT_EQ(s.args.size(), 10u);
  EXPECT_EQ(s.args[1].default_value.i, -3);
  EXPECT_EQ(s.args[2].default_value.kind, ArgKind::IntList);
  EXPECT_EQ(s.args[2].default_value.ints, (std::vector<int64_t>{0, 1}));
  EXPECT_EQ(s.args[3].default_value.ints, (std::vector<int64_t>{1, 1}));
  EXPECT_EQ(s.args[4].default_value.kind, ArgKind::Bool);
  EXPECT_TRUE(s.args[4].default_value.b);
  EXPECT_EQ(s.args[5].default_value.kind, ArgKind::String);
  EXPECT_EQ(s.args[5].default_value.s, "mean");
  EXPECT_EQ(s.args[6].default_value.s, "sum");
  EXPECT_EQ(s.args[7].default_value.kind, ArgKind::Int);
  EXPECT_EQ(s.args[7].default_value.i, 2);
  EXPECT_DOUBLE_EQ(s.args[8].default_value.f, 1e-5);
  EXPECT_EQ(s.args[9].default_value.kind, ArgKind::None);
}

TEST(FunctionSchemaTest, MultipleAndNamedAndNoReturns) {
  OpSchema two = parse_ok(
      "ns::pair.out(Tensor x, *, Tensor(a!) v, Tensor(b!) i) -> (Tensor(a!) values, Tensor(b!) indices)");
  EXPECT_EQ(two.returns.size(), 2u);
  EXPECT_TRUE(two.args[1].is_mutable && two.args[2].is_mutable);
  OpSchema none = parse_ok("ns::log(str message) -> ()");
  EXPECT_TRUE(none.returns.empty());
  OpSchema list = parse_ok("ns::split(Tensor x) -> Tensor[]");
  ASSERT_EQ(list.returns.size(), 1u);
  EXPECT_TRUE(list.returns[0].list);
}

TEST(FunctionSchemaTest, MalformedSchemasAreNamed) {
  EXPECT_NE(parse_error("scaled_add.out(Tensor a) -> Tensor").find("lacks a namespace"),
            std::string::npos);
  EXPECT_NE(parse_error("mylib::f(Tensr a) -> Tensor").find("column 10: unknown type 'Tensr'"),
            std::string::npos)
      << last_error_message();
  EXPECT_NE(parse_error("mylib::f(Tensor a, Tensor a) -> Tensor").find("'a' appears twice"),
            std::string::npos);
  EXPECT_NE(parse_error("mylib::f(Tensor a) Tensor").find("expected '->'"), std::string::npos);
  EXPECT_NE(parse_error("mylib::f(Tensor a -> Tensor").find("expected ',' or ')'"),
            std::string::npos);
  EXPECT_NE(parse_error("mylib::f(Tensor) -> Tensor").find("expected an argument name"),
            std::string::npos);
  EXPECT_NE(parse_error("mylib::f(int k=abc) -> Tensor").find("bad default 'abc'"),
            std::string::npos);
  EXPECT_NE(parse_error("mylib::f(int(a!) k) -> Tensor").find("only Tensor arguments"),
            std::string::npos);
  EXPECT_NE(parse_error("mylib::f(Tensor(1) x) -> Tensor").find("bad alias annotation"),
            std::string::npos);
  EXPECT_NE(parse_error("mylib::f(Tensor x) -> Tensor extra stuff").find("unexpected text"),
            std::string::npos);
  EXPECT_NE(parse_error("mylib::f(str s='abc) -> Tensor").find("unterminated string"),
            std::string::npos);
  EXPECT_NE(parse_error("mylib::f(int[x] k) -> Tensor").find("bad list size 'x'"),
            std::string::npos);
  EXPECT_NE(parse_error("").find("expected the operator name"), std::string::npos);
}

}  // namespace
}  // namespace ember::aot
