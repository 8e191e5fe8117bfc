// Comparing a quantized program with its float original on the calibration samples: the
// signal-to-quantization-noise ratio SQNR = 10 log10(sum(ref^2) / sum((ref - got)^2)) in dB
// and the largest absolute error, per output over all samples (the lower tool prints it at
// the end of an "-int8" lowering).
#pragma once

#include <string>
#include <vector>

#include "aot/ir/error.h"
#include "aot/ir/host_tensor.h"

namespace ember::aot {

struct TensorError {
  std::string name;
  double sqnr_db = 0;  // +inf when identical
  double max_abs_error = 0;
  int64_t elements = 0;
};

// Accumulates float32 `got` against `ref` (same shape) into `err`. InvalidArgument on a
// dtype or size mismatch.
Error accumulate_error(const HostTensor& ref, const HostTensor& got, double* signal,
                       double* noise, TensorError* err);

// Per output index over every sample: `ref[k][i]` against `got[k][i]`.
Result<std::vector<TensorError>> compare_outputs(const std::vector<std::vector<HostTensor>>& ref,
                                                 const std::vector<std::vector<HostTensor>>& got);

// "output 0: SQNR 38.21 dB, max error 0.00412 (4 samples x 40 elements)" lines.
std::string format_errors(const std::vector<TensorError>& errors, const std::string& indent);

}  // namespace ember::aot
