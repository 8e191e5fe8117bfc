// Custom operators through a whole ExportSession, on the real .pt2 files of examples/custom_op
// (torch.library's mylib::scaled_add, exported by torch 2.6 and 2.14): a declared op becomes a
// KernelCall of its out variant with the omitted default filled in, and the bad cases give
// named errors that point at the node's source line and at the declaration's FILE:line: an
// undeclared op (naming --custom_ops), and declarations whose arguments or returns do not fit
// the node. Expected texts are written by hand from the generator's source
// (refgen/fixtures/generate_custom_op.py: the calls are on its lines 43 and 44).
#include <gtest/gtest.h>

#include "aot/frontend/custom_ops_yaml.h"
#include "aot/recipe/export_session.h"

namespace ember::aot {
namespace {

const char* kFixtures[] = {
    "examples/custom_op/scaled_add.core_aten.torch2_6.pt2",
    "examples/custom_op/scaled_add.training_ir.torch2_6.pt2",
    "examples/custom_op/scaled_add.core_aten.torch2_14.pt2",
    "examples/custom_op/scaled_add.training_ir.torch2_14.pt2",
};

std::shared_ptr<const OpSchemaRegistry> declare(const std::string& yaml) {
  auto d = parse_custom_ops_yaml(yaml, "ops.yaml");
  EXPECT_TRUE(d.ok()) << format_error(d.error());
  if (!d.ok()) return nullptr;
  auto s = custom_op_schemas(d.get());
  EXPECT_TRUE(s.ok()) << format_error(s.error());
  return s.ok() ? s.get() : nullptr;
}

// Runs the portable recipe on `pt2`; the session (for its artifacts) and the run's status.
Error lower(const std::string& pt2, std::shared_ptr<const OpSchemaRegistry> custom,
            ExportSession* out = nullptr) {
  RecipeRegistry recipes;
  EXPECT_EQ(register_builtin_recipes(&recipes), Error::Ok);
  RecipeOptions options;
  options.custom_ops = std::move(custom);
  auto session = ExportSession::create(recipes, "portable", pt2, options);
  if (!session.ok()) return session.error();
  Error e = session->run();
  if (out != nullptr) *out = std::move(session.get());
  return e;
}

const char* kGood =
    "- func: mylib::scaled_add.out(Tensor a, Tensor b, float alpha=1.0, *, Tensor(a!) out) -> "
    "Tensor(a!)\n";

TEST(CustomOpsSessionTest, DeclaredOpBecomesAKernelCallOfItsOutVariant) {
  for (const char* pt2 : kFixtures) {
    ExportSession session;
    ASSERT_EQ(lower(pt2, declare(kGood), &session), Error::Ok) << pt2 << ": " << last_error_message();
    auto exec = session.print("to_executorch");
    ASSERT_TRUE(exec.ok());
    // Both calls are out variants; the first omitted alpha in the .pt2 and gets the default.
    EXPECT_NE(exec->find(", b=%y, alpha=1.0)"), std::string::npos) << pt2 << "\n" << *exec;
    EXPECT_NE(exec->find("mylib::scaled_add.out(a=%scaled_add, b=%x, alpha=0.25)"), std::string::npos)
        << pt2 << "\n" << *exec;
    // The KernelCall: a, b, alpha, out, then the return slot (= out).
    const EmitProgram* program = session.last_artifact().program.get();
    ASSERT_NE(program, nullptr);
    const EmitMethod& m = program->methods[0];
    int calls = 0;
    for (const EmitInstruction& in : m.instructions) {
      if (in.kind != EmitInstructionKind::KernelCall) continue;
      const EmitOperator& op = m.operators[static_cast<size_t>(in.index)];
      if (op.name != "mylib::scaled_add") continue;
      ++calls;
      EXPECT_EQ(op.overload, "out");
      ASSERT_EQ(in.args.size(), 5u);
      EXPECT_EQ(in.args[3], in.args[4]);  // out is the return slot
      const EmitValue& alpha = m.values[static_cast<size_t>(in.args[2])];
      EXPECT_EQ(alpha.kind, EmitValueKind::Double);
      EXPECT_DOUBLE_EQ(alpha.double_value, calls == 1 ? 1.0 : 0.25);
    }
    EXPECT_EQ(calls, 2) << pt2;
  }
}

TEST(CustomOpsSessionTest, UndeclaredOpNamesNodeSourceLineAndFlag) {
  for (const char* pt2 : kFixtures) {
    EXPECT_EQ(lower(pt2, nullptr), Error::OperatorMissing) << pt2;
    std::string m = last_error_message();
    EXPECT_NE(m.find("node 'scaled_add' (mylib::scaled_add.default, generate_custom_op.py:43): "
                     "custom operator not declared"),
              std::string::npos)
        << m;
    EXPECT_NE(m.find("lower --custom_ops FILE.yaml"), std::string::npos) << m;
    // An unrelated declaration does not help.
    EXPECT_EQ(lower(pt2, declare("- func: other::op.out(Tensor x, *, Tensor(a!) out) -> Tensor(a!)\n")),
              Error::OperatorMissing);
  }
}

TEST(CustomOpsSessionTest, DeclarationThatDoesNotFitTheNodeIsNamed) {
  const std::string pt2 = kFixtures[0];
  // The .pt2 passes 'b'; this declaration calls it 'other'.
  EXPECT_EQ(lower(pt2, declare("- func: mylib::scaled_add.out(Tensor a, Tensor other, float "
                               "alpha=1.0, *, Tensor(a!) out) -> Tensor(a!)\n")),
            Error::InvalidProgram);
  std::string m = last_error_message();
  // The verifier (after every pass) meets the call first; custom_op_check lists every call
  // when verification is off (aot/passes/custom_op_check_pass_test.cc).
  EXPECT_NE(m.find("node 'scaled_add' (mylib::scaled_add.default, generate_custom_op.py:43): "
                   "argument 'b' is not in the schema"),
            std::string::npos)
      << m;
  EXPECT_NE(m.find("(declared at ops.yaml:1)"), std::string::npos) << m;

  // One more required argument than the node passes.
  EXPECT_EQ(lower(pt2, declare("- func: mylib::scaled_add.out(Tensor a, Tensor b, float alpha=1.0, "
                               "int k, *, Tensor(a!) out) -> Tensor(a!)\n")),
            Error::InvalidProgram);
  m = last_error_message();
  EXPECT_NE(m.find("required argument 'k' (int) is missing (declared at ops.yaml:1)"),
            std::string::npos)
      << m;
  // The first call omits alpha, which this declaration makes required.
  EXPECT_EQ(lower(pt2, declare("- func: mylib::scaled_add.out(Tensor a, Tensor b, float alpha, "
                               "*, Tensor(a!) out) -> Tensor(a!)\n")),
            Error::InvalidProgram);
  EXPECT_NE(std::string(last_error_message())
                .find("node 'scaled_add' (mylib::scaled_add.default, generate_custom_op.py:43): "
                      "required argument 'alpha' (float) is missing"),
            std::string::npos)
      << last_error_message();
  // alpha is a float in the node, not a list.
  EXPECT_EQ(lower(pt2, declare("- func: mylib::scaled_add.out(Tensor a, Tensor b, int[] alpha=[], "
                               "*, Tensor(a!) out) -> Tensor(a!)\n")),
            Error::InvalidProgram);
  EXPECT_NE(std::string(last_error_message()).find("argument 'alpha' expects int[], got "),
            std::string::npos)
      << last_error_message();
  // Two returns declared; the node has one output.
  EXPECT_EQ(lower(pt2, declare("- func: mylib::scaled_add.out(Tensor a, Tensor b, float alpha=1.0, "
                               "*, Tensor(a!) out, Tensor(b!) out2) -> (Tensor(a!), Tensor(b!))\n")),
            Error::InvalidProgram);
  EXPECT_NE(std::string(last_error_message()).find("has 1 outputs"), std::string::npos)
      << last_error_message();
}

}  // namespace
}  // namespace ember::aot
