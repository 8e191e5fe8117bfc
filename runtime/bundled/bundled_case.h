// Running one bundled test case on a loaded Method: set_bundled_inputs() hands the
// case's inputs to the method, execute() is the caller's, then check_bundled_outputs()
// compares every output with the case's expected output.
//
//   BundledInputStorage storage;  // holds the input Tensors; outlives execute()
//   EMBER_TRY(set_bundled_inputs(method, bundled, suite, c, &storage));
//   EMBER_TRY(method.execute());
//   Result<BundledCaseResult> r = check_bundled_outputs(method, bundled, suite, c, tol);
//
// How outputs are compared (docs/profiling.md, "Bundled programs"; ExecuTorch's rule):
// dtype, sizes and dim order must match exactly; floating-point elements (Float, Double,
// Half, BFloat16) pass when |actual - expected| <= atol + rtol * |expected|, with NaN equal
// to NaN and infinities equal only to themselves; every other dtype (integers, Bool) must
// be equal element for element. Int/Bool outputs must be equal, Double outputs follow the
// float rule. The result reports the largest absolute error over all outputs.
//
// Nothing here allocates, throws or aborts. Input tensors are views: their data stays in
// the .bpte bytes (planned inputs are copied into the method's memory by set_input;
// unplanned ones are read in place, so the bytes must be writable-safe and aligned for the
// element type, which open() on 32-aligned bytes gives).
#pragma once

#include <cstddef>
#include <cstdint>

#include "runtime/bundled/bundled_program.h"
#include "runtime/core/tensor.h"
#include "runtime/executor/method.h"

namespace ember::runtime {

// upstream executor_runner's --bundleio_atol / --bundleio_rtol defaults.
struct BundledTolerance {
  double atol = 1e-2;
  double rtol = 1e-2;
};

// Caller-provided room for the input Tensors of one case (fixed capacity, no heap).
struct BundledInputStorage {
  static constexpr size_t kMaxInputs = 64;
  Tensor tensors[kMaxInputs];
  SizesType sizes[kMaxInputs][kMaxTensorDims];
  DimOrderType dim_orders[kMaxInputs][kMaxTensorDims];
  StridesType strides[kMaxInputs][kMaxTensorDims];
};

// Sets every input of `method` from case `test_case` of suite `suite`. InvalidArgument
// names the case and input when the counts differ, an input's kind or dtype does not fit,
// an input's data is misaligned, or the case has more than kMaxInputs inputs; set_input's
// own errors (shape outside the declared bounds, ...) are annotated the same way.
Error set_bundled_inputs(Method& method, const BundledProgram& bundled, size_t suite,
                         size_t test_case, BundledInputStorage* storage);

struct BundledCaseResult {
  bool passed = false;
  double max_abs_error = 0.0;  // over every element of every output (0 when none differ)
  size_t worst_output = 0;     // where max_abs_error is (or the first failing output)
  size_t worst_element = 0;
  size_t mismatched = 0;  // elements (or scalars) outside the tolerance
  // Set when an output cannot be compared at all: "output 0: dtype int32, expected float32".
  char reason[160] = {};
};

// Compares the method's outputs with the case's expected outputs (the rule above). An
// output that cannot be compared (count, kind, dtype, sizes, dim order differ) is a
// failed case with `reason` set, not an Error.
BundledCaseResult check_bundled_outputs(const Method& method, const BundledProgram& bundled,
                                        size_t suite, size_t test_case,
                                        const BundledTolerance& tolerance);

}  // namespace ember::runtime
