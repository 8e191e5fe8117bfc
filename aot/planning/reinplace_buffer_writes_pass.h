// ReinplaceBufferWritesPass (executorch dialect, after OutVariantPass): a mutable buffer whose
// new value is an out-variant write into the old one (index_put, index_copy, copy, add) is
// written in place, so a KV cache is neither copied per call nor written back at the end.
//
// Before: %ip = aten::index_put.out(self=%b_key_cache, indices=[None, None, %pos], values=%k)
//         ... %sdpa reads %ip ...          outputs: BUFFER_MUTATION %ip -> b_key_cache
// After:  %b_key_cache = aten::index_put.out(self=%b_key_cache, ..., values=%k)  [out = self]
//         ... %sdpa reads %b_key_cache ... outputs: BUFFER_MUTATION %b_key_cache (no write-back)
// Only when no node after the write reads the old buffer value and the buffer is no other
// argument of the write; the kernels of these ops skip their self -> out copy when both are one
// tensor. Anything else keeps the functional form and the emitter's write-back copy.
#pragma once

#include "aot/passes/pass.h"

namespace ember::aot {

class ReinplaceBufferWritesPass final : public Pass {
 public:
  const char* name() const override { return "reinplace_buffer_writes"; }
  Error run(Graph& graph) const override;
};

}  // namespace ember::aot
