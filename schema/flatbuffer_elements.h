// Reading elements of FlatBuffer vectors that came from a file. The FlatBuffers verifier
// (2.0.8) checks only a vector's 4-byte length prefix for alignment, so a hostile .pte may
// place int64/uint64/double elements on a 4-byte boundary; Vector<T>::Get would then be a
// misaligned load (undefined behaviour; a fault on cores without unaligned 8-byte loads).
// Every reader of an untrusted .pte (the runtime, inspect, pte_check) reads them bytewise.
#pragma once

#include <cstddef>
#include <cstring>

#include "flatbuffers/flatbuffers.h"

namespace ember::schema {

// Element i of a vector of scalars, whatever its alignment. i < v->size().
template <typename T>
inline T load_element(const flatbuffers::Vector<T>* v, size_t i) {
  T value;
  std::memcpy(&value, v->Data() + i * sizeof(T), sizeof(T));
  return value;
}

}  // namespace ember::schema
