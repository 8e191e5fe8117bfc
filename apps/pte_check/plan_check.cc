// Checks of one ExecutionPlan: required fields (pte-format.md section 0 item 13),
// planned buffer sizes, inputs/outputs, operators, delegates and instructions.
#include "apps/pte_check/check_context.h"

#include <algorithm>

#include "runtime/executor/memory_budget.h"

namespace ember::aot::pte_check_internal {
namespace {

bool in_range(int64_t idx, size_t count) { return idx >= 0 && static_cast<uint64_t>(idx) < count; }

void check_index_list(CheckContext* ctx, const flatbuffers::Vector<int32_t>* list, size_t count,
                      const std::string& rule, const std::string& where) {
  if (list == nullptr) return;
  for (size_t k = 0; k < list->size(); ++k) {
    if (!in_range(list->Get(k), count)) {
      ctx->error(
          rule, where + " entry " + str(k),
          "value index " + std::to_string(list->Get(k)) + " out of range [0, " + str(count) + ")");
    }
  }
}

void check_delegates(CheckContext* ctx, const fb::ExecutionPlan* plan, const std::string& where) {
  size_t n_segments = ctx->program->segments() ? ctx->program->segments()->size() : 0;
  size_t n_inline =
      ctx->program->backend_delegate_data() ? ctx->program->backend_delegate_data()->size() : 0;
  for (size_t d = 0; d < plan->delegates()->size(); ++d) {
    const fb::BackendDelegate* del = plan->delegates()->Get(d);
    std::string loc = where + " delegate " + str(d);
    if (del->id() == nullptr || del->processed() == nullptr) {
      ctx->error("delegate.fields", loc, "id and processed are required");
      continue;
    }
    bool in_segment = del->processed()->location() == fb::DataLocation::SEGMENT;
    size_t count = in_segment ? n_segments : n_inline;
    if (del->processed()->index() >= count) {
      ctx->error("delegate.index", loc,
                 std::string(in_segment ? "SEGMENT" : "INLINE") + " index " +
                     str(del->processed()->index()) + " out of range, " + str(count) +
                     " available");
    }
    if (del->compile_specs() != nullptr) {
      for (const fb::CompileSpec* spec : *del->compile_specs()) {
        if (spec->key() == nullptr || spec->value() == nullptr) {
          ctx->error("delegate.compile_spec", loc, "a CompileSpec without key or value");
        }
      }
    }
  }
}

std::string op_key(const fb::Operator* op) {
  std::string key = op->name() ? op->name()->str() : "";
  if (op->overload() != nullptr && op->overload()->size() > 0) key += "." + op->overload()->str();
  return key;
}

void check_kernel_call(CheckContext* ctx, const fb::ExecutionPlan* plan, const fb::KernelCall* call,
                       const std::string& loc) {
  size_t n_values = plan->values()->size();
  size_t n_ops = plan->operators() ? plan->operators()->size() : 0;
  if (call->args() == nullptr)
    return ctx->error("instruction.args", loc, "KernelCall.args missing");
  check_index_list(ctx, call->args(), n_values, "instruction.value_index", loc + " arg");
  if (!in_range(call->op_index(), n_ops)) {
    return ctx->error(
        "instruction.op_index", loc,
        "op_index " + std::to_string(call->op_index()) + " out of range [0, " + str(n_ops) + ")");
  }
  std::string key = op_key(plan->operators()->Get(call->op_index()));
  auto it = ctx->options->kernel_arg_counts.find(key);
  if (it != ctx->options->kernel_arg_counts.end() && it->second != call->args()->size()) {
    ctx->error("instruction.arg_count", loc,
               key + " takes " + str(it->second) + " args (schema + return slot), got " +
                   str(call->args()->size()));
  }
}

void check_instruction(CheckContext* ctx, const fb::ExecutionPlan* plan, const fb::Instruction* in,
                       size_t n_instructions, const std::string& loc) {
  using A = fb::InstructionArguments;
  size_t n_values = plan->values()->size();
  if (in->instr_args() == nullptr || in->instr_args_type() == A::NONE) {
    ctx->error("instruction.args", loc, "instr_args is required");
    return;
  }
  auto check_value_index = [&](int64_t idx, const char* what) {
    if (!in_range(idx, n_values)) {
      ctx->error("instruction.value_index", loc,
                 std::string(what) + " " + std::to_string(idx) + " out of range [0, " +
                     str(n_values) + ")");
    }
  };
  switch (in->instr_args_type()) {
    case A::KernelCall:
      check_kernel_call(ctx, plan, in->instr_args_as_KernelCall(), loc);
      break;
    case A::DelegateCall: {
      const fb::DelegateCall* call = in->instr_args_as_DelegateCall();
      if (call->args() == nullptr)
        return ctx->error("instruction.args", loc, "DelegateCall.args missing");
      check_index_list(ctx, call->args(), n_values, "instruction.value_index", loc + " arg");
      if (!in_range(call->delegate_index(), plan->delegates()->size())) {
        ctx->error("instruction.delegate_index", loc,
                   "delegate_index " + std::to_string(call->delegate_index()) + " out of range");
      }
      break;
    }
    case A::MoveCall:
      check_value_index(in->instr_args_as_MoveCall()->move_from(), "move_from");
      check_value_index(in->instr_args_as_MoveCall()->move_to(), "move_to");
      break;
    case A::JumpFalseCall: {
      const fb::JumpFalseCall* jump = in->instr_args_as_JumpFalseCall();
      check_value_index(jump->cond_value_index(), "cond_value_index");
      if (!in_range(jump->destination_instruction(), n_instructions)) {
        ctx->error("instruction.destination", loc,
                   "destination " + std::to_string(jump->destination_instruction()) +
                       " outside the chain's " + str(n_instructions) + " instructions");
      }
      break;
    }
    case A::FreeCall: {
      int64_t idx = in->instr_args_as_FreeCall()->value_index();
      check_value_index(idx, "value_index");
      if (in_range(idx, n_values) &&
          plan->values()->Get(idx)->val_type() != fb::KernelTypes::Tensor) {
        ctx->error("instruction.free_type", loc, "FreeCall of a non-Tensor value");
      }
      break;
    }
    default:
      ctx->error("instruction.args", loc, "unknown instruction type");
  }
}

bool check_required(CheckContext* ctx, const fb::ExecutionPlan* plan, const std::string& where) {
  std::string missing;
  if (plan->name() == nullptr) missing += " name";
  if (plan->values() == nullptr) missing += " values";
  if (plan->inputs() == nullptr) missing += " inputs";
  if (plan->outputs() == nullptr) missing += " outputs";
  if (plan->chains() == nullptr) missing += " chains";
  if (plan->non_const_buffer_sizes() == nullptr) missing += " non_const_buffer_sizes";
  if (plan->delegates() == nullptr) missing += " delegates";
  if (!missing.empty()) ctx->error("plan.required", where, "missing:" + missing);
  if (plan->chains() != nullptr && plan->chains()->size() == 0) {
    ctx->error("plan.chains", where, "needs at least one chain");
  }
  return missing.empty();
}

}  // namespace

void check_plan(CheckContext* ctx, const fb::ExecutionPlan* plan, size_t plan_index) {
  std::string where = "plan " + str(plan_index);
  if (plan->name() != nullptr) where = "plan '" + plan->name()->str() + "'";
  if (!check_required(ctx, plan, where)) return;
  const auto* buffers = plan->non_const_buffer_sizes();
  if (buffers->size() == 0 || schema::load_element(buffers, 0) != 0) {
    ctx->warn("plan.buffer_placeholder", where,
              "non_const_buffer_sizes[0] should be the placeholder 0");
  }
  uint64_t total = 0, largest = 0;
  bool overflow = false;
  for (size_t b = 0; b < buffers->size(); ++b) {
    const int64_t size = schema::load_element(buffers, b);
    if (size < 0) {
      ctx->error("plan.buffer_size", where + " buffer " + str(b),
                 "size " + std::to_string(size) + " is negative");
      continue;
    }
    overflow = overflow || total + uint64_t(size) < total;
    total += uint64_t(size);
    largest = std::max(largest, uint64_t(size));
  }
  // Issue #33: a 728-byte program planning 15 GB (or 64 GB) got 0 warnings. The runtime's
  // hosts refuse a plan over runtime::kDefaultPlannedMemoryBudget unless raised.
  if (overflow || total > runtime::kDefaultPlannedMemoryBudget) {
    ctx->warn("plan.memory_budget", where,
              overflow ? std::string("planned buffers overflow 64 bits")
                       : "plans " + str(total) + " bytes (largest buffer " + str(largest) + ") in a " + str(ctx->size) +
                             "-byte file, over the runtime's default planned-memory budget of " +
                             str(runtime::kDefaultPlannedMemoryBudget) +
                             " bytes: executor_runner and Module refuse it unless the budget is raised "
                             "(--max_planned_memory_mb)");
  }
  for (size_t i = 0; i < plan->values()->size(); ++i) {
    check_value(ctx, plan, i, where + " value " + str(i));
  }
  check_index_list(ctx, plan->inputs(), plan->values()->size(), "plan.inputs", where + " input");
  check_index_list(ctx, plan->outputs(), plan->values()->size(), "plan.outputs", where + " output");
  if (plan->operators() != nullptr) {
    for (size_t k = 0; k < plan->operators()->size(); ++k) {
      const fb::Operator* op = plan->operators()->Get(k);
      if (op->name() == nullptr || op->overload() == nullptr) {
        ctx->error("plan.operator_fields", where + " operator " + str(k),
                   "name and overload must both be written (overload may be empty)");
      }
    }
  }
  check_delegates(ctx, plan, where);
  for (size_t c = 0; c < plan->chains()->size(); ++c) {
    const fb::Chain* chain = plan->chains()->Get(c);
    std::string chain_where = where + " chain " + str(c);
    if (chain->instructions() == nullptr) {
      ctx->error("plan.chain_instructions", chain_where, "instructions are required");
      continue;
    }
    size_t n = chain->instructions()->size();
    for (size_t k = 0; k < n; ++k) {
      check_instruction(ctx, plan, chain->instructions()->Get(k), n,
                        chain_where + " instruction " + str(k));
    }
  }
}

}  // namespace ember::aot::pte_check_internal
