// Private to runtime/executor: casts between the opaque pointers public headers
// carry and the generated FlatBuffer types, plus small checked accessors.
// Only .cc files of this package include it (and with it the schema).
#pragma once

#include <cstddef>
#include <cstring>

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

// Element i of a vector of 8-byte scalars. The FlatBuffers verifier only
// checks a vector's 4-byte length prefix for alignment, so a hostile file may
// place int64/uint64/double elements misaligned: read them bytewise.
template <typename T>
inline T load_element(const flatbuffers::Vector<T>* v, size_t i) {
  T value;
  std::memcpy(&value, v->Data() + i * sizeof(T), sizeof(T));
  return value;
}

// The .pte ExecutionPlan's name or "" if absent.
inline const char* plan_name(const fb::ExecutionPlan* plan) {
  return plan->name() == nullptr ? "" : plan->name()->c_str();
}

}  // namespace ember::runtime::internal
