// compare_ptes (see pte_view.h): the differences between two programs that the
// runtime could observe. Data is compared after resolution (constant bytes,
// mutable initial bytes, delegate blobs, named data), so a file using the
// deprecated constant_buffer compares equal to one using constant_segment.
#include <sstream>

#include "tests/emit/pte_view.h"

namespace ember::aot::emit_test {
namespace {

namespace fb = executorch_flatbuffer;

template <typename V>
std::string show(const V* v) {
  if (v == nullptr) return "null";
  std::ostringstream s;
  s << "[";
  for (size_t i = 0; i < v->size(); ++i) s << (i ? "," : "") << +v->Get(i);
  s << "]";
  return s.str();
}

std::string str_or(const flatbuffers::String* s) { return s ? s->str() : ""; }

struct Comparer {
  const PteView& a;
  const PteView& b;
  std::vector<std::string> diffs;

  void check(bool same, const std::string& where, const std::string& va, const std::string& vb) {
    if (!same) diffs.push_back(where + ": " + va + " vs " + vb);
  }
  template <typename V>
  void vec(const V* x, const V* y, const std::string& where) {
    check(show(x) == show(y), where, show(x), show(y));
  }

  void tensor(const fb::Tensor* x, const fb::Tensor* y, const std::string& w) {
    check(x->scalar_type() == y->scalar_type(), w + " dtype", std::to_string(int(x->scalar_type())),
          std::to_string(int(y->scalar_type())));
    vec(x->sizes(), y->sizes(), w + " sizes");
    vec(x->dim_order(), y->dim_order(), w + " dim_order");
    check(x->shape_dynamism() == y->shape_dynamism(), w + " dynamism", "", "");
    const fb::AllocationDetails* ax = x->allocation_info();
    const fb::AllocationDetails* ay = y->allocation_info();
    check((ax == nullptr) == (ay == nullptr), w + " planned", ax ? "yes" : "no", ay ? "yes" : "no");
    if (ax && ay) {
      check(ax->memory_id() == ay->memory_id() &&
                ax->memory_offset_low() == ay->memory_offset_low() &&
                ax->memory_offset_high() == ay->memory_offset_high(),
            w + " allocation", std::to_string(ax->memory_offset_low()),
            std::to_string(ay->memory_offset_low()));
    }
    check(a.constant_bytes(x) == b.constant_bytes(y), w + " constant bytes", "", "");
    check(a.mutable_bytes(x) == b.mutable_bytes(y), w + " mutable bytes", "", "");
    check((x->data_buffer_idx() == 0) == (y->data_buffer_idx() == 0), w + " has data",
          std::to_string(x->data_buffer_idx()), std::to_string(y->data_buffer_idx()));
    const fb::ExtraTensorInfo* ex = x->extra_tensor_info();
    const fb::ExtraTensorInfo* ey = y->extra_tensor_info();
    std::string nx = ex ? str_or(ex->fully_qualified_name()) : "";
    std::string ny = ey ? str_or(ey->fully_qualified_name()) : "";
    check(nx == ny, w + " fqn", nx, ny);
    bool lx = ex && ex->location() == fb::TensorDataLocation::EXTERNAL;
    bool ly = ey && ey->location() == fb::TensorDataLocation::EXTERNAL;
    check(lx == ly, w + " external", "", "");
  }

  void value(const fb::EValue* x, const fb::EValue* y, const std::string& w) {
    using K = fb::KernelTypes;
    if (x->val_type() != y->val_type()) {
      return check(false, w + " type", fb::EnumNameKernelTypes(x->val_type()),
                   fb::EnumNameKernelTypes(y->val_type()));
    }
    switch (x->val_type()) {
      case K::Int:
        return check(x->val_as_Int()->int_val() == y->val_as_Int()->int_val(), w, "", "");
      case K::Bool:
        return check(x->val_as_Bool()->bool_val() == y->val_as_Bool()->bool_val(), w, "", "");
      case K::Double:
        return check(x->val_as_Double()->double_val() == y->val_as_Double()->double_val(), w, "",
                     "");
      case K::String:
        return check(
            str_or(x->val_as_String()->string_val()) == str_or(y->val_as_String()->string_val()), w,
            "", "");
      case K::Tensor:
        return tensor(x->val_as_Tensor(), y->val_as_Tensor(), w);
      case K::IntList:
        return vec(x->val_as_IntList()->items(), y->val_as_IntList()->items(), w);
      case K::DoubleList:
        return vec(x->val_as_DoubleList()->items(), y->val_as_DoubleList()->items(), w);
      case K::BoolList:
        return vec(x->val_as_BoolList()->items(), y->val_as_BoolList()->items(), w);
      case K::TensorList:
        return vec(x->val_as_TensorList()->items(), y->val_as_TensorList()->items(), w);
      case K::OptionalTensorList:
        return vec(x->val_as_OptionalTensorList()->items(), y->val_as_OptionalTensorList()->items(),
                   w);
      default:
        return;
    }
  }

