// executor_runner --expected out0.bin,out1.npy --atol A --rtol R: checks each tensor output
// against a file the way numpy.allclose does (|got - expected| <= atol + rtol * |expected|;
// NaN matches NaN, an infinity matches the same infinity). A raw file must hold exactly the
// output's bytes; a .npy file must have its dtype and shape. Files are untrusted: named errors.
#pragma once

#include <string>
#include <vector>

#include "runtime/executor/method.h"

namespace ember::runtime {

struct OutputCheck {
  bool ok = true;            // every output within tolerance
  std::string report;        // one line per output: "output 0: ok (max |diff| 1.2e-07)" or the mismatch
};

// Checks outputs 0..files.size()-1 (an empty file name skips that output). Error for a file
// that cannot be used (missing, wrong size, dtype or shape, or more files than outputs);
// a numeric mismatch is not an Error but OutputCheck::ok == false.
Result<OutputCheck> check_outputs(const Method& method, const std::vector<std::string>& files, double atol,
                                  double rtol);

}  // namespace ember::runtime
