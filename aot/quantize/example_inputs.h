// The example inputs torch.export.save stores in a .pt2 (serialized_example_inputs.pt, or
// data/sample_inputs/model.pt in the PT2 archive of torch >= 2.6: a
// torch.save of (args, kwargs)), as one calibration sample: the tensors of args, flattened
// in order, made C-contiguous. The "-int8" recipes calibrate on it when the user gives no
// sample (with a warning: one sample is a weak calibration).
#pragma once

#include <string>
#include <vector>

#include "aot/ir/error.h"
#include "aot/ir/host_tensor.h"

namespace ember::aot {

// NotFound when the file has no example inputs; NotSupported for keyword inputs.
Result<std::vector<HostTensor>> read_example_inputs(const std::string& pt2_path);

}  // namespace ember::aot
