// Hand-made bad .pte files, each asserting the named error it must produce:
// truncation, a bad identifier, offsets past the end, out-of-range value /
// operator / segment / memory indices, overflowing sizes, and a huge arena
// declared in a tiny file. The base program is built in memory and is first
// shown to load and run, so every failure below is caused by the mutation.
#include <gtest/gtest.h>

#include <string>

#include "runtime/core/diagnostics.h"
#include "runtime/executor/program.h"
#include "runtime/executor/testing/program_builder.h"
#include "runtime/executor/testing/test_kernels.h"
#include "runtime/kernel/prim_ops/prim_ops.h"
#include "runtime/loader/buffer_data_loader.h"

namespace ember::testing {
namespace {

using runtime::Error;

class BadFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(register_test_kernels(kernels_), Error::Ok);
    options_.kernels = &kernels_;
    options_.backends = &backends_;
  }

  // Loads `bytes` and method "forward" with a 48-byte arena (or `arena` bytes).
  Error load(const std::vector<uint8_t>& bytes, size_t arena = 48) {
    AlignedBytes aligned(bytes);
    runtime::BufferDataLoader loader(aligned.data(), aligned.size());
    auto program = runtime::Program::load(&loader);
    if (!program.ok()) return program.error();
    arena_.assign(arena, 0);
    runtime::Span<uint8_t> spans[1] = {runtime::Span<uint8_t>(arena_.data(), arena_.size())};
    runtime::HierarchicalAllocator planned(runtime::Span<runtime::Span<uint8_t>>(spans, 1));
    runtime::MemoryAllocator method_allocator(method_pool_, sizeof(method_pool_));
    runtime::MemoryManager memory(&method_allocator, &planned);
    auto method = program->load_method("forward", &memory, options_);
    if (!method.ok()) return method.error();
    return method->execute() == Error::InvalidArgument ? Error::Ok : Error::Internal;  // inputs unset
  }

  std::string message() const { return runtime::last_error_message(); }

  runtime::FixedKernelRegistry<16> kernels_;
  runtime::BackendRegistry backends_;
  runtime::MethodLoadOptions options_;
  std::vector<uint8_t> arena_;
  alignas(16) uint8_t method_pool_[16384];
};

TEST_F(BadFileTest, BaseProgramLoads) {
  EXPECT_EQ(load(serialize(*make_add_program())), Error::Ok) << message();
  EXPECT_EQ(load(serialize(*make_add_program(), {{1, 2, 3}})), Error::Ok) << message();
}

TEST_F(BadFileTest, TruncatedFiles) {
  const std::vector<uint8_t> good = serialize(*make_add_program(), {{1, 2, 3, 4}});
  for (size_t n : {size_t(0), size_t(4), size_t(7), size_t(20), size_t(39), size_t(63), good.size() / 2,
                   good.size() - 1}) {
    std::vector<uint8_t> cut(good.begin(), good.begin() + n);
    EXPECT_EQ(load(cut), Error::InvalidProgram) << "truncated to " << n << ": " << message();
  }
}

TEST_F(BadFileTest, BadIdentifier) {
  std::vector<uint8_t> bytes = serialize(*make_add_program());
  std::memcpy(bytes.data() + 4, "XY99", 4);
  EXPECT_EQ(load(bytes), Error::InvalidProgram);
  EXPECT_NE(message().find("identifier 'XY99'"), std::string::npos) << message();
}

TEST_F(BadFileTest, GarbageIsRejectedByTheVerifier) {
  std::vector<uint8_t> bytes = serialize(*make_add_program());
  for (size_t i = 12; i < bytes.size(); i += 7) bytes[i] ^= 0x5a;
  const Error err = load(bytes);
  EXPECT_NE(err, Error::Ok);
}

TEST_F(BadFileTest, SegmentBasePastTheEnd) {
  std::vector<uint8_t> bytes = serialize(*make_add_program(), {{1, 2, 3}});
  const uint64_t huge = uint64_t(1) << 40;
  std::memcpy(bytes.data() + 24, &huge, 8);
  EXPECT_EQ(load(bytes), Error::InvalidProgram);
  EXPECT_NE(message().find("segment_base_offset"), std::string::npos) << message();
}

TEST_F(BadFileTest, ProgramSizePastTheEnd) {
  std::vector<uint8_t> bytes = serialize(*make_add_program(), {{1, 2, 3}});
  const uint64_t huge = UINT64_MAX;
  std::memcpy(bytes.data() + 16, &huge, 8);
  EXPECT_EQ(load(bytes), Error::InvalidProgram);
  EXPECT_NE(message().find("program_size"), std::string::npos) << message();
}

