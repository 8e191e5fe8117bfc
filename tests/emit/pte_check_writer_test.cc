// The .pte checker against our writer: every hand-built program passes with no
// violation at all, and each single-field corruption of a valid file (made in
// place with the generated mutators, or on the raw header bytes) is reported
// under the expected rule. A byte-flip loop shows malformed files never crash it.
#include <gtest/gtest.h>

#include <random>

#include "aot/emit/pte_writer.h"
#include "aot/emit/testing/test_programs.h"
#include "apps/pte_check/pte_check.h"
#include "schema/program_generated.h"

namespace ember::aot {
namespace {

namespace fb = executorch_flatbuffer;
using namespace emit_test;

std::vector<uint8_t> write_or_die(const EmitProgram& program) {
  std::vector<uint8_t> bytes;
  Error s = write_pte(program, &bytes);
  EXPECT_EQ(s, Error::Ok) << format_error(s);
  return bytes;
}

std::string dump(const std::vector<PteViolation>& violations) {
  std::string out;
  for (const PteViolation& v : violations) out += v.to_string() + "\n";
  return out;
}

bool has_rule(const std::vector<PteViolation>& violations, const std::string& rule,
              PteSeverity severity = PteSeverity::Error) {
  for (const PteViolation& v : violations) {
    if (v.rule == rule && v.severity == severity) return true;
  }
  return false;
}

#define EXPECT_RULE(bytes, rule, ...)                                         \
  do {                                                                        \
    auto violations_ = check_pte(bytes, ##__VA_ARGS__);                       \
    EXPECT_TRUE(has_rule(violations_, rule)) << "want " << rule << ", got:\n" \
                                             << dump(violations_);            \
  } while (0)

EmitProgram add_program() {
  EmitProgram program;
  program.methods = {add_method()};
  return program;
}

EmitProgram constant_program() {
  EmitProgram program = add_program();
  program.constants = {float_bytes({1, 2, 3, 4}), float_bytes({5, 6, 7, 8})};
  for (int c : {0, 1}) {
    EmitTensor w = float_2x2(-1);
    w.constant_index = c;
    program.methods[0].values.push_back(EmitValue::of_tensor(w));
  }
  return program;
}

EmitProgram delegate_program() {
  EmitProgram program = add_program();
  program.methods[0].delegates = {{"DemoBackend", {1, 2, 3, 4, 5}, {{"k", {1}}}}};
  program.methods[0].instructions.push_back(EmitInstruction::delegate(0, {0, 1, 3}));
  program.named_data = {{"weights", {9, 9, 9}, 16}};
  program.mutable_data = {{1, 2, 3, 4}};
  EmitTensor state;
  state.scalar_type = 0;
  state.sizes = {4};
  state.dim_order = {0};
  state.memory_id = 1;
  state.mutable_data_index = 0;
  state.fully_qualified_name = "state";
  program.methods[0].values.push_back(EmitValue::of_tensor(state));
  program.methods.push_back(add_method("second"));
  return program;
}

fb::ExecutionPlan* plan0(std::vector<uint8_t>& bytes) {
  return fb::GetMutableProgram(bytes.data())->mutable_execution_plan()->GetMutableObject(0);
}

fb::Tensor* tensor_at(std::vector<uint8_t>& bytes, size_t value) {
  return static_cast<fb::Tensor*>(
      plan0(bytes)->mutable_values()->GetMutableObject(value)->mutable_val());
}

TEST(PteCheckWriter, WriterOutputsHaveNoViolations) {
  PteCheckOptions options;
  options.kernel_arg_counts["aten::add.out"] = 5;
  for (const EmitProgram& program : {add_program(), constant_program(), delegate_program()}) {
    std::vector<uint8_t> bytes = write_or_die(program);
    auto violations = check_pte(bytes, options);
    EXPECT_TRUE(violations.empty()) << dump(violations);
  }
}

TEST(PteCheckWriter, PlannedMemoryRules) {
  std::vector<uint8_t> bytes = write_or_die(add_program());
  ASSERT_TRUE(tensor_at(bytes, 0)->mutable_allocation_info()->mutate_memory_id(0));
  EXPECT_RULE(bytes, "value.memory_id");
  bytes = write_or_die(add_program());
  ASSERT_TRUE(tensor_at(bytes, 3)->mutable_allocation_info()->mutate_memory_offset_low(40));
  EXPECT_RULE(bytes, "value.memory_bounds");
  bytes = write_or_die(add_program());
  plan0(bytes)->mutable_non_const_buffer_sizes()->Mutate(1, 40);
  EXPECT_RULE(bytes, "value.memory_bounds");
  bytes = write_or_die(add_program());
  plan0(bytes)->mutable_non_const_buffer_sizes()->Mutate(1, -8);
  EXPECT_RULE(bytes, "plan.buffer_size");
}

TEST(PteCheckWriter, TensorRules) {
  std::vector<uint8_t> bytes = write_or_die(add_program());
  tensor_at(bytes, 1)->mutable_dim_order()->Mutate(1, 0);
  EXPECT_RULE(bytes, "value.dim_order");
  bytes = write_or_die(add_program());
  tensor_at(bytes, 1)->mutable_sizes()->Mutate(0, -2);
  EXPECT_RULE(bytes, "value.sizes");
  bytes = write_or_die(add_program());
  // 10 (complex128) is commented out of the schema; 9 (complex64) is allowed for FFT outputs.
  ASSERT_TRUE(tensor_at(bytes, 1)->mutate_scalar_type(static_cast<fb::ScalarType>(10)));
  EXPECT_RULE(bytes, "value.scalar_type");
}

TEST(PteCheckWriter, ListAndInstructionRules) {
  EmitProgram program = add_program();
  program.methods[0].values.push_back(EmitValue::of_list(EmitValueKind::IntList, {2}));
  program.methods[0].values.push_back(EmitValue::of_list(EmitValueKind::TensorList, {0}));
  std::vector<uint8_t> bytes = write_or_die(program);
  auto* values = plan0(bytes)->mutable_values();
  static_cast<fb::IntList*>(values->GetMutableObject(4)->mutable_val())
      ->mutable_items()
      ->Mutate(0, 0);
  EXPECT_RULE(bytes, "value.list_items");  // IntList item points at a Tensor
  bytes = write_or_die(program);
  values = plan0(bytes)->mutable_values();

  static_cast<fb::TensorList*>(values->GetMutableObject(5)->mutable_val())
      ->mutable_items()
      ->Mutate(0, 5);
  EXPECT_RULE(bytes, "value.list_order");  // element not before the list

  bytes = write_or_die(add_program());
  auto* call = static_cast<fb::KernelCall*>(plan0(bytes)
                                                ->mutable_chains()
                                                ->GetMutableObject(0)
                                                ->mutable_instructions()
                                                ->GetMutableObject(0)
                                                ->mutable_instr_args());
  call->mutable_args()->Mutate(0, 9);
  EXPECT_RULE(bytes, "instruction.value_index");
  bytes = write_or_die(add_program());
  PteCheckOptions options;
  options.kernel_arg_counts["aten::add.out"] = 4;
  EXPECT_RULE(bytes, "instruction.arg_count", options);
}

TEST(PteCheckWriter, ConstantAndDelegateRules) {
  std::vector<uint8_t> bytes = write_or_die(constant_program());
  ASSERT_TRUE(tensor_at(bytes, 5)->mutate_data_buffer_idx(7));
  EXPECT_RULE(bytes, "value.constant_index");
  bytes = write_or_die(constant_program());
  auto* offsets =
      fb::GetMutableProgram(bytes.data())->mutable_constant_segment()->mutable_offsets();
  offsets->Mutate(2, 24);
  EXPECT_RULE(bytes, "value.constant_bounds");  // 16 bytes at 24 pass the 32-byte segment
  EXPECT_TRUE(has_rule(check_pte(bytes), "constant.alignment", PteSeverity::Warning));

  bytes = write_or_die(delegate_program());
  auto* processed = plan0(bytes)->mutable_delegates()->GetMutableObject(0)->mutable_processed();
  ASSERT_TRUE(processed->mutate_index(7));
  EXPECT_RULE(bytes, "delegate.index");
  bytes = write_or_die(delegate_program());
  auto* segments = fb::GetMutableProgram(bytes.data())->mutable_segments();
  ASSERT_TRUE(segments->GetMutableObject(2)->mutate_size(4096));
  EXPECT_RULE(bytes, "segment.bounds");
  bytes = write_or_die(delegate_program());
  ASSERT_TRUE(tensor_at(bytes, 4)->mutate_data_buffer_idx(3));
  EXPECT_RULE(bytes, "value.mutable_index");
}

TEST(PteCheckWriter, HeaderRules) {
  std::vector<uint8_t> good = write_or_die(delegate_program());
  ASSERT_EQ(good[8], 'e');
  std::vector<uint8_t> bytes = good;
  bytes[4] = 'X';
  EXPECT_RULE(bytes, "file.identifier");
  bytes = good;
  bytes[12] = 16;  // header_length 16 < 24
  EXPECT_RULE(bytes, "header.length");
  bytes = good;
  bytes[16 + 5] = 1;  // program_size far past the file
  EXPECT_RULE(bytes, "header.program_size");
  bytes = good;
  bytes.resize(bytes.size() - 2);  // last segment cut short
  EXPECT_RULE(bytes, "header.segment_data_size");
  EXPECT_RULE(bytes, "segment.bounds");
  bytes = good;
  bytes[0] = 0xf0;  // root offset outside the program
  bytes[1] = 0xff;
  EXPECT_RULE(bytes, "flatbuffer.verify");
  EXPECT_RULE(std::vector<uint8_t>(good.begin(), good.begin() + 6), "file.size");
}

TEST(PteCheckWriter, MissingRequiredFields) {
  flatbuffers::FlatBufferBuilder b;
  auto plan =
      fb::CreateExecutionPlan(b, b.CreateString("forward"), 0,
                              b.CreateVector(std::vector<flatbuffers::Offset<fb::EValue>>{}));
  auto root = fb::CreateProgram(b, 0, b.CreateVector(std::vector<decltype(plan)>{plan}));
  fb::FinishProgramBuffer(b, root);
  std::vector<uint8_t> bytes(b.GetBufferPointer(), b.GetBufferPointer() + b.GetSize());
  bytes.resize(std::max<size_t>(bytes.size(), 64), 0);
  auto violations = check_pte(bytes);
  EXPECT_TRUE(has_rule(violations, "plan.required")) << dump(violations);
  EXPECT_TRUE(has_rule(violations, "constant.segment_missing", PteSeverity::Warning));
}

TEST(PteCheckWriter, RandomCorruptionNeverCrashes) {
  std::vector<uint8_t> good = write_or_die(delegate_program());
  std::mt19937 rng(12345);
  std::uniform_int_distribution<size_t> pos(0, good.size() - 1);
  std::uniform_int_distribution<int> byte(0, 255);
  size_t flagged = 0;
  for (int round = 0; round < 1500; ++round) {
    std::vector<uint8_t> bytes = good;
    for (int k = 0; k < 1 + round % 4; ++k) bytes[pos(rng)] = static_cast<uint8_t>(byte(rng));
    if (round % 10 == 0) bytes.resize(pos(rng));
    flagged += count_errors(check_pte(bytes)) > 0;
  }
  EXPECT_GT(flagged, 100u);
}

}  // namespace
}  // namespace ember::aot
