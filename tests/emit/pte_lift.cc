// lift_pte (see pte_view.h): a .pte back into an EmitProgram, so that upstream
// files can be re-emitted by our writer and compared with the original.
#include <map>

#include "tests/emit/pte_view.h"

namespace ember::aot::emit_test {
namespace {

namespace fb = executorch_flatbuffer;

template <typename T, typename V>
std::vector<T> to_vec(const V* v) {
  return v ? std::vector<T>(v->begin(), v->end()) : std::vector<T>();
}

// Bytes of entries 1..count-1 of a subsegment table, in index order: a referenced
// entry's length is its tensor's nbytes, an unreferenced one runs to the next offset.
std::vector<std::vector<uint8_t>> entries(const std::vector<uint8_t>& segment,
                                          const std::vector<uint64_t>& offsets,
                                          const std::map<uint32_t, uint64_t>& nbytes) {
  std::vector<std::vector<uint8_t>> out;
  for (size_t i = 1; i < offsets.size(); ++i) {
    uint64_t begin = offsets[i];
    uint64_t end = i + 1 < offsets.size() ? offsets[i + 1] : segment.size();
    auto it = nbytes.find(static_cast<uint32_t>(i));
    if (it != nbytes.end()) end = begin + it->second;
    if (begin > segment.size() || end > segment.size() || end < begin) end = begin = 0;
    out.emplace_back(segment.begin() + begin, segment.begin() + end);
  }
  return out;
}

// data_buffer_idx -> nbytes of the tensors that use it, constants and mutables apart.
void collect_nbytes(const fb::Program* p, std::map<uint32_t, uint64_t>* constants,
                    std::map<uint32_t, uint64_t>* mutables) {
  for (const fb::ExecutionPlan* plan : *p->execution_plan()) {
    for (const fb::EValue* v : *plan->values()) {
      const fb::Tensor* t = v->val_as_Tensor();
      if (t == nullptr || t->data_buffer_idx() == 0) continue;
      const fb::ExtraTensorInfo* extra = t->extra_tensor_info();
      if (extra != nullptr && extra->location() == fb::TensorDataLocation::EXTERNAL) continue;
      (t->allocation_info() ? mutables : constants)
          ->emplace(t->data_buffer_idx(), tensor_nbytes(t));
    }
  }
}

struct Lifter {
  const PteView& view;
  EmitProgram* out;

  EmitTensor tensor(const fb::Tensor* t) {
    EmitTensor e;
    e.scalar_type = static_cast<int8_t>(t->scalar_type());
    e.sizes = to_vec<int32_t>(t->sizes());
    e.dim_order = to_vec<uint8_t>(t->dim_order());
    e.dynamism = static_cast<EmitDynamism>(t->shape_dynamism());
    e.requires_grad = t->requires_grad();
    const fb::ExtraTensorInfo* extra = t->extra_tensor_info();
    if (extra != nullptr) {
      if (extra->fully_qualified_name())
        e.fully_qualified_name = extra->fully_qualified_name()->str();
      e.external = extra->location() == fb::TensorDataLocation::EXTERNAL;
    }
    if (t->allocation_info() != nullptr) {
      e.memory_id = t->allocation_info()->memory_id();
      e.memory_offset = t->allocation_info()->memory_offset_low() |
                        (uint64_t{t->allocation_info()->memory_offset_high()} << 32);
      if (t->data_buffer_idx() > 0 && !e.external) e.mutable_data_index = t->data_buffer_idx() - 1;
    } else if (t->data_buffer_idx() > 0 && !e.external) {
      e.constant_index = t->data_buffer_idx() - 1;
    }
    return e;
  }

  EmitValue value(const fb::EValue* v) {
    using K = fb::KernelTypes;
    switch (v->val_type()) {
      case K::Int:
        return EmitValue::of_int(v->val_as_Int()->int_val());
      case K::Bool:
        return EmitValue::of_bool(v->val_as_Bool()->bool_val());
      case K::Double:
        return EmitValue::of_double(v->val_as_Double()->double_val());
      case K::String:
        return EmitValue::of_string(v->val_as_String()->string_val()->str());
      case K::Tensor:
        return EmitValue::of_tensor(tensor(v->val_as_Tensor()));
      case K::IntList:
        return EmitValue::of_list(EmitValueKind::IntList,
                                  to_vec<int64_t>(v->val_as_IntList()->items()));
      case K::TensorList:
        return EmitValue::of_list(EmitValueKind::TensorList,
                                  to_vec<int64_t>(v->val_as_TensorList()->items()));
      case K::OptionalTensorList:
        return EmitValue::of_list(EmitValueKind::OptionalTensorList,
                                  to_vec<int64_t>(v->val_as_OptionalTensorList()->items()));
      case K::DoubleList:
        return EmitValue::of_doubles(to_vec<double>(v->val_as_DoubleList()->items()));
      case K::BoolList:
        return EmitValue::of_bools(to_vec<bool>(v->val_as_BoolList()->items()));
      default:
        return EmitValue::none();
    }
  }