TEST_F(BadFileTest, ConstantSegmentOffsetPastTheEnd) {
  auto program = make_add_program();
  program->constant_segment->offsets = {0, 1000};
  program->execution_plan[0]->values[1]->val.AsTensor()->allocation_info.reset();
  program->execution_plan[0]->values[1]->val.AsTensor()->data_buffer_idx = 1;
  program->execution_plan[0]->inputs = {0};
  EXPECT_EQ(load(serialize(*program, {{1, 2, 3, 4, 5, 6, 7, 8}})), Error::InvalidProgram);
  EXPECT_NE(message().find("exceeds the 8-byte constant segment"), std::string::npos) << message();
}

// Fuzz-found: a 0-byte constant whose (deprecated) constant_buffer entry has no
// storage vector was read through a null pointer. It loads, with no data.
TEST_F(BadFileTest, EmptyConstantWithoutStorage) {
  auto program = make_add_program();
  program->constant_segment.reset();  // the deprecated constant_buffer path
  program->constant_buffer.push_back(std::make_unique<fbs::BufferT>());  // placeholder
  program->constant_buffer.push_back(std::make_unique<fbs::BufferT>());  // no storage
  auto value = make_tensor_value({0}, 0, 0);
  value->val.AsTensor()->data_buffer_idx = 1;
  program->execution_plan[0]->values.push_back(std::move(value));
  EXPECT_EQ(load(serialize(*program)), Error::Ok) << message();
}

TEST_F(BadFileTest, SegmentIndexOutOfRange) {
  auto program = make_add_program();
  program->constant_segment->segment_index = 7;
  program->constant_segment->offsets = {0, 0};
  EXPECT_EQ(load(serialize(*program, {{1, 2, 3, 4}})), Error::InvalidProgram);
  EXPECT_NE(message().find("segment index 7 out of range"), std::string::npos) << message();
}

TEST_F(BadFileTest, ValueIndexOutOfRange) {
  auto program = make_add_program();
  program->execution_plan[0]->chains[0]->instructions[0]->instr_args.AsKernelCall()->args[1] = 17;
  EXPECT_EQ(load(serialize(*program)), Error::InvalidProgram);
  EXPECT_NE(message().find("value 17, out of range (4 values)"), std::string::npos) << message();
}

TEST_F(BadFileTest, InputIndexOutOfRange) {
  auto program = make_add_program();
  program->execution_plan[0]->inputs = {0, -3};
  EXPECT_EQ(load(serialize(*program)), Error::InvalidProgram);
  EXPECT_NE(message().find("input 1: value index -3"), std::string::npos) << message();
}

TEST_F(BadFileTest, OperatorIndexOutOfRange) {
  auto program = make_add_program();
  program->execution_plan[0]->chains[0]->instructions[0]->instr_args.AsKernelCall()->op_index = 5;
  EXPECT_EQ(load(serialize(*program)), Error::InvalidProgram);
  EXPECT_NE(message().find("operator 5 out of range (1 operators)"), std::string::npos) << message();
}

TEST_F(BadFileTest, MissingOperatorIsNamed) {
  auto program = make_add_program();
  program->execution_plan[0]->operators[0]->name = "cortex_m::quantize_per_tensor";
  EXPECT_EQ(load(serialize(*program)), Error::OperatorMissing);
  EXPECT_NE(message().find("cortex_m::quantize_per_tensor.out"), std::string::npos) << message();
}

TEST_F(BadFileTest, EveryMissingOperatorIsListed) {
  auto program = make_add_program();
  program->execution_plan[0]->operators[0]->name = "x::a";
  auto op = std::make_unique<fbs::OperatorT>();
  op->name = "x::a";
  op->overload = "o";
  program->execution_plan[0]->operators.push_back(std::move(op));
  fbs::KernelCallT call;
  call.op_index = 1;
  call.args = {0, 1, 2, 3, 3};
  auto instruction = std::make_unique<fbs::InstructionT>();
  instruction->instr_args.Set(std::move(call));
  program->execution_plan[0]->chains[0]->instructions.push_back(std::move(instruction));
  EXPECT_EQ(load(serialize(*program)), Error::OperatorMissing);
  EXPECT_NE(message().find("needs 2 operator(s) with no registered kernel: x::a.out, x::a.o"), std::string::npos)
      << message();
}

TEST_F(BadFileTest, MissingBackendIsNamed) {
  auto program = make_add_program();
  auto delegate = std::make_unique<fbs::BackendDelegateT>();
  delegate->id = "EthosUBackend";
  delegate->processed = std::make_unique<fbs::BackendDelegateDataReferenceT>();
  program->execution_plan[0]->delegates.push_back(std::move(delegate));
  EXPECT_EQ(load(serialize(*program)), Error::NotFound);
  EXPECT_NE(message().find("needs backend 'EthosUBackend', which is not registered"), std::string::npos)
      << message();
}

