// A strict subset of Python's pickle, enough for torch.save of a state dict.
//
// Supports protocol 2-4 opcodes that torch.save emits (pt2-format.md §3.1): containers,
// ints, floats, strings, memo, GLOBAL, REDUCE of a fixed set of callables, and
// BINPERSID storage references. Recognized callables:
//   torch._utils._rebuild_tensor_v2(storage, offset, size, stride, requires_grad, hooks[, meta])
//   torch._utils._rebuild_parameter(tensor, requires_grad, hooks)
//   torch._utils._rebuild_parameter_with_state(tensor, requires_grad, hooks, state)
//   collections.OrderedDict()
// Anything else (other globals, BUILD, object construction) is Error::NotSupported; malformed
// or truncated streams are kInvalidExternalData. All objects live in an arena owned by
// the result, so reference cycles a hostile stream may build cannot leak.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "aot/ir/scalar_type.h"
#include "aot/ir/error.h"

namespace ember::aot {

struct PickleValue {
  enum class Kind {
    None,
    Bool,
    Int,
    Float,
    String,
    Bytes,
    Tuple,
    List,
    Dict,
    Global,
    Storage,
    Tensor,
    Mark
  };
  Kind kind = Kind::None;
  int64_t i = 0;  // kInt, kBool; kStorage: numel
  double f = 0;
  std::string s;  // kString, kBytes, kGlobal ("module.name"), kStorage: record key
  std::vector<const PickleValue*> items;                                // kTuple, kList
  std::vector<std::pair<const PickleValue*, const PickleValue*>> dict;  // kDict, in order
  // kStorage: element type; kTensor: tensor metadata plus the storage in items[0].
  ScalarType dtype = ScalarType::Undefined;
  std::vector<int64_t> sizes;
  std::vector<int64_t> strides;
  int64_t storage_offset = 0;
};

struct PickleResult {
  std::vector<std::unique_ptr<PickleValue>> arena;
  const PickleValue* root = nullptr;
};

// Unpickles `size` bytes. `what` names the stream in messages.
Result<std::unique_ptr<PickleResult>> unpickle(const uint8_t* data, size_t size,
                                                 const std::string& what);

// Element type of a legacy storage class name ("torch.FloatStorage" -> kFloat).
Result<ScalarType> storage_class_dtype(const std::string& qualified_name);

}  // namespace ember::aot
