// Method semantics on in-memory programs: control flow (JumpFalseCall on a
// Bool tensor, MoveCall, FreeCall), the step limit, set_input checks (dtype,
// rank, static shape, dynamic bound, exported scalar values), unplanned inputs
// and outputs (set_output_data_ptr), and MethodMeta. Expected values are
// worked out by hand from the program each test builds.
#include <gtest/gtest.h>

#include <cstring>

#include "runtime/core/diagnostics.h"
#include "runtime/executor/program.h"
#include "runtime/executor/testing/method_fixture.h"
#include "runtime/executor/testing/program_builder.h"
#include "runtime/executor/testing/test_kernels.h"
#include "runtime/loader/buffer_data_loader.h"

namespace ember::testing {
namespace {

using runtime::EValue;
using runtime::Error;
using runtime::ScalarType;
using runtime::Tensor;

std::unique_ptr<fbs::InstructionT> move_call(int from, int to) {
  fbs::MoveCallT m;
  m.move_from = from;
  m.move_to = to;
  auto i = std::make_unique<fbs::InstructionT>();
  i->instr_args.Set(std::move(m));
  return i;
}

std::unique_ptr<fbs::InstructionT> jump_false(int cond, int dest) {
  fbs::JumpFalseCallT j;
  j.cond_value_index = cond;
  j.destination_instruction = dest;
  auto i = std::make_unique<fbs::InstructionT>();
  i->instr_args.Set(std::move(j));
  return i;
}

std::unique_ptr<fbs::EValueT> bool_value(bool b) {
  fbs::BoolT v;
  v.bool_val = b;
  auto e = std::make_unique<fbs::EValueT>();
  e->val.Set(std::move(v));
  return e;
}

class MethodTest : public MethodFixture {
 protected:
  // cond (Bool[1] tensor input, unplanned) ? 10 : 20, via jumps and moves.
  std::unique_ptr<fbs::ProgramT> branch_program() {
    auto program = make_add_program();
    auto& plan = *program->execution_plan[0];
    plan.values.clear();
    plan.values.push_back(make_tensor_value({1}, 0, 0));
    plan.values[0]->val.AsTensor()->scalar_type = fbs::ScalarType::BOOL;
    plan.values.push_back(make_int_value(10));
    plan.values.push_back(make_int_value(20));
    plan.values.push_back(make_int_value(0));
    plan.values.push_back(bool_value(false));
    plan.inputs = {0};
    plan.outputs = {3};
    auto& instructions = plan.chains[0]->instructions;
    instructions.clear();
    instructions.push_back(jump_false(0, 3));
    instructions.push_back(move_call(1, 3));
    instructions.push_back(jump_false(4, 4));  // always jumps to the end
    instructions.push_back(move_call(2, 3));
    return program;
  }
};

TEST_F(MethodTest, JumpFalseAndMoveTakeBothBranches) {
  auto method = load(*branch_program());
  ASSERT_TRUE(method.ok()) << runtime::last_error_message();
  int32_t sizes[1] = {1};
  uint8_t order[1] = {0};
  int32_t strides[1];
  for (bool cond : {true, false}) {
    bool data[1] = {cond};
    Tensor t(ScalarType::Bool, 1, sizes, order, strides, data);
    ASSERT_EQ(method->set_input(EValue(&t), 0), Error::Ok);
    ASSERT_EQ(method->execute(), Error::Ok) << runtime::last_error_message();
    EXPECT_EQ(method->get_output(0).to_int(), cond ? 10 : 20);
  }
  EXPECT_STREQ(method->instruction_name(0), "jump_false");
  EXPECT_STREQ(method->instruction_name(1), "move");
}

// The observer sees every instruction that ran, in execution order, with its arguments
// (none for jumps and moves); the not-taken branch's move is never reported. Null turns it off.
TEST_F(MethodTest, InstructionObserverSeesEachInstructionThatRan) {
  struct Recorder final : runtime::InstructionObserver {
    std::vector<size_t> seen;
    size_t args = 0;
    void after_instruction(size_t instruction, runtime::Span<EValue* const> a) override {
      seen.push_back(instruction);
      args += a.size();
    }
  } recorder;
  auto method = load(*branch_program());
  ASSERT_TRUE(method.ok()) << runtime::last_error_message();
  int32_t sizes[1] = {1};
  uint8_t order[1] = {0};
  int32_t strides[1];
  bool data[1] = {true};
  Tensor t(ScalarType::Bool, 1, sizes, order, strides, data);
  ASSERT_EQ(method->set_input(EValue(&t), 0), Error::Ok);
  method->set_instruction_observer(&recorder);
  ASSERT_EQ(method->execute(), Error::Ok) << runtime::last_error_message();
  EXPECT_EQ(recorder.seen, (std::vector<size_t>{0, 1, 2}));  // cond true: 3 is jumped over
  EXPECT_EQ(recorder.args, 0u);
  method->set_instruction_observer(nullptr);
  ASSERT_EQ(method->execute(), Error::Ok);
  EXPECT_EQ(recorder.seen.size(), 3u);
  // A kernel call's arguments end with its output (add.out: a, b, alpha, out, out).
  Recorder kernels;
  auto add = load(*make_add_program());
  ASSERT_TRUE(add.ok());
  float a[2] = {1, 2}, b[2] = {3, 4};
  int32_t s2[2][1] = {{2}, {2}};
  uint8_t o2[2][1] = {{0}, {0}};
  int32_t st2[2][1];
  Tensor ta(ScalarType::Float, 1, s2[0], o2[0], st2[0], a);
  Tensor tb(ScalarType::Float, 1, s2[1], o2[1], st2[1], b);
  ASSERT_EQ(add->set_input(EValue(&ta), 0), Error::Ok);
  ASSERT_EQ(add->set_input(EValue(&tb), 1), Error::Ok);
  add->set_instruction_observer(&kernels);
  ASSERT_EQ(add->execute(), Error::Ok);
  EXPECT_EQ(kernels.seen, std::vector<size_t>{0});
  EXPECT_GE(kernels.args, 4u);
}

TEST_F(MethodTest, InfiniteJumpLoopHitsTheStepLimit) {
  auto program = branch_program();
  auto& instructions = program->execution_plan[0]->chains[0]->instructions;
  instructions.clear();
  instructions.push_back(jump_false(4, 0));  // jumps to itself forever
  auto method = load(*program);
  ASSERT_TRUE(method.ok());
  int32_t sizes[1] = {1};
  uint8_t order[1] = {0};
  int32_t strides[1];
  bool data[1] = {true};
  Tensor t(ScalarType::Bool, 1, sizes, order, strides, data);
  ASSERT_EQ(method->set_input(EValue(&t), 0), Error::Ok);
  EXPECT_EQ(method->execute(), Error::InvalidProgram);
  const std::string m = runtime::last_error_message();
  EXPECT_NE(m.find("method 'forward' exceeded 10000000 steps at the jump of instruction 0 (jump loop? a "
                   "while_loop that never ends)"),
            std::string::npos)
      << m;
}

TEST_F(MethodTest, FreeCallClearsTheTensorData) {
  auto program = make_add_program();
  fbs::FreeCallT free_call;
  free_call.value_index = 3;
  auto instruction = std::make_unique<fbs::InstructionT>();
  instruction->instr_args.Set(std::move(free_call));
  program->execution_plan[0]->chains[0]->instructions.push_back(std::move(instruction));
  auto method = load(*program);
  ASSERT_TRUE(method.ok());
  float a[2] = {1, 2}, b[2] = {3, 4};
  int32_t sizes[2][1] = {{2}, {2}};
  uint8_t order[2][1] = {{0}, {0}};
  int32_t strides[2][1];
  Tensor ta(ScalarType::Float, 1, sizes[0], order[0], strides[0], a);
  Tensor tb(ScalarType::Float, 1, sizes[1], order[1], strides[1], b);
  ASSERT_EQ(method->set_input(EValue(&ta), 0), Error::Ok);
  ASSERT_EQ(method->set_input(EValue(&tb), 1), Error::Ok);
  ASSERT_EQ(method->execute(), Error::Ok);
  EXPECT_EQ(method->get_output(0).to_tensor().const_data_ptr(), nullptr);
}

TEST_F(MethodTest, SetInputChecksDtypeRankShapeAndValues) {
  auto program = make_add_program();
  program->execution_plan[0]->values[0]->val.AsTensor()->shape_dynamism = fbs::TensorShapeDynamism::DYNAMIC_BOUND;
  program->execution_plan[0]->values[0]->val.AsTensor()->sizes = {4};  // capacity 4 (16 bytes at offset 0)
  auto method = load(*program);
  ASSERT_TRUE(method.ok()) << runtime::last_error_message();
  float data[8] = {};
  int32_t strides[2];
  uint8_t order[2] = {0, 1};
  int32_t two[1] = {2}, five[1] = {5}, three[1] = {3}, rank2[2] = {1, 2};
  Tensor ok(ScalarType::Float, 1, two, order, strides, data);
  Tensor wrong_dtype(ScalarType::Int, 1, two, order, strides, data);
  Tensor wrong_rank(ScalarType::Float, 2, rank2, order, strides, data);
  Tensor too_big(ScalarType::Float, 1, five, order, strides, data);
  Tensor static_mismatch(ScalarType::Float, 1, three, order, strides, data);
  EXPECT_EQ(method->set_input(EValue(&wrong_dtype), 0), Error::InvalidArgument);
  EXPECT_EQ(method->set_input(EValue(&wrong_rank), 0), Error::InvalidArgument);
  EXPECT_EQ(method->set_input(EValue(&too_big), 0), Error::InvalidArgument);  // above the bound
  EXPECT_EQ(method->set_input(EValue(&ok), 0), Error::Ok);                    // dynamic: 2 <= 4
  EXPECT_EQ(method->set_input(EValue(&static_mismatch), 1), Error::NotSupported);
  EXPECT_EQ(method->set_input(EValue(int64_t(1)), 1), Error::InvalidArgument);  // a Tensor input
  EXPECT_EQ(method->set_input(EValue(&ok), 7), Error::InvalidArgument);
  EXPECT_EQ(method->execute(), Error::InvalidArgument);  // input 1 never set
}

TEST_F(MethodTest, UnplannedInputsAndOutputsUseCallerMemory) {
  auto program = make_add_program();
  auto& values = program->execution_plan[0]->values;
  values[0] = make_tensor_value({2}, 0, 0);
  values[3] = make_tensor_value({2}, 0, 0);
  auto method = load(*program);
  ASSERT_TRUE(method.ok());
  float a[2] = {1, 2}, b[2] = {10, 20}, out[2] = {0, 0};
  int32_t sizes[2][1] = {{2}, {2}};
  uint8_t order[2][1] = {{0}, {0}};
  int32_t strides[2][1];
  Tensor ta(ScalarType::Float, 1, sizes[0], order[0], strides[0], a);
  Tensor tb(ScalarType::Float, 1, sizes[1], order[1], strides[1], b);
  ASSERT_EQ(method->set_input(EValue(&ta), 0), Error::Ok);
  ASSERT_EQ(method->set_input(EValue(&tb), 1), Error::Ok);
  EXPECT_EQ(method->set_output_data_ptr(out, 4, 0), Error::InvalidArgument);  // too small
  ASSERT_EQ(method->set_output_data_ptr(out, sizeof(out), 0), Error::Ok);
  ASSERT_EQ(method->execute(), Error::Ok);
  EXPECT_EQ(out[0], 11.0f);
  EXPECT_EQ(out[1], 22.0f);
  EXPECT_EQ(method->get_output(0).to_tensor().const_data_ptr(), out);
}

TEST_F(MethodTest, PlannedOutputRefusesCallerMemory) {
  auto method = load(*make_add_program());
  ASSERT_TRUE(method.ok());
  float out[2];
  EXPECT_EQ(method->set_output_data_ptr(out, sizeof(out), 0), Error::InvalidState);
}

// b (value 1) is planned and initialised from mutable_data_segments[0]; the
// extended header is the old 24-byte one, so segment_data_size is absent.
TEST_F(MethodTest, MutableDataInitialisesPlannedTensorsWith24ByteHeader) {
  auto program = make_add_program();
  auto& plan = *program->execution_plan[0];
  plan.values[1]->val.AsTensor()->data_buffer_idx = 1;
  plan.inputs = {0};
  auto mutable_segment = std::make_unique<fbs::SubsegmentOffsetsT>();
  mutable_segment->segment_index = 1;
  mutable_segment->offsets = {0, 8};
  program->mutable_data_segments.push_back(std::move(mutable_segment));
  const float initial[4] = {0, 0, 1.5f, 2.5f};  // entry 1 starts at byte 8
  std::vector<uint8_t> mutable_bytes(sizeof(initial));
  std::memcpy(mutable_bytes.data(), initial, sizeof(initial));
  bytes_ = std::make_unique<AlignedBytes>(serialize(*program, {{0, 0, 0, 0}, mutable_bytes}, 24));
  EXPECT_EQ(bytes_->data()[12], 24);
  loader_ = std::make_unique<runtime::BufferDataLoader>(bytes_->data(), bytes_->size());
  auto p = runtime::Program::load(loader_.get());
  ASSERT_TRUE(p.ok()) << runtime::last_error_message();
  spans_[0] = runtime::Span<uint8_t>(arena_, sizeof(arena_));
  planned_ = runtime::HierarchicalAllocator(runtime::Span<runtime::Span<uint8_t>>(spans_, 1));
  method_allocator_ = runtime::MemoryAllocator(pool_, sizeof(pool_));
  memory_ = std::make_unique<runtime::MemoryManager>(&method_allocator_, &planned_);
  auto method = p->load_method("forward", memory_.get(), options_);
  ASSERT_TRUE(method.ok()) << runtime::last_error_message();
  float a[2] = {10, 20};
  int32_t sizes[1] = {2};
  uint8_t order[1] = {0};
  int32_t strides[1];
  Tensor ta(ScalarType::Float, 1, sizes, order, strides, a);
  ASSERT_EQ(method->set_input(EValue(&ta), 0), Error::Ok);
  ASSERT_EQ(method->execute(), Error::Ok);
  const float* out = method->get_output(0).to_tensor().const_data_ptr<float>();
  EXPECT_EQ(out[0], 11.5f);
  EXPECT_EQ(out[1], 22.5f);
}

TEST_F(MethodTest, MethodMetaDescribesTheProgram) {
  auto method = load(*make_add_program());
  ASSERT_TRUE(method.ok());
  runtime::MethodMeta meta = method->method_meta();
  EXPECT_STREQ(meta.name(), "forward");
  EXPECT_EQ(meta.num_inputs(), 2u);
  EXPECT_EQ(meta.num_outputs(), 1u);
  EXPECT_EQ(*meta.input_tag(1), runtime::Tag::Tensor);
  auto info = meta.input_tensor_meta(0);
  ASSERT_TRUE(info.ok());
  EXPECT_EQ(info->nbytes(), 8u);
  EXPECT_TRUE(info->is_memory_planned());
  EXPECT_EQ(meta.num_memory_planned_buffers(), 1u);
  EXPECT_EQ(*meta.memory_planned_buffer_size(0), 48);
  EXPECT_EQ(meta.memory_planned_buffer_size(1).error(), Error::InvalidArgument);
  EXPECT_EQ(meta.num_instructions(), 1u);
  EXPECT_EQ(meta.num_backends(), 0u);
  EXPECT_EQ(program_->method_meta("nope").error(), Error::NotFound);
}

}  // namespace
}  // namespace ember::testing
