// Builds a Program that uses every value kind and instruction kind with the
// generated builders, then verifies it and reads it back field by field.
#include <gtest/gtest.h>

#include <vector>

#include "schema/program_generated.h"

namespace fb = executorch_flatbuffer;

namespace {

TEST(ProgramSchema, BuildVerifyReadBack) {
  flatbuffers::FlatBufferBuilder b;
  std::vector<int32_t> sizes{2, 3};
  std::vector<uint8_t> dim_order{0, 1};
  auto alloc = fb::CreateAllocationDetails(b, /*memory_id=*/1, /*low=*/64, /*high=*/0);
  auto tensor = fb::CreateTensorDirect(b, fb::ScalarType::FLOAT, 0, &sizes, &dim_order, false, 0,
                                       alloc, 0, fb::TensorShapeDynamism::DYNAMIC_BOUND);
  std::vector<int64_t> int_items{1};
  std::vector<double> doubles{0.5, -2};
  std::vector<uint8_t> bools{1, 0};
  std::vector<int32_t> tensor_items{0};
  std::vector<int32_t> optional_items{0, -1};
  std::vector<flatbuffers::Offset<fb::EValue>> values{
      fb::CreateEValue(b, fb::KernelTypes::Tensor, tensor.Union()),
      fb::CreateEValue(b, fb::KernelTypes::Int, fb::CreateInt(b, 7).Union()),
      fb::CreateEValue(b, fb::KernelTypes::Bool, fb::CreateBool(b, true).Union()),
      fb::CreateEValue(b, fb::KernelTypes::Double, fb::CreateDouble(b, 1.25).Union()),
      fb::CreateEValue(b, fb::KernelTypes::String, fb::CreateStringDirect(b, "hi").Union()),
      fb::CreateEValue(b, fb::KernelTypes::IntList, fb::CreateIntListDirect(b, &int_items).Union()),
      fb::CreateEValue(b, fb::KernelTypes::DoubleList,
                       fb::CreateDoubleListDirect(b, &doubles).Union()),
      fb::CreateEValue(b, fb::KernelTypes::BoolList, fb::CreateBoolListDirect(b, &bools).Union()),
      fb::CreateEValue(b, fb::KernelTypes::TensorList,
                       fb::CreateTensorListDirect(b, &tensor_items).Union()),
      fb::CreateEValue(b, fb::KernelTypes::OptionalTensorList,
                       fb::CreateOptionalTensorListDirect(b, &optional_items).Union()),
      fb::CreateEValue(b, fb::KernelTypes::Null, fb::CreateNull(b).Union()),
  };
  std::vector<int32_t> args{0, 0, 1, 0, 0};
  std::vector<flatbuffers::Offset<fb::Instruction>> instructions{
      fb::CreateInstruction(b, fb::InstructionArguments::KernelCall,
                            fb::CreateKernelCallDirect(b, 0, &args).Union()),
      fb::CreateInstruction(b, fb::InstructionArguments::MoveCall, fb::CreateMoveCall(b, 1, 2).Union()),
      fb::CreateInstruction(b, fb::InstructionArguments::JumpFalseCall,
                            fb::CreateJumpFalseCall(b, 2, 0).Union()),
      fb::CreateInstruction(b, fb::InstructionArguments::FreeCall, fb::CreateFreeCall(b, 0).Union()),
  };
  std::vector<flatbuffers::Offset<fb::Chain>> chains{
      fb::CreateChainDirect(b, nullptr, nullptr, &instructions)};
  std::vector<flatbuffers::Offset<fb::Operator>> ops{fb::CreateOperatorDirect(b, "aten::add", "out")};
  std::vector<int32_t> inputs{0}, outputs{0};
  std::vector<int64_t> buffer_sizes{0, 128};
  std::vector<flatbuffers::Offset<fb::BackendDelegate>> delegates;
  std::vector<flatbuffers::Offset<fb::ExecutionPlan>> plans{fb::CreateExecutionPlanDirect(
      b, "forward", 0, &values, &inputs, &outputs, &chains, &ops, &delegates, &buffer_sizes)};
  std::vector<flatbuffers::Offset<fb::DataSegment>> segments{fb::CreateDataSegment(b, uint64_t{0}, uint64_t{0})};
  std::vector<uint64_t> offsets{0};
  auto constant_segment = fb::CreateSubsegmentOffsetsDirect(b, 0, &offsets);
  auto program = fb::CreateProgramDirect(b, 0, &plans, nullptr, nullptr, &segments, constant_segment);
  fb::FinishProgramBuffer(b, program);

  const uint8_t* buf = b.GetBufferPointer();
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(buf) + 4, 4), "ET12");
  flatbuffers::Verifier v(buf, b.GetSize());
  ASSERT_TRUE(fb::VerifyProgramBuffer(v));
  const fb::Program* p = fb::GetProgram(buf);
  const fb::ExecutionPlan* plan = p->execution_plan()->Get(0);
  EXPECT_EQ(plan->name()->str(), "forward");
  ASSERT_EQ(plan->values()->size(), 11u);
  const fb::Tensor* t = plan->values()->Get(0)->val_as_Tensor();
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(t->scalar_type(), fb::ScalarType::FLOAT);
  EXPECT_EQ(t->sizes()->Get(1), 3);
  EXPECT_EQ(t->allocation_info()->memory_id(), 1u);
  EXPECT_EQ(t->allocation_info()->memory_offset_low(), 64u);
  EXPECT_EQ(t->shape_dynamism(), fb::TensorShapeDynamism::DYNAMIC_BOUND);
  EXPECT_EQ(plan->values()->Get(1)->val_as_Int()->int_val(), 7);
  EXPECT_TRUE(plan->values()->Get(2)->val_as_Bool()->bool_val());
  EXPECT_DOUBLE_EQ(plan->values()->Get(3)->val_as_Double()->double_val(), 1.25);
  EXPECT_EQ(plan->values()->Get(4)->val_as_String()->string_val()->str(), "hi");
  EXPECT_EQ(plan->values()->Get(9)->val_as_OptionalTensorList()->items()->Get(1), -1);
  EXPECT_EQ(plan->values()->Get(10)->val_type(), fb::KernelTypes::Null);
  const auto* instrs = plan->chains()->Get(0)->instructions();
  ASSERT_EQ(instrs->size(), 4u);
  EXPECT_EQ(instrs->Get(0)->instr_args_as_KernelCall()->args()->size(), 5u);
  EXPECT_EQ(instrs->Get(1)->instr_args_as_MoveCall()->move_to(), 2);
  EXPECT_EQ(instrs->Get(3)->instr_args_type(), fb::InstructionArguments::FreeCall);
  EXPECT_EQ(p->constant_segment()->offsets()->size(), 1u);

  // Wire facts from pte-format.md: union codes and slot positions.
  EXPECT_EQ(int(fb::KernelTypes::Tensor), 5);
  EXPECT_EQ(int(fb::KernelTypes::OptionalTensorList), 11);
  EXPECT_EQ(int(fb::InstructionArguments::FreeCall), 5);
  EXPECT_EQ(int(fb::ScalarType::BOOL), 11);
  EXPECT_EQ(int(fb::ScalarType::UINT64), 29);
  EXPECT_EQ(fb::Program::VT_NAMED_DATA, 4 + 2 * 7);
  EXPECT_EQ(fb::ExecutionPlan::VT_NON_CONST_BUFFER_SIZES, 4 + 2 * 8);
  EXPECT_EQ(fb::Tensor::VT_EXTRA_TENSOR_INFO, 4 + 2 * 9);
}

}  // namespace
