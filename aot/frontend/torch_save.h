// Reader for torch.save files holding a dict of tensors (state dicts, constants).
//
// A torch.save file is a zip (pt2-format.md §3.1): <root>/data.pkl (pickle), <root>/data/<key>
// (raw storage bytes, numel * itemsize), <root>/byteorder. read_torch_save() unpickles the
// dict and resolves every storage reference; the storage sizes must match the pickle.
#pragma once

#include <cstdint>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "aot/frontend/loaded_tensor.h"
#include "aot/frontend/read_budget.h"
#include "aot/ir/error.h"

namespace ember::aot {

// `what` names the payload in messages ("serialized_state_dict.pt"). An empty payload is
// an empty map. The top-level object must be a dict of str -> tensor. With `wanted`, only
// the tensors it names are returned and only their storages are read (the rest of the dict
// costs nothing); reads are charged to `budget` (none: a budget of its own).
Result<TensorMap> read_torch_save(const std::vector<uint8_t>& bytes, const std::string& what,
                                  const std::set<std::string>* wanted = nullptr,
                                  std::shared_ptr<ReadBudget> budget = nullptr);

}  // namespace ember::aot
