// Seeded random factories (ATen out variants): rand.out fills `out` with uniform values in
// [0, 1), randn.out with standard normal values (Box-Muller), randperm.out with a random
// permutation of 0..n-1 (Fisher-Yates).
//
// Semantics (docs/decisions.md): not PyTorch's Mersenne-Twister stream, which cannot be
// reproduced bit for bit without its whole state machine, but a counter-based stream that is
// deterministic per seed. Element k of the process-wide stream for seed s is the k-th output
// of splitmix64 seeded with s (the same 64 bits on every machine); every call takes the next
// numel (rand) or 2 x numel (randn) positions of the stream, so two calls give different
// values and the same sequence of calls after set_random_seed(s) gives the same values.
// The default seed is 0. Calls from several threads take disjoint positions (an atomic
// counter), so values never repeat, but which call gets which depends on the order.
// Float and double: the top 24 / 53 bits of a position scaled by 2^-24 / 2^-53 (so never
// 1.0); Half and BFloat16 use 11 / 8 bits (exact in the type). randn computes in double.
// randperm takes n positions: step i (i = n-1 down to 1) swaps element i with element
// floor(u * (i + 1)), u the top 53 bits of position i scaled to [0, 1) (bias below 2^-40 for
// n < 2^13); any real dtype that holds n-1 exactly.
#pragma once

#include <cstdint>

#include "kernels/portable/util/boxing.h"
#include "runtime/core/tensor.h"
#include "runtime/kernel/kernel_runtime_context.h"

namespace ember::kernels::portable {

using runtime::KernelRuntimeContext;
using runtime::Tensor;

Tensor& rand_out(KernelRuntimeContext& ctx, IntList size, Tensor& out);
Tensor& randn_out(KernelRuntimeContext& ctx, IntList size, Tensor& out);
// randperm.out(SymInt n, *, Tensor(a!) out)
Tensor& randperm_out(KernelRuntimeContext& ctx, int64_t n, Tensor& out);

// Restarts the stream at position 0 of `seed` (as torch.manual_seed does for PyTorch's).
void set_random_seed(uint64_t seed);

}  // namespace ember::kernels::portable
