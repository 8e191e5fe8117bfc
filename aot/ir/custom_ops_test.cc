// Tests for custom operator declarations -> functional schemas. The expected functional
// schemas are written by hand from ATen's naming rule (custom_ops.h).
#include "aot/ir/custom_ops.h"

#include <gtest/gtest.h>

namespace ember::aot {
namespace {

const char* kScaledAddOut =
    "mylib::scaled_add.out(Tensor a, Tensor b, float alpha=1.0, *, Tensor(a!) out) -> Tensor(a!)";

std::shared_ptr<const OpSchemaRegistry> build_ok(const std::vector<CustomOpDeclaration>& d) {
  auto r = custom_op_schemas(d);
  EXPECT_TRUE(r.ok()) << format_error(r.error());
  return r.ok() ? r.get() : std::make_shared<OpSchemaRegistry>();
}

std::string build_error(const std::vector<CustomOpDeclaration>& d) {
  auto r = custom_op_schemas(d);
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.ok() ? Error::Ok : r.error(), Error::InvalidArgument);
  return last_error_message();
}

TEST(CustomOpsTest, OutVariantGivesTheDefaultFunctional) {
  auto reg = build_ok({{kScaledAddOut, "ops.yaml:1"}});
  ASSERT_EQ(reg->size(), 1u);
  const OpSchema* f = reg->find("mylib::scaled_add.default");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->to_string(), "mylib::scaled_add.default(Tensor a, Tensor b, float alpha=1.0) -> Tensor");
  EXPECT_EQ(f->out_variant, "mylib::scaled_add.out");
  EXPECT_EQ(f->declared_at, "ops.yaml:1");
}

TEST(CustomOpsTest, NamedOutOverloadAndMultipleOuts) {
  auto reg = build_ok({{"ns::topk2.vals_out(Tensor x, int k, *, Tensor(a!) v, Tensor(b!) i) -> "
                        "(Tensor(a!), Tensor(b!))",
                        "f.yaml:4"}});
  const OpSchema* f = reg->find("ns::topk2.vals");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->args.size(), 2u);
  EXPECT_EQ(f->returns.size(), 2u);
  EXPECT_EQ(f->out_variant, "ns::topk2.vals_out");
}

TEST(CustomOpsTest, DeclaredFunctionalMustAgree) {
  auto reg = build_ok({{"mylib::scaled_add(Tensor a, Tensor b, float alpha=1.0) -> Tensor", "o:1"},
                       {kScaledAddOut, "o:2"}});
  EXPECT_EQ(reg->size(), 1u);
  std::string m = build_error({{"mylib::scaled_add(Tensor a, Tensor b) -> Tensor", "o.yaml:1"},
                               {kScaledAddOut, "o.yaml:2"}});
  EXPECT_NE(m.find("o.yaml:1: mylib::scaled_add.default disagrees with its out variant "
                   "mylib::scaled_add.out (o.yaml:2): it has 2 arguments"),
            std::string::npos)
      << m;
}

TEST(CustomOpsTest, BadDeclarationsNameTheirPlace) {
  EXPECT_NE(build_error({{"mylib::f.out(Tensor a, *, Tensor(a!) out) -> Tensor(a!)", "x.yaml:1"},
                         {"mylib::f.out(Tensor a, *, Tensor(a!) out) -> Tensor(a!)", "x.yaml:2"}})
                .find("x.yaml:2: mylib::f.out is already declared at x.yaml:1"),
            std::string::npos);
  EXPECT_NE(build_error({{"mylib::f(Tensor a) -> Tensor", "x.yaml:3"}})
                .find("x.yaml:3: mylib::f.default has no out variant: declare mylib::f.out"),
            std::string::npos);
  EXPECT_NE(build_error({{"mylib::f.out(Tensor a, *, Tensor out) -> Tensor", "x.yaml:5"}})
                .find("x.yaml:5: mylib::f.out: an out variant ends with one keyword-only"),
            std::string::npos);
  EXPECT_NE(build_error({{"mylib::f.out(Tensor(a!) a, *, Tensor(b!) out) -> Tensor(b!)", "x:6"}})
                .find("in-place custom operators are not supported"),
            std::string::npos);
  EXPECT_NE(build_error({{"aten::f.out(Tensor a, *, Tensor(a!) out) -> Tensor(a!)", "x:7"}})
                .find("the aten namespace is built in"),
            std::string::npos);
  EXPECT_NE(build_error({{"mylib::f.out(Tensor a, *, Tensr(a!) out) -> Tensor(a!)", "x.yaml:8"}})
                .find("x.yaml:8: func 'mylib::f.out(Tensor a, *, Tensr(a!) out) -> Tensor(a!)': "
                      "column 27: unknown type 'Tensr'"),
            std::string::npos)
      << last_error_message();
}

}  // namespace
}  // namespace ember::aot
