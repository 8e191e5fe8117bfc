// Internal to the .pte checker: the state shared by its parts (the container
// facts found in the header, the verified Program, the violation list) and the
// entry points of each part.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "apps/pte_check/pte_check.h"
#include "schema/flatbuffer_elements.h"
#include "schema/program_generated.h"

namespace ember::aot::pte_check_internal {

namespace fb = executorch_flatbuffer;

struct CheckContext {
  const uint8_t* data = nullptr;
  size_t size = 0;
  const PteCheckOptions* options = nullptr;
  std::vector<PteViolation>* out = nullptr;

  // Container facts (check_container).
  bool has_header = false;
  uint32_t header_length = 0;
  uint64_t program_size = 0;
  uint64_t segment_base = 0;
  uint64_t segment_data_size = 0;  // 0 for 24-byte headers
  const fb::Program* program = nullptr;

  void error(const std::string& rule, const std::string& location, const std::string& message) {
    out->push_back({PteSeverity::Error, rule, location, message});
  }
  void warn(const std::string& rule, const std::string& location, const std::string& message) {
    out->push_back({PteSeverity::Warning, rule, location, message});
  }
};

// Header and FlatBuffer verification; sets ctx->program when it can go on.
void check_container(CheckContext* ctx);
// Program-level tables: segments, constants, mutable data, named data, inline data.
void check_program_tables(CheckContext* ctx);
// One execution plan, including its values and instructions.
void check_plan(CheckContext* ctx, const fb::ExecutionPlan* plan, size_t plan_index);
// One EValue of a plan.
void check_value(CheckContext* ctx, const fb::ExecutionPlan* plan, size_t index,
                 const std::string& where);

inline std::string str(uint64_t v) { return std::to_string(v); }

}  // namespace ember::aot::pte_check_internal
