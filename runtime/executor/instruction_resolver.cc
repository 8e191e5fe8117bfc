// Prepares every instruction of every chain: checks each index against the
// method's tables and resolves KernelCall operators to registered kernels.
// All missing operators are reported together (OperatorMissing).
#include <algorithm>
#include <cstdio>
#include <cstring>

#include "runtime/executor/method_state.h"

namespace ember::runtime::internal {
namespace {

constexpr size_t kMaxOperatorNameLength = 255;

struct OperatorTable {
  const char** names = nullptr;     // "ns::op.overload", in the method allocator
  OpFunction* functions = nullptr;  // null = not registered
  size_t size = 0;
};

Error build_operator_table(LoadContext& ctx, OperatorTable* table) {
  MemoryAllocator* alloc = ctx.memory->method_allocator();
  const auto* ops = ctx.plan->operators();
  table->size = size_of(ops);
  EMBER_TRY(allocate_array(alloc, table->size, "operator names", &table->names));
  EMBER_TRY(allocate_array(alloc, table->size, "operator functions", &table->functions));
  for (size_t i = 0; i < table->size; ++i) {
    const fb::Operator* op = ops->Get(flatbuffers::uoffset_t(i));
    if (op->name() == nullptr) return fail(Error::InvalidProgram, "operator %zu has no name", i);
    const size_t name_len = op->name()->size();
    const size_t overload_len = op->overload() ? op->overload()->size() : 0;
    const size_t len = name_len + (overload_len > 0 ? overload_len + 1 : 0);
    if (len > kMaxOperatorNameLength) {
      return fail(Error::InvalidProgram, "operator %zu: name of %zu characters is too long", i, len);
    }
    char* name = static_cast<char*>(alloc->allocate(len + 1, 1));
    if (name == nullptr) return fail(Error::MemoryAllocationFailed, "method allocator exhausted (operator names)");
    std::memcpy(name, op->name()->c_str(), name_len);
    if (overload_len > 0) {
      name[name_len] = '.';
      std::memcpy(name + name_len + 1, op->overload()->c_str(), overload_len);
    }
    name[len] = '\0';
    table->names[i] = name;
    Result<OpFunction> fn = ctx.kernels->find(name);
    table->functions[i] = fn.ok() ? *fn : nullptr;
  }
  return Error::Ok;
}

Error argument_list(LoadContext& ctx, const flatbuffers::Vector<int32_t>* args, size_t pc,
                    PreparedInstruction* out) {
  if (args == nullptr) return fail(Error::InvalidProgram, "instruction %zu has no args", pc);
  MethodState* s = ctx.state;
  EMBER_TRY(allocate_array(ctx.memory->method_allocator(), args->size(), "instruction args", &out->args));
  for (size_t k = 0; k < args->size(); ++k) {
    const int32_t v = args->Get(flatbuffers::uoffset_t(k));
    if (v < 0 || size_t(v) >= s->num_values) {
      return fail(Error::InvalidProgram, "instruction %zu: arg %zu is value %d, out of range (%zu values)",
                  pc, k, v, s->num_values);
    }
    out->args[k] = &s->values[v];
  }
  out->num_args = args->size();
  return Error::Ok;
}

bool value_in_range(const MethodState* s, int32_t v) { return v >= 0 && size_t(v) < s->num_values; }

Error prepare_control(LoadContext& ctx, const fb::Instruction* in, size_t pc, size_t chain_size,
                      PreparedInstruction* out) {
  const MethodState* s = ctx.state;
  switch (in->instr_args_type()) {
    case fb::InstructionArguments::MoveCall: {
      const fb::MoveCall* m = in->instr_args_as_MoveCall();
      out->kind = InstructionKind::Move;
      out->a = m->move_from();
      out->b = m->move_to();
      out->name = "move";
      if (!value_in_range(s, out->a) || !value_in_range(s, out->b)) {
        return fail(Error::InvalidProgram, "instruction %zu: move %d -> %d out of range (%zu values)",
                    pc, out->a, out->b, s->num_values);
      }
      const Tag from = s->values[out->a].tag(), to = s->values[out->b].tag();
      if (to != Tag::None && from != to) {  // keeps every value's kind fixed for the whole run
        return fail(Error::InvalidProgram, "instruction %zu: move of a %s into a %s value", pc,
                    tag_name(from), tag_name(to));
      }
      return Error::Ok;
    }
    case fb::InstructionArguments::JumpFalseCall: {
      const fb::JumpFalseCall* j = in->instr_args_as_JumpFalseCall();
      out->kind = InstructionKind::JumpFalse;
      out->a = j->cond_value_index();
      out->b = j->destination_instruction();
      out->name = "jump_false";
      if (!value_in_range(s, out->a) || out->b < 0 || size_t(out->b) > chain_size) {
        return fail(Error::InvalidProgram, "instruction %zu: jump on value %d to %d out of range", pc,
                    out->a, out->b);
      }
      const EValue& cond = s->values[out->a];
      if (!cond.is_bool() && !(cond.is_tensor() && cond.to_tensor().scalar_type() == ScalarType::Bool)) {
        return fail(Error::InvalidProgram, "instruction %zu: jump condition is a %s, not a Bool", pc,
                    tag_name(cond.tag()));
      }
      return Error::Ok;
    }
    case fb::InstructionArguments::FreeCall: {
      out->kind = InstructionKind::Free;
      out->a = in->instr_args_as_FreeCall()->value_index();
      out->name = "free";
      if (!value_in_range(s, out->a) || !s->values[out->a].is_tensor()) {
        return fail(Error::InvalidProgram, "instruction %zu: free of value %d, not a Tensor value", pc, out->a);
      }
      return Error::Ok;
    }
    default:
      return fail(Error::InvalidProgram, "instruction %zu: unknown kind %d", pc, int(in->instr_args_type()));
  }
}

Error prepare(LoadContext& ctx, const OperatorTable& ops, const fb::Instruction* in, size_t pc,
              size_t chain_size, PreparedInstruction* out) {
  if (in->instr_args() == nullptr) return fail(Error::InvalidProgram, "instruction %zu has no arguments", pc);
  if (in->instr_args_type() == fb::InstructionArguments::KernelCall) {
    const fb::KernelCall* k = in->instr_args_as_KernelCall();
    if (k->op_index() < 0 || size_t(k->op_index()) >= ops.size) {
      return fail(Error::InvalidProgram, "instruction %zu: operator %d out of range (%zu operators)", pc,
                  k->op_index(), ops.size);
    }
    out->kind = InstructionKind::Kernel;
    out->function = ops.functions[k->op_index()];
    out->name = ops.names[k->op_index()];
    return argument_list(ctx, k->args(), pc, out);
  }
  if (in->instr_args_type() == fb::InstructionArguments::DelegateCall) {
    const fb::DelegateCall* d = in->instr_args_as_DelegateCall();
    if (d->delegate_index() < 0 || size_t(d->delegate_index()) >= ctx.state->num_delegates) {
      return fail(Error::InvalidProgram, "instruction %zu: delegate %d out of range (%zu delegates)", pc,
                  d->delegate_index(), ctx.state->num_delegates);
    }
    out->kind = InstructionKind::Delegate;
    out->a = d->delegate_index();
    out->name = ctx.state->delegates[out->a].id;
    return argument_list(ctx, d->args(), pc, out);
  }
  return prepare_control(ctx, in, pc, chain_size, out);
}

// Fails with OperatorMissing listing every unresolved operator the method calls.
Error report_missing(const MethodState* s) {
  char list[384] = {};
  size_t used = 0, missing = 0;
  for (size_t i = 0; i < s->num_instructions; ++i) {
    const PreparedInstruction& in = s->instructions[i];
    if (in.kind != InstructionKind::Kernel || in.function != nullptr) continue;
    bool seen = false;  // the same operator (same name pointer) at an earlier instruction
    for (size_t j = 0; j < i && !seen; ++j) {
      const PreparedInstruction& earlier = s->instructions[j];
      seen = earlier.kind == InstructionKind::Kernel && earlier.function == nullptr && earlier.name == in.name;
    }
    if (seen) continue;
    ++missing;
#if !defined(EMBER_NO_MESSAGES)  // the list only feeds the message (diagnostics.h)
    const int w = snprintf(list + used, sizeof(list) - used, "%s%s", used ? ", " : "", in.name);
    if (w > 0) used = std::min(sizeof(list) - 1, used + size_t(w));
#else
    (void)used;
#endif
  }
  if (missing == 0) return Error::Ok;
  return fail(Error::OperatorMissing, "method '%s' needs %zu operator(s) with no registered kernel: %s",
              s->name, missing, list);
}

}  // namespace

Error resolve_instructions(LoadContext& ctx) {
  MethodState* s = ctx.state;
  MemoryAllocator* alloc = ctx.memory->method_allocator();
  OperatorTable ops;
  EMBER_TRY(build_operator_table(ctx, &ops));
  const auto* chains = ctx.plan->chains();
  s->num_chains = chains->size();
  EMBER_TRY(allocate_array(alloc, s->num_chains + 1, "chain starts", &s->chain_starts));
  size_t total = 0;
  for (size_t c = 0; c < s->num_chains; ++c) {
    const auto* instructions = chains->Get(flatbuffers::uoffset_t(c))->instructions();
    if (instructions == nullptr) return fail(Error::InvalidProgram, "chain %zu has no instructions list", c);
    s->chain_starts[c] = uint32_t(total);
    total += instructions->size();
  }
  s->chain_starts[s->num_chains] = uint32_t(total);
  s->num_instructions = total;
  EMBER_TRY(allocate_array(alloc, total, "instructions", &s->instructions));
  for (size_t c = 0; c < s->num_chains; ++c) {
    const auto* instructions = chains->Get(flatbuffers::uoffset_t(c))->instructions();
    for (size_t k = 0; k < instructions->size(); ++k) {
      const size_t pc = s->chain_starts[c] + k;
      const Error err = prepare(ctx, ops, instructions->Get(flatbuffers::uoffset_t(k)), pc,
                                instructions->size(), &s->instructions[pc]);
      if (err != Error::Ok) return annotate(err, "method '%s'", s->name);
    }
  }
  return report_missing(s);
}

}  // namespace ember::runtime::internal
