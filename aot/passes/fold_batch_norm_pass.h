// FoldBatchNormPass: folds an inference batch norm that follows a convolution with
// constant weights into the convolution's weight and bias.
//
// Before: %c = aten::convolution.default(input=%x, weight=%w, bias=%b or None, ...)
//         %y, %u1, %u2 = aten::_native_batch_norm_legit_no_training.default(
//                            input=%c, weight=%gamma, bias=%beta, running_mean=%mean,
//                            running_var=%var, momentum=m, eps=e)
// After:  %c = aten::convolution.default(input=%x, weight=%w', bias=%b', ...)   (uses of %y -> %c)
// with s = gamma / sqrt(var + eps) per output channel, w'[co] = w[co] * s[co] and
// b'[co] = (b[co] - mean[co]) * s[co] + beta[co] (b = 0 when the conv had none), computed in
// double and rounded to float once. The new bytes replace the constants of %w and of %b (or,
// when the conv had no bias, of %beta, which becomes the conv's bias); the pass only
// rewrites constants that no other node uses. It applies only to float32, non-transposed
// convolutions with static shapes whose output feeds nothing but the batch norm, whose
// weight, mean and var are constants, gamma/beta constants or absent (1 / 0), and whose
// other two outputs are unused; every other pattern is left as it is.
#pragma once

#include "aot/passes/pass.h"

namespace ember::aot {

class FoldBatchNormPass final : public Pass {
 public:
  const char* name() const override { return "fold_batch_norm"; }
  Error run(Graph& graph) const override;
};

}  // namespace ember::aot