  EmitInstruction instruction(const fb::Instruction* in) {
    using A = fb::InstructionArguments;
    switch (in->instr_args_type()) {
      case A::KernelCall: {
        auto* c = in->instr_args_as_KernelCall();
        return EmitInstruction::kernel(c->op_index(), to_vec<int32_t>(c->args()));
      }
      case A::DelegateCall: {
        auto* c = in->instr_args_as_DelegateCall();
        return EmitInstruction::delegate(c->delegate_index(), to_vec<int32_t>(c->args()));
      }
      case A::MoveCall: {
        auto* c = in->instr_args_as_MoveCall();
        return EmitInstruction::move(c->move_from(), c->move_to());
      }
      case A::JumpFalseCall: {
        auto* c = in->instr_args_as_JumpFalseCall();
        return EmitInstruction::jump_false(c->cond_value_index(), c->destination_instruction());
      }
      default:
        return EmitInstruction::free(in->instr_args_as_FreeCall()->value_index());
    }
  }

  EmitMethod method(const fb::ExecutionPlan* plan) {
    EmitMethod m;
    m.name = plan->name()->str();
    for (const fb::EValue* v : *plan->values()) m.values.push_back(value(v));
    m.inputs = to_vec<int32_t>(plan->inputs());
    m.outputs = to_vec<int32_t>(plan->outputs());
    if (plan->operators()) {
      for (const fb::Operator* op : *plan->operators()) {
        m.operators.push_back({op->name()->str(), op->overload() ? op->overload()->str() : ""});
      }
    }
    for (const fb::Instruction* in : *plan->chains()->Get(0)->instructions()) {
      m.instructions.push_back(instruction(in));
    }
    for (const fb::BackendDelegate* d : *plan->delegates()) {
      EmitDelegate e{d->id()->str(), view.delegate_blob(d), {}};
      if (d->compile_specs()) {
        for (const fb::CompileSpec* s : *d->compile_specs()) {
          e.compile_specs.push_back({s->key()->str(), to_vec<uint8_t>(s->value())});
        }
      }
      m.delegates.push_back(std::move(e));
    }
    m.non_const_buffer_sizes = to_vec<int64_t>(plan->non_const_buffer_sizes());
    if (const fb::ContainerMetadata* meta = plan->container_meta_type()) {
      if (meta->encoded_inp_str()) m.encoded_inp_str = meta->encoded_inp_str()->str();
      if (meta->encoded_out_str()) m.encoded_out_str = meta->encoded_out_str()->str();
    }
    return m;
  }
};

}  // namespace

bool lift_pte(const PteView& view, EmitProgram* out, std::string* why) {
  *out = EmitProgram();
  const fb::Program* p = view.program();
  std::map<uint32_t, uint64_t> constant_nbytes, mutable_nbytes;
  collect_nbytes(p, &constant_nbytes, &mutable_nbytes);
  const fb::SubsegmentOffsets* cs = p->constant_segment();
  if (cs != nullptr && cs->offsets() != nullptr && cs->offsets()->size() > 1) {
    out->constants = entries(view.segment_bytes(cs->segment_index()),
                             to_vec<uint64_t>(cs->offsets()), constant_nbytes);
  } else if (p->constant_buffer() != nullptr) {
    for (size_t i = 1; i < p->constant_buffer()->size(); ++i) {
      std::vector<uint8_t> storage = to_vec<uint8_t>(p->constant_buffer()->Get(i)->storage());
      auto it = constant_nbytes.find(static_cast<uint32_t>(i));
      if (it != constant_nbytes.end() && it->second <= storage.size()) storage.resize(it->second);
      out->constants.push_back(std::move(storage));
    }
  }
  const auto* mds = p->mutable_data_segments();
  if (mds != nullptr && mds->size() > 0) {
    if (mds->size() > 1) {
      *why = "more than one mutable_data_segments entry";
      return false;
    }
    out->mutable_data = entries(view.segment_bytes(mds->Get(0)->segment_index()),
                                to_vec<uint64_t>(mds->Get(0)->offsets()), mutable_nbytes);
  }
  Lifter lifter{view, out};
  for (const fb::ExecutionPlan* plan : *p->execution_plan()) {
    if (plan->chains() == nullptr || plan->chains()->size() != 1) {
      *why = "plan without exactly one chain";
      return false;
    }
    out->methods.push_back(lifter.method(plan));
  }
  if (p->named_data() != nullptr) {
    for (const fb::NamedData* nd : *p->named_data()) {
      out->named_data.push_back({nd->key()->str(), view.segment_bytes(nd->segment_index()), 16});
    }
  }
  return true;
}

}  // namespace ember::aot::emit_test
