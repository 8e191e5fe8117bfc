// Tests for lenient JSON parsing and union handling (pt2-format.md facts 3, 11, 12).
#include "aot/frontend/json_util.h"

#include <gtest/gtest.h>

#include <cmath>

namespace ember::aot {
namespace {

TEST(JsonUtilTest, NonFiniteFloatsBothWays) {
  auto j = parse_json(R"({"a": Infinity, "b": -Infinity, "c": NaN, "d": "Infinity", "e": "NaN",
                          "s": "NaN inside Infinity string", "f": 1e-05})",
                      "t");
  ASSERT_TRUE(j.ok()) << format_error(j.error());
  double v = 0;
  ASSERT_EQ(json_double((*j)["a"], "a", &v), Error::Ok);
  EXPECT_TRUE(std::isinf(v) && v > 0);
  ASSERT_EQ(json_double((*j)["b"], "b", &v), Error::Ok);
  EXPECT_TRUE(std::isinf(v) && v < 0);
  ASSERT_EQ(json_double((*j)["c"], "c", &v), Error::Ok);
  EXPECT_TRUE(std::isnan(v));
  ASSERT_EQ(json_double((*j)["d"], "d", &v), Error::Ok);
  EXPECT_TRUE(std::isinf(v));
  EXPECT_EQ((*j)["s"].get<std::string>(), "NaN inside Infinity string");
  EXPECT_NE(json_double((*j)["s"], "s", &v), Error::Ok);
  ASSERT_EQ(json_double((*j)["f"], "f", &v), Error::Ok);
  EXPECT_EQ(v, 1e-05);
}

TEST(JsonUtilTest, Int64Exactness) {
  auto j = parse_json(
      R"({"end": 9223372036854775807, "neg": -9223372036854775808, "big": 9223372036854775808})",
      "t");
  ASSERT_TRUE(j.ok());
  int64_t v = 0;
  ASSERT_EQ(json_int((*j)["end"], "end", &v), Error::Ok);
  EXPECT_EQ(v, INT64_MAX);
  ASSERT_EQ(json_int((*j)["neg"], "neg", &v), Error::Ok);
  EXPECT_EQ(v, INT64_MIN);
  Error s = json_int((*j)["big"], "big", &v);
  EXPECT_NE(s, Error::Ok);
  EXPECT_NE(std::string(last_error_message()).find("does not fit"), std::string::npos);
}

TEST(JsonUtilTest, Unions) {
  auto one = parse_json(R"({"as_tensor": {"name": "x"}})", "t");
  ASSERT_TRUE(one.ok());
  auto v = json_union(*one, "u");
  ASSERT_TRUE(v.ok());
  EXPECT_EQ(v->first, "as_tensor");
  // torch 2.2: every variant present, unused ones null.
  auto old = parse_json(R"({"as_none": null, "as_tensor": null, "as_int": 3})", "t");
  ASSERT_TRUE(old.ok());
  auto ov = json_union(*old, "u");
  ASSERT_TRUE(ov.ok());
  EXPECT_EQ(ov->first, "as_int");
  auto none = parse_json(R"({"as_none": null, "as_tensor": null})", "t");
  ASSERT_TRUE(none.ok());
  auto nv = json_union(*none, "u");
  ASSERT_TRUE(nv.ok());
  EXPECT_EQ(nv->first, "as_none");
  for (const char* bad :
       {R"({"as_int": 1, "as_float": 2.0})", R"({"as_tensor": null})", "[1]", "3"}) {
    auto b = parse_json(bad, "t");
    ASSERT_TRUE(b.ok());
    EXPECT_FALSE(json_union(*b, "u").ok()) << bad;
  }
}

TEST(JsonUtilTest, ErrorsNameTheField) {
  auto j = parse_json(R"({"a": "x", "n": null})", "t");
  ASSERT_TRUE(j.ok());
  int64_t v;
  EXPECT_EQ(json_int((*j)["a"], "node 3.dim", &v), Error::InvalidProgram);
  EXPECT_EQ(std::string(last_error_message()), "node 3.dim: expected an integer, got string");
  EXPECT_EQ(json_field(*j, "n"), nullptr);
  EXPECT_EQ(json_field(*j, "zz"), nullptr);
  auto missing = json_require(*j, "zz", "graph");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(std::string(last_error_message()), "graph: missing 'zz'");
  auto bad = parse_json("{\"a\": [1, 2", "model.json");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error(), Error::InvalidProgram);
  EXPECT_NE(std::string(last_error_message()).find("model.json: malformed JSON"), std::string::npos);
}

TEST(JsonUtilTest, DeepNestingDoesNotCrash) {
  std::string deep(100000, '[');
  deep += std::string(100000, ']');
  auto j = parse_json(deep, "deep.json");
  EXPECT_TRUE(j.ok() || j.error() == Error::InvalidProgram);
}

}  // namespace
}  // namespace ember::aot