TEST_F(BadFileTest, MemoryIdOutOfRange) {
  auto program = make_add_program();
  program->execution_plan[0]->values[3]->val.AsTensor()->allocation_info->memory_id = 3;
  EXPECT_EQ(load(serialize(*program)), Error::InvalidProgram);
  EXPECT_NE(message().find("value 3: memory_id 3 out of range (method plans 1 buffer(s))"), std::string::npos)
      << message();
}

TEST_F(BadFileTest, PlannedOffsetPastTheArena) {
  auto program = make_add_program();
  program->execution_plan[0]->values[3]->val.AsTensor()->allocation_info->memory_offset_high = 1;
  EXPECT_EQ(load(serialize(*program)), Error::MemoryAllocationFailed);
}

TEST_F(BadFileTest, MisalignedPlannedOffset) {
  auto program = make_add_program();
  program->execution_plan[0]->values[3]->val.AsTensor()->allocation_info->memory_offset_low = 34;
  EXPECT_EQ(load(serialize(*program)), Error::InvalidProgram);
  EXPECT_NE(message().find("not aligned to its 4-byte elements"), std::string::npos) << message();
}

TEST_F(BadFileTest, OverflowingSizes) {
  auto program = make_add_program();
  program->execution_plan[0]->values[3] = make_tensor_value({INT32_MAX, INT32_MAX, INT32_MAX}, 1, 0);
  EXPECT_EQ(load(serialize(*program)), Error::InvalidProgram);
  EXPECT_NE(message().find("overflow"), std::string::npos) << message();
  program->execution_plan[0]->values[3] = make_tensor_value({0, 1 << 20, 1 << 20}, 1, 0);  // 0 elements
  EXPECT_EQ(load(serialize(*program)), Error::InvalidProgram);
}

TEST_F(BadFileTest, NegativeSizeAndBadDimOrder) {
  auto program = make_add_program();
  program->execution_plan[0]->values[3]->val.AsTensor()->sizes = {-2};
  EXPECT_EQ(load(serialize(*program)), Error::InvalidProgram);
  program = make_add_program();
  program->execution_plan[0]->values[3]->val.AsTensor()->dim_order = {1};
  EXPECT_EQ(load(serialize(*program)), Error::InvalidProgram);
  EXPECT_NE(message().find("dim_order is not a permutation"), std::string::npos) << message();
}

TEST_F(BadFileTest, HugeArenaInATinyFile) {
  auto program = make_add_program();
  program->execution_plan[0]->non_const_buffer_sizes = {0, int64_t(512) << 20};
  const std::vector<uint8_t> bytes = serialize(*program);
  EXPECT_LT(bytes.size(), 1024u);
  EXPECT_EQ(load(bytes, 4096), Error::MemoryAllocationFailed);
  EXPECT_NE(message().find("needs 536870912"), std::string::npos) << message();
}

TEST_F(BadFileTest, IntListPointingAtATensor) {
  auto program = make_add_program();
  fbs::IntListT list;
  list.items = {0};
  auto value = std::make_unique<fbs::EValueT>();
  value->val.Set(std::move(list));
  program->execution_plan[0]->values.push_back(std::move(value));
  EXPECT_EQ(load(serialize(*program)), Error::InvalidProgram);
  EXPECT_NE(message().find("is not an Int value"), std::string::npos) << message();
}

TEST_F(BadFileTest, MoveBetweenKindsIsRejected) {
  auto program = make_add_program();
  fbs::MoveCallT move;
  move.move_from = 2;  // Int
  move.move_to = 0;    // Tensor
  auto instruction = std::make_unique<fbs::InstructionT>();
  instruction->instr_args.Set(std::move(move));
  program->execution_plan[0]->chains[0]->instructions.push_back(std::move(instruction));
  EXPECT_EQ(load(serialize(*program)), Error::InvalidProgram);
  EXPECT_NE(message().find("move of a Int into a Tensor"), std::string::npos) << message();
}

TEST_F(BadFileTest, MissingRequiredTables) {
  auto program = make_add_program();
  flatbuffers::FlatBufferBuilder builder;
  auto name = builder.CreateString("forward");
  fbs::ExecutionPlanBuilder plan(builder);
  plan.add_name(name);
  auto plan_offset = plan.Finish();
  auto plans = builder.CreateVector(&plan_offset, 1);
  fbs::ProgramBuilder root(builder);
  root.add_execution_plan(plans);
  builder.Finish(root.Finish(), fbs::ProgramIdentifier());
  std::vector<uint8_t> bytes(builder.GetBufferPointer(), builder.GetBufferPointer() + builder.GetSize());
  EXPECT_EQ(load(bytes), Error::InvalidProgram);
  EXPECT_NE(message().find("lacks a required table (values or chains)"), std::string::npos) << message();
}

}  // namespace
}  // namespace ember::testing
