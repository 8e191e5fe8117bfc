// Field-level facts of written programs, expected values from pte-format.md
// section 0 item 13 and section 1.5: the add program's plan (args, buffers,
// allocation), every value kind, the operator table with an empty overload,
// required-but-empty vectors, two methods in the given order sharing a constant.
#include <gtest/gtest.h>

#include "aot/emit/pte_writer.h"
#include "aot/emit/testing/test_programs.h"
#include "schema/program_generated.h"

namespace ember::aot {
namespace {

namespace fb = executorch_flatbuffer;
using namespace emit_test;

const fb::Program* write_and_read(const EmitProgram& program, std::vector<uint8_t>* bytes) {
  Error s = write_pte(program, bytes);
  EXPECT_EQ(s, Error::Ok) << format_error(s);
  size_t size = bytes->size();
  if (bytes->size() >= 24 && (*bytes)[8] == 'e') size = u64_at(*bytes, 16);
  flatbuffers::Verifier verifier(bytes->data(), size);
  EXPECT_TRUE(fb::VerifyProgramBuffer(verifier));
  return fb::GetProgram(bytes->data());
}

TEST(EmitFields, AddPlan) {
  EmitProgram program;
  program.methods = {add_method()};
  std::vector<uint8_t> bytes;
  const fb::Program* p = write_and_read(program, &bytes);
  ASSERT_EQ(p->execution_plan()->size(), 1u);
  const fb::ExecutionPlan* plan = p->execution_plan()->Get(0);
  EXPECT_EQ(plan->name()->str(), "forward");
  EXPECT_EQ(std::vector<int32_t>(plan->inputs()->begin(), plan->inputs()->end()),
            (std::vector<int32_t>{0, 1}));
  EXPECT_EQ(std::vector<int32_t>(plan->outputs()->begin(), plan->outputs()->end()),
            (std::vector<int32_t>{3}));
  EXPECT_EQ(std::vector<int64_t>(plan->non_const_buffer_sizes()->begin(),
                                 plan->non_const_buffer_sizes()->end()),
            (std::vector<int64_t>{0, 48}));
  ASSERT_EQ(plan->chains()->size(), 1u);
  const auto* instructions = plan->chains()->Get(0)->instructions();
  ASSERT_EQ(instructions->size(), 1u);
  const fb::KernelCall* call = instructions->Get(0)->instr_args_as_KernelCall();
  ASSERT_NE(call, nullptr);
  EXPECT_EQ(call->op_index(), 0);
  EXPECT_EQ(std::vector<int32_t>(call->args()->begin(), call->args()->end()),
            (std::vector<int32_t>{0, 1, 2, 3, 3}));
  EXPECT_EQ(plan->operators()->Get(0)->name()->str(), "aten::add");
  EXPECT_EQ(plan->operators()->Get(0)->overload()->str(), "out");
  ASSERT_NE(plan->delegates(), nullptr);
  EXPECT_EQ(plan->delegates()->size(), 0u);
  const fb::Tensor* b = plan->values()->Get(1)->val_as_Tensor();
  EXPECT_EQ(b->scalar_type(), fb::ScalarType::FLOAT);
  EXPECT_EQ(std::vector<int32_t>(b->sizes()->begin(), b->sizes()->end()),
            (std::vector<int32_t>{2, 2}));
  EXPECT_EQ(b->dim_order()->size(), 2u);
  EXPECT_EQ(b->storage_offset(), 0);
  EXPECT_EQ(b->data_buffer_idx(), 0u);
  ASSERT_NE(b->allocation_info(), nullptr);
  EXPECT_EQ(b->allocation_info()->memory_id(), 1u);
  EXPECT_EQ(b->allocation_info()->memory_offset_low(), 16u);
  EXPECT_EQ(b->allocation_info()->memory_offset_high(), 0u);
  EXPECT_EQ(plan->values()->Get(2)->val_as_Int()->int_val(), 1);
}

TEST(EmitFields, EveryValueKindAndOffsetHighBits) {
  EmitMethod m;
  m.name = "kinds";
  EmitTensor scalar;  // rank 0: sizes [] and dim_order [] must still be written
  scalar.scalar_type = 4;
  scalar.memory_id = 1;
  scalar.memory_offset = (uint64_t{1} << 32) + 64;
  EmitTensor unplanned = float_2x2(-1);
  unplanned.dynamism = EmitDynamism::DynamicBound;
  m.values = {EmitValue::none(),
              EmitValue::of_int(-7),
              EmitValue::of_double(2.5),
              EmitValue::of_bool(true),
              EmitValue::of_string("hi"),
              EmitValue::of_tensor(scalar),
              EmitValue::of_tensor(unplanned),
              EmitValue::of_list(EmitValueKind::IntList, {1, 1}),
              EmitValue::of_doubles({0.5, -1}),
              EmitValue::of_bools({true, false, true}),
              EmitValue::of_list(EmitValueKind::TensorList, {5, 6}),
              EmitValue::of_list(EmitValueKind::OptionalTensorList, {6, -1})};
  m.non_const_buffer_sizes = {0, (int64_t{1} << 32) + 128};
  m.operators = {{"aten::relu", ""}};
  m.instructions = {EmitInstruction::move(1, 1), EmitInstruction::jump_false(3, 0),
                    EmitInstruction::free(6), EmitInstruction::kernel(0, {6, 6})};
  EmitProgram program;
  program.methods = {m};
  std::vector<uint8_t> bytes;
  const fb::Program* p = write_and_read(program, &bytes);
  const auto* v = p->execution_plan()->Get(0)->values();
  using K = fb::KernelTypes;
  std::vector<K> kinds{K::Null,       K::Int,      K::Double,     K::Bool,
                       K::String,     K::Tensor,   K::Tensor,     K::IntList,
                       K::DoubleList, K::BoolList, K::TensorList, K::OptionalTensorList};
  ASSERT_EQ(v->size(), kinds.size());
  for (size_t i = 0; i < kinds.size(); ++i) EXPECT_EQ(v->Get(i)->val_type(), kinds[i]) << i;
  EXPECT_EQ(v->Get(1)->val_as_Int()->int_val(), -7);
  EXPECT_EQ(v->Get(2)->val_as_Double()->double_val(), 2.5);
  EXPECT_TRUE(v->Get(3)->val_as_Bool()->bool_val());
  EXPECT_EQ(v->Get(4)->val_as_String()->string_val()->str(), "hi");
  const fb::Tensor* s = v->Get(5)->val_as_Tensor();
  ASSERT_NE(s->sizes(), nullptr);
  ASSERT_NE(s->dim_order(), nullptr);
  EXPECT_EQ(s->sizes()->size(), 0u);
  EXPECT_EQ(s->scalar_type(), fb::ScalarType::LONG);
  EXPECT_EQ(s->allocation_info()->memory_offset_low(), 64u);
  EXPECT_EQ(s->allocation_info()->memory_offset_high(), 1u);
  const fb::Tensor* u = v->Get(6)->val_as_Tensor();
  EXPECT_EQ(u->allocation_info(), nullptr);
  EXPECT_EQ(u->shape_dynamism(), fb::TensorShapeDynamism::DYNAMIC_BOUND);
  EXPECT_EQ(v->Get(7)->val_as_IntList()->items()->Get(1), 1);
  EXPECT_EQ(v->Get(8)->val_as_DoubleList()->items()->Get(1), -1.0);
  EXPECT_EQ(v->Get(9)->val_as_BoolList()->items()->size(), 3u);
  EXPECT_EQ(v->Get(10)->val_as_TensorList()->items()->Get(1), 6);
  EXPECT_EQ(v->Get(11)->val_as_OptionalTensorList()->items()->Get(1), -1);
  const fb::Operator* op = p->execution_plan()->Get(0)->operators()->Get(0);
  ASSERT_NE(op->overload(), nullptr) << "overload is written even when empty";
  EXPECT_EQ(op->overload()->str(), "");
  const auto* ins = p->execution_plan()->Get(0)->chains()->Get(0)->instructions();
  EXPECT_EQ(ins->Get(0)->instr_args_type(), fb::InstructionArguments::MoveCall);
  EXPECT_EQ(ins->Get(1)->instr_args_as_JumpFalseCall()->cond_value_index(), 3);
  EXPECT_EQ(ins->Get(2)->instr_args_as_FreeCall()->value_index(), 6);
  EXPECT_EQ(ins->Get(3)->instr_args_as_KernelCall()->args()->size(), 2u);
}

TEST(EmitFields, TwoMethodsInGivenOrderShareConstants) {
  EmitProgram program;
  program.constants = {float_bytes({1, 2, 3, 4}), float_bytes({1, 2, 3, 4})};
  EmitMethod forward = add_method("forward");
  EmitTensor w = float_2x2(-1);
  w.constant_index = 0;
  forward.values.push_back(EmitValue::of_tensor(w));
  EmitMethod getter;
  getter.name = "get_weight";
  w.constant_index = 1;
  getter.values = {EmitValue::of_tensor(w)};
  getter.outputs = {0};
  program.methods = {forward, getter};
  std::vector<uint8_t> bytes;
  const fb::Program* p = write_and_read(program, &bytes);
  ASSERT_EQ(p->execution_plan()->size(), 2u);
  EXPECT_EQ(p->execution_plan()->Get(0)->name()->str(), "forward");
  EXPECT_EQ(p->execution_plan()->Get(1)->name()->str(), "get_weight");
  const fb::ExecutionPlan* g = p->execution_plan()->Get(1);
  EXPECT_EQ(g->chains()->Get(0)->instructions()->size(), 0u);
  EXPECT_EQ(g->non_const_buffer_sizes()->size(), 1u);
  EXPECT_EQ(g->inputs()->size(), 0u);
  EXPECT_EQ(p->constant_segment()->offsets()->size(), 2u) << "one constant after dedup";
  EXPECT_EQ(p->execution_plan()->Get(0)->values()->Get(4)->val_as_Tensor()->data_buffer_idx(), 1u);
  EXPECT_EQ(g->values()->Get(0)->val_as_Tensor()->data_buffer_idx(), 1u);
  EXPECT_EQ(p->segments()->Get(0)->size(), 16u);
}

// EXTERNAL tensors carry no data in the file; upstream numbers them from 0 per
// distinct name (seen in its data_map_model.pte: "a" -> 0, "b" -> 1).
TEST(EmitFields, ExternalTensorsAreNumberedByName) {
  EmitMethod m;
  m.name = "forward";
  for (const char* name : {"a", "b", "a"}) {
    EmitTensor t = float_2x2(-1);
    t.external = true;
    t.fully_qualified_name = name;
    m.values.push_back(EmitValue::of_tensor(t));
  }
  EmitProgram program;
  program.methods = {m};
  std::vector<uint8_t> bytes;
  const fb::Program* p = write_and_read(program, &bytes);
  const auto* v = p->execution_plan()->Get(0)->values();
  std::vector<uint32_t> idx;
  for (size_t i = 0; i < 3; ++i) {
    const fb::Tensor* t = v->Get(i)->val_as_Tensor();
    idx.push_back(t->data_buffer_idx());
    EXPECT_EQ(t->extra_tensor_info()->location(), fb::TensorDataLocation::EXTERNAL);
    EXPECT_EQ(t->allocation_info(), nullptr);
  }
  EXPECT_EQ(idx, (std::vector<uint32_t>{0, 1, 0}));
  EXPECT_EQ(v->Get(1)->val_as_Tensor()->extra_tensor_info()->fully_qualified_name()->str(), "b");
}

}  // namespace
}  // namespace ember::aot
