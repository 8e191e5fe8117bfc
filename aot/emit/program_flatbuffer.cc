// FlatBuffer building for the .pte writer. Fields are written the way upstream's
// serializer writes them (pte-format.md 1.5 and item 13 of section 0): every field
// the runtime requires is present even when empty (plan name/values/inputs/
// outputs/chains/delegates/non_const_buffer_sizes, Chain.instructions, call args,
// Tensor.sizes/dim_order, Operator.overload, BackendDelegate.id/processed,
// Program.constant_segment), scalar fields equal to their default are omitted,
// and a None value is a Null EValue with an empty Null table.
#include "aot/emit/program_flatbuffer.h"

#include <string>

#include "schema/program_generated.h"

namespace ember::aot {
namespace {

namespace fb = executorch_flatbuffer;
using flatbuffers::FlatBufferBuilder;
using flatbuffers::Offset;

Offset<fb::Tensor> build_tensor(FlatBufferBuilder& b, const EmitTensor& t,
                                const SegmentLayout& layout) {
  auto sizes = b.CreateVector(t.sizes);
  auto dim_order = b.CreateVector(t.dim_order);
  Offset<fb::AllocationDetails> allocation = 0;
  if (t.memory_id != 0) {
    allocation = fb::CreateAllocationDetails(b, t.memory_id, static_cast<uint32_t>(t.memory_offset),
                                             static_cast<uint32_t>(t.memory_offset >> 32));
  }
  Offset<fb::ExtraTensorInfo> extra = 0;
  if (!t.fully_qualified_name.empty() || t.external) {
    auto fqn = b.CreateString(t.fully_qualified_name);
    extra = fb::CreateExtraTensorInfo(
        b, 0, fqn, t.external ? fb::TensorDataLocation::EXTERNAL : fb::TensorDataLocation::SEGMENT);
  }
  uint32_t data_buffer_idx = 0;
  if (t.constant_index >= 0) data_buffer_idx = layout.constant_buffer_idx[t.constant_index];
  if (t.mutable_data_index >= 0) data_buffer_idx = layout.mutable_buffer_idx[t.mutable_data_index];
  if (t.external) data_buffer_idx = layout.external_index.at(t.fully_qualified_name);
  return fb::CreateTensor(b, static_cast<fb::ScalarType>(t.scalar_type), 0, sizes, dim_order,
                          t.requires_grad, data_buffer_idx, allocation, 0,
                          static_cast<fb::TensorShapeDynamism>(t.dynamism), extra);
}

std::vector<int32_t> to_int32(const std::vector<int64_t>& v) {
  return std::vector<int32_t>(v.begin(), v.end());
}

Offset<fb::EValue> build_value(FlatBufferBuilder& b, const EmitValue& v,
                               const SegmentLayout& layout) {
  using K = fb::KernelTypes;
  switch (v.kind) {
    case EmitValueKind::None:
      return fb::CreateEValue(b, K::Null, fb::CreateNull(b).Union());
    case EmitValueKind::Int:
      return fb::CreateEValue(b, K::Int, fb::CreateInt(b, v.int_value).Union());
    case EmitValueKind::Double:
      return fb::CreateEValue(b, K::Double, fb::CreateDouble(b, v.double_value).Union());
    case EmitValueKind::Bool:
      return fb::CreateEValue(b, K::Bool, fb::CreateBool(b, v.bool_value).Union());
    case EmitValueKind::String:
      return fb::CreateEValue(b, K::String,
                              fb::CreateString(b, b.CreateString(v.string_value)).Union());
    case EmitValueKind::Tensor:
      return fb::CreateEValue(b, K::Tensor, build_tensor(b, v.tensor, layout).Union());
    case EmitValueKind::IntList:
      return fb::CreateEValue(b, K::IntList,
                              fb::CreateIntList(b, b.CreateVector(v.indices)).Union());
    case EmitValueKind::DoubleList:
      return fb::CreateEValue(b, K::DoubleList,
                              fb::CreateDoubleList(b, b.CreateVector(v.doubles)).Union());
    case EmitValueKind::BoolList: {
      std::vector<uint8_t> bools(v.bools.begin(), v.bools.end());
      return fb::CreateEValue(b, K::BoolList, fb::CreateBoolList(b, b.CreateVector(bools)).Union());
    }
    case EmitValueKind::TensorList:
      return fb::CreateEValue(b, K::TensorList,
                              fb::CreateTensorList(b, b.CreateVector(to_int32(v.indices))).Union());
    case EmitValueKind::OptionalTensorList:
      return fb::CreateEValue(
          b, K::OptionalTensorList,
          fb::CreateOptionalTensorList(b, b.CreateVector(to_int32(v.indices))).Union());
  }
  return fb::CreateEValue(b, K::Null, fb::CreateNull(b).Union());
}

Offset<fb::Instruction> build_instruction(FlatBufferBuilder& b, const EmitInstruction& in) {
  using A = fb::InstructionArguments;
  switch (in.kind) {
    case EmitInstructionKind::KernelCall:
      return fb::CreateInstruction(
          b, A::KernelCall, fb::CreateKernelCall(b, in.index, b.CreateVector(in.args)).Union());
    case EmitInstructionKind::DelegateCall:
      return fb::CreateInstruction(
          b, A::DelegateCall, fb::CreateDelegateCall(b, in.index, b.CreateVector(in.args)).Union());
    case EmitInstructionKind::MoveCall:
      return fb::CreateInstruction(b, A::MoveCall,
                                   fb::CreateMoveCall(b, in.index, in.target).Union());
    case EmitInstructionKind::JumpFalseCall:
      return fb::CreateInstruction(b, A::JumpFalseCall,
                                   fb::CreateJumpFalseCall(b, in.index, in.target).Union());
    case EmitInstructionKind::FreeCall:
      return fb::CreateInstruction(b, A::FreeCall, fb::CreateFreeCall(b, in.index).Union());
  }
  return 0;
}

Offset<fb::BackendDelegate> build_delegate(FlatBufferBuilder& b, const EmitDelegate& d,
                                           const DelegateRef& ref) {
  std::vector<Offset<fb::CompileSpec>> specs;
  for (const CompileSpec& spec : d.compile_specs) {
    specs.push_back(fb::CreateCompileSpec(b, b.CreateString(spec.key), b.CreateVector(spec.value)));
  }
  auto id = b.CreateString(d.id);
  auto processed = fb::CreateBackendDelegateDataReference(
      b, ref.in_segment ? fb::DataLocation::SEGMENT : fb::DataLocation::INLINE, ref.index);
  return fb::CreateBackendDelegate(b, id, processed, b.CreateVector(specs));
}

Offset<fb::ExecutionPlan> build_plan(FlatBufferBuilder& b, const EmitMethod& m,
                                     const SegmentLayout& layout,
                                     const std::vector<DelegateRef>& refs) {
  auto name = b.CreateString(m.name);
  Offset<fb::ContainerMetadata> meta = 0;
  if (!m.encoded_inp_str.empty() || !m.encoded_out_str.empty()) {
    meta = fb::CreateContainerMetadata(b, b.CreateString(m.encoded_inp_str),
                                       b.CreateString(m.encoded_out_str));
  }
  std::vector<Offset<fb::EValue>> values;
  for (const EmitValue& v : m.values) values.push_back(build_value(b, v, layout));
  auto values_vec = b.CreateVector(values);
  auto inputs = b.CreateVector(m.inputs);
  auto outputs = b.CreateVector(m.outputs);
  std::vector<Offset<fb::Instruction>> instructions;
  for (const EmitInstruction& in : m.instructions) instructions.push_back(build_instruction(b, in));
  auto chain = fb::CreateChain(b, b.CreateVector(m.inputs), b.CreateVector(m.outputs),
                               b.CreateVector(instructions));
  auto chains = b.CreateVector(std::vector<Offset<fb::Chain>>{chain});
  std::vector<Offset<fb::Operator>> ops;
  for (const EmitOperator& op : m.operators) {
    ops.push_back(fb::CreateOperator(b, b.CreateString(op.name), b.CreateString(op.overload)));
  }
  auto ops_vec = b.CreateVector(ops);
  std::vector<Offset<fb::BackendDelegate>> delegates;
  for (size_t k = 0; k < m.delegates.size(); ++k) {
    delegates.push_back(build_delegate(b, m.delegates[k], refs[k]));
  }
  auto delegates_vec = b.CreateVector(delegates);
  auto buffers = b.CreateVector(m.non_const_buffer_sizes);
  return fb::CreateExecutionPlan(b, name, meta, values_vec, inputs, outputs, chains, ops_vec,
                                 delegates_vec, buffers);
}

Offset<fb::BackendDelegateInlineData> build_inline_blob(FlatBufferBuilder& b,
                                                        const std::vector<uint8_t>& data) {
  b.ForceVectorAlignment(data.size(), sizeof(uint8_t), 16);
  return fb::CreateBackendDelegateInlineData(b, b.CreateVector(data));
}

}  // namespace

std::vector<uint8_t> build_program_flatbuffer(const EmitProgram& program,
                                              const SegmentLayout& layout) {
  FlatBufferBuilder b(4096);
  std::vector<Offset<fb::ExecutionPlan>> plans;
  for (size_t i = 0; i < program.methods.size(); ++i) {
    plans.push_back(build_plan(b, program.methods[i], layout, layout.delegate_refs[i]));
  }
  auto plans_vec = b.CreateVector(plans);
  auto constant_buffer = b.CreateVector(std::vector<Offset<fb::Buffer>>{});
  std::vector<Offset<fb::BackendDelegateInlineData>> inline_data;
  for (const std::vector<uint8_t>* blob : layout.inline_blobs) {
    inline_data.push_back(build_inline_blob(b, *blob));
  }
  auto inline_vec = b.CreateVector(inline_data);
  std::vector<Offset<fb::DataSegment>> segments;
  for (const LaidOutSegment& s : layout.segments) {
    segments.push_back(fb::CreateDataSegment(b, s.offset, s.size));
  }
  auto segments_vec = b.CreateVector(segments);
  auto constant_segment = fb::CreateSubsegmentOffsets(b, layout.constant_segment_index,
                                                      b.CreateVector(layout.constant_offsets));
  flatbuffers::Offset<flatbuffers::Vector<Offset<fb::SubsegmentOffsets>>> mutable_vec = 0;
  if (layout.has_mutable) {
    auto entry = fb::CreateSubsegmentOffsets(b, layout.mutable_segment_index,
                                             b.CreateVector(layout.mutable_offsets));
    mutable_vec = b.CreateVector(std::vector<Offset<fb::SubsegmentOffsets>>{entry});
  }
  std::vector<Offset<fb::NamedData>> named;
  for (const NamedDataRef& ref : layout.named_data) {
    named.push_back(fb::CreateNamedData(b, b.CreateString(ref.key), ref.segment_index));
  }
  auto named_vec = b.CreateVector(named);
  auto root = fb::CreateProgram(b, 0, plans_vec, constant_buffer, inline_vec, segments_vec,
                                constant_segment, mutable_vec, named_vec);
  fb::FinishProgramBuffer(b, root);
  return std::vector<uint8_t>(b.GetBufferPointer(), b.GetBufferPointer() + b.GetSize());
}

}  // namespace ember::aot
