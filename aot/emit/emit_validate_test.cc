// write_pte refuses inconsistent programs with a named error (never a crash and
// never a silently wrong file): each case breaks one rule of pte-format.md.
#include <gtest/gtest.h>

#include "aot/emit/pte_writer.h"
#include "aot/emit/testing/test_programs.h"

namespace ember::aot {
namespace {

using namespace emit_test;

Error write_status(const EmitProgram& program) {
  std::vector<uint8_t> bytes{1, 2, 3};
  Error s = write_pte(program, &bytes);
  if (s != Error::Ok) {
    EXPECT_TRUE(bytes.empty());
  }
  return s;
}

void expect_error(const EmitProgram& program, Error code, const std::string& fragment) {
  Error s = write_status(program);
  ASSERT_NE(s, Error::Ok) << "expected an error containing '" << fragment << "'";
  EXPECT_EQ(s, code) << format_error(s);
  EXPECT_NE(std::string(last_error_message()).find(fragment), std::string::npos) << format_error(s);
}

EmitProgram add_program() {
  EmitProgram program;
  program.methods = {add_method()};
  return program;
}

TEST(EmitValidate, PlannedBytesMustFitTheBuffer) {
  EmitProgram p = add_program();
  p.methods[0].values[3].tensor.memory_offset = 40;  // 16 bytes at 40 > 48
  expect_error(p, Error::InvalidProgram, "method forward: value 3: planned at offset 40");
}

TEST(EmitValidate, MemoryIdMustExist) {
  EmitProgram p = add_program();
  p.methods[0].values[0].tensor.memory_id = 2;
  expect_error(p, Error::InvalidProgram, "memory_id 2 out of range, the method plans 1");
}

TEST(EmitValidate, BufferPlaceholderMustBeZero) {
  EmitProgram p = add_program();
  p.methods[0].non_const_buffer_sizes = {48};
  expect_error(p, Error::InvalidProgram, "placeholder 0");
}

TEST(EmitValidate, IntListItemsMustBeEarlierInts) {
  EmitProgram p = add_program();
  p.methods[0].values.push_back(EmitValue::of_list(EmitValueKind::IntList, {0}));
  expect_error(p, Error::InvalidProgram, "value 4: item 0 (value 0) must be a Int");
  p.methods[0].values.back().indices = {5};
  expect_error(p, Error::InvalidProgram, "list elements must be earlier values");
}

TEST(EmitValidate, TensorRules) {
  EmitProgram p = add_program();
  p.methods[0].values[0].tensor.dim_order = {0, 0};
  expect_error(p, Error::InvalidProgram, "not a permutation");
  p = add_program();
  p.methods[0].values[0].tensor.dynamism = EmitDynamism::DynamicUnbound;
  expect_error(p, Error::NotSupported, "DYNAMIC_UNBOUND");
  p = add_program();
  p.methods[0].values[0].tensor.scalar_type = 10;  // complex128 (complex64, 9, is allowed)
  expect_error(p, Error::InvalidProgram, "unknown scalar_type 10");
  p = add_program();
  p.methods[0].values[0].tensor.constant_index = 0;
  expect_error(p, Error::InvalidProgram, "constant_index 0 out of range");
}

TEST(EmitValidate, InstructionIndices) {
  EmitProgram p = add_program();
  p.methods[0].instructions[0].index = 1;
  expect_error(p, Error::InvalidProgram, "instruction 0: op_index 1 out of range [0, 1)");
  p = add_program();
  p.methods[0].instructions[0].args[4] = 9;
  expect_error(p, Error::InvalidProgram, "arg value 9 out of range");
  p = add_program();
  p.methods[0].instructions.push_back(EmitInstruction::free(2));
  expect_error(p, Error::InvalidProgram, "not a Tensor");
}

TEST(EmitValidate, NamesAndKeys) {
  EmitProgram p = add_program();
  p.methods.push_back(add_method());
  expect_error(p, Error::InvalidProgram, "'forward' is used twice");
  p = add_program();
  p.named_data = {{"k", {1}, 16}, {"k", {2}, 16}};
  expect_error(p, Error::InvalidProgram, "key 'k' is used twice with different bytes");
  p = add_program();
  p.named_data = {{"k", {1}, 24}};
  expect_error(p, Error::InvalidArgument, "not a power of two");
}

}  // namespace
}  // namespace ember::aot
