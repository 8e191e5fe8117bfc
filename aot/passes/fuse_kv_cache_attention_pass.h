// FuseKvCacheAttentionPass: attention over an in-place-updated KV cache becomes ExecuTorch's
// fused LLM operator llama::custom_sdpa (kernels/portable/ops/llama.h), reading only the
// filled part of the cache.
//
// Runs in to_edge after functionalize and before the decompositions (it needs
// scaled_dot_product_attention whole), in the recipes that list it
// (Recipe::pre_decomposition_passes). Matches exactly what transformers'
// TorchExportableModuleForDecoderOnlyLM (static cache) writes in the training IR, per layer:
//
// Before:
//   %pos  : i64[S]        = add.Tensor(arange(S), %base)          # %base: i64[1], the start
//   %k_w  : f32[B,Hkv,T,D] = index_copy(%k_cache, 2, %pos, %k_new)  # or index_put(.., [None,None,%pos])
//   %v_w  : f32[B,Hkv,T,D] = index_copy(%v_cache, 2, %pos, %v_new)
//   %k    = reshape(expand(unsqueeze(%k_w, 2), [B,Hkv,G,T,D]), [B,H,T,D])   # GQA repeat, or %k_w
//   %mask = expand(le(unsqueeze^3(arange(T) [+ 0]) [1,1,1,T], unsqueeze^3(%pos') [1,1,S,1]))
//   %o    : f32[B,H,S,D] = scaled_dot_product_attention(%q, %k, %v, %mask, scale=c)
//   (%pos' = add.Tensor(arange(S), %base) with the same %base)
// After (the caches re-laid out as [B,T,Hkv,D]: mutable buffers only the program sees):
//   %start : SymInt = _local_scalar_dense(%base)
//   %k_w   : f32[B,T,Hkv,D] = index_copy(%k_cache, 1, %pos, permute(%k_new, [0,2,1,3]))
//   %v_w   : f32[B,T,Hkv,D] = index_copy(%v_cache, 1, %pos, permute(%v_new, [0,2,1,3]))
//   %a     : f32[B,S,H,D] = llama::custom_sdpa(permute(%q, [0,2,1,3]), %k_w, %v_w, %start,
//                                              None, 0.0, True, c)
//   %o = permute(%a, [0,2,1,3])   (a following transpose(1, 2) of %o reads %a directly)
//
// The mask "key j is seen by query i iff j <= start + i" is custom_sdpa's causal rule, and
// custom_sdpa reads cache positions [0, start + S) only. Anything else (another mask, dropout,
// is_causal with a mask, a cache read elsewhere, positions that are not arange + one start,
// non-float32 caches) is left exactly as it is.
#pragma once

#include "aot/passes/pass.h"

namespace ember::aot {

class FuseKvCacheAttentionPass final : public Pass {
 public:
  const char* name() const override { return "fuse_kv_cache_attention"; }
  Error run(Graph& graph) const override;
};

// Number of llama::custom_sdpa nodes in `graph` (tests check the rewrite fired).
int count_custom_sdpa(const Graph& graph);

}  // namespace ember::aot