  void instruction(const fb::Instruction* x, const fb::Instruction* y, const std::string& w) {
    using A = fb::InstructionArguments;
    if (x->instr_args_type() != y->instr_args_type()) return check(false, w + " kind", "", "");
    switch (x->instr_args_type()) {
      case A::KernelCall:
        check(
            x->instr_args_as_KernelCall()->op_index() == y->instr_args_as_KernelCall()->op_index(),
            w + " op_index", "", "");
        return vec(x->instr_args_as_KernelCall()->args(), y->instr_args_as_KernelCall()->args(),
                   w + " args");
      case A::DelegateCall:
        check(x->instr_args_as_DelegateCall()->delegate_index() ==
                  y->instr_args_as_DelegateCall()->delegate_index(),
              w + " delegate_index", "", "");
        return vec(x->instr_args_as_DelegateCall()->args(), y->instr_args_as_DelegateCall()->args(),
                   w + " args");
      case A::MoveCall:
        return check(
            x->instr_args_as_MoveCall()->move_from() == y->instr_args_as_MoveCall()->move_from() &&
                x->instr_args_as_MoveCall()->move_to() == y->instr_args_as_MoveCall()->move_to(),
            w, "", "");
      case A::JumpFalseCall:
        return check(x->instr_args_as_JumpFalseCall()->cond_value_index() ==
                             y->instr_args_as_JumpFalseCall()->cond_value_index() &&
                         x->instr_args_as_JumpFalseCall()->destination_instruction() ==
                             y->instr_args_as_JumpFalseCall()->destination_instruction(),
                     w, "", "");
      case A::FreeCall:
        return check(x->instr_args_as_FreeCall()->value_index() ==
                         y->instr_args_as_FreeCall()->value_index(),
                     w, "", "");
      default:
        return;
    }
  }

  void delegate(const fb::BackendDelegate* x, const fb::BackendDelegate* y, const std::string& w) {
    check(str_or(x->id()) == str_or(y->id()), w + " id", str_or(x->id()), str_or(y->id()));
    check(a.delegate_blob(x) == b.delegate_blob(y), w + " blob", "", "");
    size_t nx = x->compile_specs() ? x->compile_specs()->size() : 0;
    size_t ny = y->compile_specs() ? y->compile_specs()->size() : 0;
    if (nx != ny) return check(false, w + " compile_specs", std::to_string(nx), std::to_string(ny));
    for (size_t i = 0; i < nx; ++i) {
      check(str_or(x->compile_specs()->Get(i)->key()) == str_or(y->compile_specs()->Get(i)->key()),
            w + " spec key", "", "");
      vec(x->compile_specs()->Get(i)->value(), y->compile_specs()->Get(i)->value(), w + " spec");
    }
  }

  void plan(const fb::ExecutionPlan* x, const fb::ExecutionPlan* y) {
    std::string w = "plan " + str_or(x->name());
    check(str_or(x->name()) == str_or(y->name()), w + " name", "", str_or(y->name()));
    vec(x->inputs(), y->inputs(), w + " inputs");
    vec(x->outputs(), y->outputs(), w + " outputs");
    vec(x->non_const_buffer_sizes(), y->non_const_buffer_sizes(), w + " buffers");
    if (x->values()->size() != y->values()->size()) return check(false, w + " #values", "", "");
    for (size_t i = 0; i < x->values()->size(); ++i) {
      value(x->values()->Get(i), y->values()->Get(i), w + " value " + std::to_string(i));
    }
    size_t ox = x->operators() ? x->operators()->size() : 0;
    size_t oy = y->operators() ? y->operators()->size() : 0;
    if (ox != oy) return check(false, w + " #operators", "", "");
    for (size_t i = 0; i < ox; ++i) {
      const fb::Operator* p = x->operators()->Get(i);
      const fb::Operator* q = y->operators()->Get(i);
      check(
          str_or(p->name()) == str_or(q->name()) && str_or(p->overload()) == str_or(q->overload()),
          w + " operator " + std::to_string(i), str_or(p->name()), str_or(q->name()));
    }
    if (x->delegates()->size() != y->delegates()->size())
      return check(false, w + " #delegates", "", "");
    for (size_t i = 0; i < x->delegates()->size(); ++i) {
      delegate(x->delegates()->Get(i), y->delegates()->Get(i),
               w + " delegate " + std::to_string(i));
    }
    const auto* ix = x->chains()->Get(0)->instructions();
    const auto* iy = y->chains()->Get(0)->instructions();
    if (ix->size() != iy->size()) return check(false, w + " #instructions", "", "");
    for (size_t i = 0; i < ix->size(); ++i) {
      instruction(ix->Get(i), iy->Get(i), w + " instruction " + std::to_string(i));
    }
  }
};

}  // namespace

std::vector<std::string> compare_ptes(const PteView& a, const PteView& b) {
  Comparer c{a, b, {}};
  const auto* px = a.program()->execution_plan();
  const auto* py = b.program()->execution_plan();
  if (px->size() != py->size()) return {"#plans differ"};
  for (size_t i = 0; i < px->size(); ++i) c.plan(px->Get(i), py->Get(i));
  const auto* nx = a.program()->named_data();
  const auto* ny = b.program()->named_data();
  size_t cx = nx ? nx->size() : 0, cy = ny ? ny->size() : 0;
  if (cx != cy) return {"#named_data differ"};
  for (size_t i = 0; i < cx; ++i) {
    c.check(str_or(nx->Get(i)->key()) == str_or(ny->Get(i)->key()) &&
                a.segment_bytes(nx->Get(i)->segment_index()) ==
                    b.segment_bytes(ny->Get(i)->segment_index()),
            "named_data " + std::to_string(i), "", "");
  }
  return c.diffs;
}

}  // namespace ember::aot::emit_test
