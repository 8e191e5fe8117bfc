#include "runtime/executor/testing/program_builder.h"

#include <cstring>

namespace ember::testing {

std::unique_ptr<fbs::EValueT> make_tensor_value(std::vector<int32_t> sizes, uint32_t memory_id,
                                                uint32_t offset) {
  auto tensor = std::make_unique<fbs::TensorT>();
  tensor->scalar_type = fbs::ScalarType::FLOAT;
  tensor->dim_order.resize(sizes.size());
  for (size_t i = 0; i < sizes.size(); ++i) tensor->dim_order[i] = uint8_t(i);
  tensor->sizes = std::move(sizes);
  if (memory_id != 0) {
    tensor->allocation_info = std::make_unique<fbs::AllocationDetailsT>();
    tensor->allocation_info->memory_id = memory_id;
    tensor->allocation_info->memory_offset_low = offset;
  }
  auto value = std::make_unique<fbs::EValueT>();
  value->val.Set(std::move(*tensor));
  return value;
}

std::unique_ptr<fbs::EValueT> make_int_value(int64_t v) {
  fbs::IntT i;
  i.int_val = v;
  auto value = std::make_unique<fbs::EValueT>();
  value->val.Set(std::move(i));
  return value;
}

std::unique_ptr<fbs::ProgramT> make_add_program() {
  auto plan = std::make_unique<fbs::ExecutionPlanT>();
  plan->name = "forward";
  plan->values.push_back(make_tensor_value({2}, 1, 0));
  plan->values.push_back(make_tensor_value({2}, 1, 16));
  plan->values.push_back(make_int_value(1));
  plan->values.push_back(make_tensor_value({2}, 1, 32));
  plan->inputs = {0, 1};
  plan->outputs = {3};
  auto op = std::make_unique<fbs::OperatorT>();
  op->name = "aten::add";
  op->overload = "out";
  plan->operators.push_back(std::move(op));
  fbs::KernelCallT call;
  call.op_index = 0;
  call.args = {0, 1, 2, 3, 3};
  auto instruction = std::make_unique<fbs::InstructionT>();
  instruction->instr_args.Set(std::move(call));
  auto chain = std::make_unique<fbs::ChainT>();
  chain->instructions.push_back(std::move(instruction));
  plan->chains.push_back(std::move(chain));
  plan->non_const_buffer_sizes = {0, 48};
  auto program = std::make_unique<fbs::ProgramT>();
  program->execution_plan.push_back(std::move(plan));
  program->constant_segment = std::make_unique<fbs::SubsegmentOffsetsT>();
  program->constant_segment->offsets = {0};
  return program;
}

namespace {

void put_u32(std::vector<uint8_t>* b, size_t at, uint32_t v) { std::memcpy(b->data() + at, &v, 4); }
void put_u64(std::vector<uint8_t>* b, size_t at, uint64_t v) { std::memcpy(b->data() + at, &v, 8); }
size_t align_up(size_t v, size_t a) { return (v + a - 1) / a * a; }

std::vector<uint8_t> finish(const fbs::ProgramT& program) {
  flatbuffers::FlatBufferBuilder builder;
  builder.Finish(fbs::Program::Pack(builder, &program), fbs::ProgramIdentifier());
  return std::vector<uint8_t>(builder.GetBufferPointer(), builder.GetBufferPointer() + builder.GetSize());
}

// Inserts the extended header into `flat` and appends `region` at the next
// 128-byte boundary after the program (pte-format.md 2.2).
std::vector<uint8_t> with_header(const std::vector<uint8_t>& flat, const std::vector<uint8_t>& region,
                                 uint32_t header_length) {
  const size_t header = 32;
  std::vector<uint8_t> out(8 + header);
  uint32_t root;
  std::memcpy(&root, flat.data(), 4);
  put_u32(&out, 0, root + header);
  std::memcpy(out.data() + 4, flat.data() + 4, 4);
  std::memcpy(out.data() + 8, "eh00", 4);
  put_u32(&out, 12, header_length);
  out.insert(out.end(), flat.begin() + 8, flat.end());
  const size_t program_size = out.size();
  const size_t base = align_up(program_size, 128);
  put_u64(&out, 16, program_size);
  put_u64(&out, 24, base);
  out.resize(base, 0);
  out.insert(out.end(), region.begin(), region.end());
  if (header_length >= 32) put_u64(&out, 32, out.size() - base);
  return out;
}

}  // namespace

std::vector<uint8_t> serialize(const fbs::ProgramT& source, const std::vector<std::vector<uint8_t>>& segments,
                               uint32_t header_length) {
  std::unique_ptr<fbs::ProgramT> copy(fbs::GetProgram(finish(source).data())->UnPack());
  if (segments.empty()) return finish(*copy);
  copy->segments.clear();
  std::vector<uint8_t> region;
  for (const auto& s : segments) {
    auto seg = std::make_unique<fbs::DataSegmentT>();
    seg->offset = region.size();
    seg->size = s.size();
    copy->segments.push_back(std::move(seg));
    region.insert(region.end(), s.begin(), s.end());
    if (&s != &segments.back()) region.resize(align_up(region.size(), 128), 0);
  }
  return with_header(finish(*copy), region, header_length);
}

std::vector<uint8_t> serialize_with_region(const fbs::ProgramT& program, const std::vector<uint8_t>& region,
                                           uint32_t header_length) {
  return with_header(finish(program), region, header_length);
}

AlignedBytes::AlignedBytes(const std::vector<uint8_t>& bytes)
    : storage_((bytes.size() + sizeof(std::max_align_t) - 1) / sizeof(std::max_align_t) + 1), size_(bytes.size()) {
  if (!bytes.empty()) std::memcpy(storage_.data(), bytes.data(), bytes.size());
}

}  // namespace ember::testing
