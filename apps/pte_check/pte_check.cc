// check_pte: runs the container, program-table and per-plan checks in order
// (see pte_check.h for the rule list).
#include "apps/pte_check/pte_check.h"

#include <cstring>
#include <set>

#include "apps/pte_check/check_context.h"

namespace ember::aot {

std::string PteViolation::to_string() const {
  return std::string(severity == PteSeverity::Error ? "error " : "warning ") + rule + " at " +
         location + ": " + message;
}

size_t count_errors(const std::vector<PteViolation>& violations) {
  size_t n = 0;
  for (const PteViolation& v : violations) n += v.severity == PteSeverity::Error;
  return n;
}

std::vector<PteViolation> check_pte(const uint8_t* data, size_t size,
                                    const PteCheckOptions& options) {
  using namespace pte_check_internal;
  std::vector<PteViolation> out;
  // The verifier checks alignment relative to the buffer start; work on a copy
  // whose start is aligned like a loaded program (alignof(max_align_t)).
  std::vector<std::max_align_t> aligned((size + sizeof(std::max_align_t) - 1) /
                                        sizeof(std::max_align_t));
  if (size > 0) std::memcpy(aligned.data(), data, size);
  CheckContext ctx;
  ctx.data = reinterpret_cast<const uint8_t*>(aligned.data());
  ctx.size = size;
  ctx.options = &options;
  ctx.out = &out;
  check_container(&ctx);
  if (ctx.program == nullptr) return out;
  if (ctx.program->execution_plan() == nullptr) {
    ctx.error("program.execution_plan", "program", "execution_plan is required");
    return out;
  }
  check_program_tables(&ctx);
  std::set<std::string> names;
  const auto* plans = ctx.program->execution_plan();
  for (size_t i = 0; i < plans->size(); ++i) {
    const fb::ExecutionPlan* plan = plans->Get(i);
    if (plan->name() != nullptr && !names.insert(plan->name()->str()).second) {
      ctx.warn("plan.duplicate_name", "plan " + str(i),
               "name '" + plan->name()->str() + "' is used by an earlier plan");
    }
    check_plan(&ctx, plan, i);
  }
  return out;
}

}  // namespace ember::aot
