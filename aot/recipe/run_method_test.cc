// check_pte_loads, the lowering's self-check: a program the runtime loads passes; one whose
// instruction names a value past the end (what a lowering bug would write) is refused with
// the method and the runtime's own finding; a method whose operators have no portable kernel
// (a custom op) cannot be checked here and passes; delegates bind to stand-ins.
#include "aot/recipe/run_method.h"

#include <gtest/gtest.h>

#include <string>

#include "runtime/core/diagnostics.h"
#include "runtime/executor/testing/program_builder.h"

namespace ember::aot {
namespace {

using testing::make_add_program;
using testing::serialize;

std::string message() { return last_error_message(); }

TEST(CheckPteLoadsTest, AProgramTheRuntimeLoadsPasses) {
  EXPECT_EQ(check_pte_loads(serialize(*make_add_program())), Error::Ok) << message();
}

TEST(CheckPteLoadsTest, BadWiringIsALoweringBugNamingTheMethod) {
  auto program = make_add_program();
  program->execution_plan[0]->chains[0]->instructions[0]->instr_args.AsKernelCall()->args[1] = 17;
  EXPECT_EQ(check_pte_loads(serialize(*program)), Error::InvalidProgram);
  EXPECT_NE(message().find("fails Ember's own loader (a lowering bug): method 'forward'"),
            std::string::npos)
      << message();
  EXPECT_NE(message().find("value 17, out of range (4 values)"), std::string::npos) << message();
}

TEST(CheckPteLoadsTest, ACorruptFlatBufferIsRefused) {
  std::vector<uint8_t> bytes = serialize(*make_add_program());
  bytes.resize(bytes.size() / 2);
  EXPECT_EQ(check_pte_loads(bytes), Error::InvalidProgram);
  EXPECT_NE(message().find("lowering bug"), std::string::npos) << message();
}

TEST(CheckPteLoadsTest, OperatorsWithoutAPortableKernelAreNotCheckable) {
  auto program = make_add_program();
  program->execution_plan[0]->operators[0]->name = "my_ops::custom";
  program->execution_plan[0]->operators[0]->overload = "out";
  EXPECT_EQ(check_pte_loads(serialize(*program)), Error::Ok) << message();
}

TEST(CheckPteLoadsTest, DelegatesBindToStandIns) {
  auto program = make_add_program();
  auto delegate = std::make_unique<executorch_flatbuffer::BackendDelegateT>();
  delegate->id = "SomeBackendNotLinkedHere";
  delegate->processed = std::make_unique<executorch_flatbuffer::BackendDelegateDataReferenceT>();
  delegate->processed->location = executorch_flatbuffer::DataLocation::INLINE;
  delegate->processed->index = 0;
  program->backend_delegate_data.push_back(std::make_unique<executorch_flatbuffer::BackendDelegateInlineDataT>());
  program->backend_delegate_data.back()->data = {1, 2, 3};
  auto& plan = *program->execution_plan[0];
  plan.delegates.push_back(std::move(delegate));
  executorch_flatbuffer::DelegateCallT call;
  call.delegate_index = 0;
  call.args = {0, 1, 3};
  auto instruction = std::make_unique<executorch_flatbuffer::InstructionT>();
  instruction->instr_args.Set(std::move(call));
  plan.chains[0]->instructions.push_back(std::move(instruction));
  EXPECT_EQ(check_pte_loads(serialize(*program)), Error::Ok) << message();
  // A call naming a delegate the plan does not have is still refused.
  plan.chains[0]->instructions.back()->instr_args.AsDelegateCall()->delegate_index = 4;
  EXPECT_EQ(check_pte_loads(serialize(*program)), Error::InvalidProgram);
  EXPECT_NE(message().find("method 'forward'"), std::string::npos) << message();
}

}  // namespace
}  // namespace ember::aot
