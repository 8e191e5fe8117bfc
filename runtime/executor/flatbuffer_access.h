// Private to runtime/executor: casts between the opaque pointers public headers
// carry and the generated FlatBuffer types, plus small checked accessors.
// Only .cc files of this package include it (and with it the schema).
#pragma once

#include <cstddef>
#include <cstring>

#include "schema/flatbuffer_elements.h"
#include "schema/program_generated.h"

namespace ember::runtime::internal {

namespace fb = ::executorch_flatbuffer;

inline const fb::Program* as_program(const void* p) { return static_cast<const fb::Program*>(p); }
inline const fb::ExecutionPlan* as_plan(const void* p) {
  return static_cast<const fb::ExecutionPlan*>(p);
}

// Size of a possibly-absent FlatBuffer vector.
template <typename V>
inline size_t size_of(const V* v) {
  return v == nullptr ? 0 : v->size();
}

// Element i of a vector of 8-byte scalars, read bytewise (schema/flatbuffer_elements.h).
using ::ember::schema::load_element;

// The .pte ExecutionPlan's name or "" if absent.
inline const char* plan_name(const fb::ExecutionPlan* plan) {
  return plan->name() == nullptr ? "" : plan->name()->c_str();
}

}  // namespace ember::runtime::internal
