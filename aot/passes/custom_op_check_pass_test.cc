// CustomOpCheckPass, OpSetCheckPass and OutVariantPass on hand-made graphs that call a custom
// operator (mylib::scaled_add, declared as in examples/custom_op/scaled_add_ops.yaml).
// Expected texts are written by hand: GraphBuilder puts node k on "model.py", line 10 + k.
#include "aot/passes/custom_op_check_pass.h"

#include <gtest/gtest.h>

#include "aot/ir/custom_ops.h"
#include "aot/ir/printer.h"
#include "aot/ir/testing/graph_builder.h"
#include "aot/passes/op_set_check_pass.h"
#include "aot/passes/out_variant_pass.h"

namespace ember::aot {
namespace {

using testing::GraphBuilder;
using testing::print_body;

std::shared_ptr<const OpSchemaRegistry> scaled_add() {
  auto r = custom_op_schemas({{"mylib::scaled_add.out(Tensor a, Tensor b, float alpha=1.0, *, "
                               "Tensor(a!) out) -> Tensor(a!)",
                               "ops.yaml:1"}});
  EXPECT_TRUE(r.ok()) << format_error(r.error());
  return r.ok() ? r.get() : nullptr;
}

// x -> relu -> scaled_add(relu, x, `extra`...) -> output
Graph graph(std::vector<NamedArgument> extra, bool declared) {
  GraphBuilder b;
  ValueId x = b.input("x", {2, 2});
  ValueId r = b.op("aten::relu.default", {{"self", x}}, "relu", {2, 2});
  b.output(b.op("mylib::scaled_add.default", {{"a", r}, {"b", x}}, "sa", {2, 2}, std::move(extra)));
  Graph g = b.take();
  if (declared) g.set_custom_op_schemas(scaled_add());
  return g;
}

TEST(CustomOpCheckPassTest, DeclaredCallPassesAndBecomesTheOutVariantWithDefaults) {
  Graph g = graph({}, true);
  ASSERT_EQ(CustomOpCheckPass().run(g), Error::Ok) << last_error_message();
  ASSERT_EQ(OpSetCheckPass().run(g), Error::Ok) << last_error_message();
  ASSERT_EQ(OutVariantPass().run(g), Error::Ok) << last_error_message();
  EXPECT_NE(print_body(g).find("= mylib::scaled_add.out(a=%relu, b=%x, alpha=1.0)"),
            std::string::npos)
      << print_body(g);
}

TEST(CustomOpCheckPassTest, MismatchesAreListedWithTheDeclaration) {
  Graph g = graph({{"beta", Argument::floating(2.0), true}}, true);
  ASSERT_EQ(CustomOpCheckPass().run(g), Error::InvalidProgram);
  std::string m = last_error_message();
  EXPECT_NE(m.find("1 custom operator call(s) do not match their --custom_ops declaration"),
            std::string::npos)
      << m;
  EXPECT_NE(m.find("node 'sa' (mylib::scaled_add.default, model.py:11): argument 'beta' is not "
                   "in the schema mylib::scaled_add.default(Tensor a, Tensor b, float alpha=1.0) "
                   "-> Tensor (declared at ops.yaml:1)"),
            std::string::npos)
      << m;
  Graph wrong_kind = graph({{"alpha", Argument::string("x"), true}}, true);
  ASSERT_EQ(CustomOpCheckPass().run(wrong_kind), Error::InvalidProgram);
  EXPECT_NE(std::string(last_error_message()).find("argument 'alpha' expects float"),
            std::string::npos)
      << last_error_message();
}

TEST(CustomOpCheckPassTest, UndeclaredCallIsOperatorMissingNamingTheFlag) {
  Graph g = graph({}, false);
  EXPECT_EQ(CustomOpCheckPass().run(g), Error::Ok);  // nothing declared: op_set_check reports
  ASSERT_EQ(OpSetCheckPass().run(g), Error::OperatorMissing);
  std::string m = last_error_message();
  EXPECT_NE(m.find("node 'sa' (mylib::scaled_add.default, model.py:11): custom operator not "
                   "declared"),
            std::string::npos)
      << m;
  EXPECT_NE(m.find("lower --custom_ops FILE.yaml"), std::string::npos) << m;
  EXPECT_EQ(m.find("'relu'"), std::string::npos) << m;
}

}  // namespace
}  // namespace ember::aot
