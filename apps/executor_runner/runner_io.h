// executor_runner's inputs and outputs: building inputs from raw files (or
// ones), parsing --input_shapes, printing outputs the way upstream's runner
// does, writing them as raw files, and describing them as JSON.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "runtime/executor/method.h"

namespace ember::runtime {

// Owns input tensors and their bytes.
struct RunnerInputs {
  std::vector<std::vector<uint8_t>> bytes;
  std::vector<std::vector<int32_t>> sizes;
  std::vector<std::vector<uint8_t>> dim_orders;
  std::vector<std::vector<int32_t>> strides;
  std::vector<std::unique_ptr<Tensor>> tensors;
  std::vector<EValue> values;
};

// "1,3,192,256;8" -> {{1,3,192,256},{8}}; an empty entry is an empty vector
// (keep the declared shape). InvalidArgument naming the shape and dim on text that is not a
// number or a number outside [0, INT32_MAX].
Error parse_shapes(const std::string& text, std::vector<std::vector<int32_t>>* out);

// Splits "a,b,c" on `sep`.
std::vector<std::string> split(const std::string& text, char sep);

// How inputs without files are filled.
struct InputFill {
  bool random = false;  // --random_inputs: seeded values (below) instead of ones
  uint64_t seed = 0;    // --random_seed
};

// Builds every input of `method`: from `files` (raw bytes, scalars 8 bytes, bools 1 byte;
// or a ".npy" file, whose dtype must be the input's and whose shape must have its rank and
// fit its bounds, like --input_shapes) or, when `files` is empty, tensors of ones (random
// values with fill.random: floats uniform in [-1, 1), integers in [0, 10), bools 0/1, from
// a splitmix64 stream seeded by fill.seed) and the exported scalar values. `shapes[i]`,
// when non-empty, is input i's actual shape.
Error build_inputs(const Method& method, const std::vector<std::string>& files,
                   const std::vector<std::vector<int32_t>>& shapes, RunnerInputs* out,
                   const InputFill& fill = InputFill());

// "input 0: float32[1, 3] min -0.98 max 0.97" (non-tensors: the value), one line per input.
std::string describe_inputs(const RunnerInputs& inputs);

enum class PrintMode { None, Summary, All };

// Prints "OutputX <i>: <value>" lines on stdout.
void print_outputs(const Method& method, PrintMode mode);

// The files write_outputs() writes: "<base>-<i>.bin" for each tensor output i.
std::vector<std::string> output_paths(const Method& method, const std::string& base);

// Writes tensor output i to "<base>-<i>.bin", atomically (apps/common/atomic_file.h): all
// files reach their temporaries before the first rename, so a failure leaves every previous
// output intact; AccessFailed naming the file and the step.
Error write_outputs(const Method& method, const std::string& base);

// [{"kind":"Tensor","dtype":"float32","shape":[1,2]}, {"kind":"Int","value":3}, ...]
std::string outputs_json(const Method& method);

}  // namespace ember::runtime
