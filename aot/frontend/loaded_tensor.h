// A tensor read from a weights payload, before it is attached to a graph value.
//
// Both weight layouts (torch.save pickles and the PT2 archive's raw storages) produce
// LoadedTensors: a shared storage (several tensors may view one storage: tied weights)
// plus size, stride and offset in elements. contiguous_bytes() checks that the view lies
// inside the storage and copies its elements out in C-contiguous order.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "aot/ir/scalar_type.h"
#include "aot/ir/error.h"

namespace ember::aot {

struct LoadedTensor {
  ScalarType dtype = ScalarType::Undefined;
  std::vector<int64_t> sizes;
  std::vector<int64_t> strides;
  int64_t storage_offset = 0;
  std::shared_ptr<const std::vector<uint8_t>> storage;  // whole storage, little-endian
  std::string origin;  // "serialized_state_dict.pt:data/3" for messages
};

// Name (state-dict FQN) -> tensor.
using TensorMap = std::map<std::string, LoadedTensor>;

// Elements of `t` in C-contiguous order. kInvalidExternalData (naming `what`) if sizes
// or strides are negative, the view reaches outside the storage, sizes overflow, or the
// result would be implausibly large (over 16 GiB, or over 256 MiB and 64x the storage).
Result<std::vector<uint8_t>> contiguous_bytes(const LoadedTensor& t, const std::string& what);

}  // namespace ember::aot
