// ExecuTorch's LLM custom operators (namespace `llama`), with upstream's names and semantics so
// `.pte` files from upstream's LLM export flow run here (issue #31):
//   llama::update_cache.out(value [B, S, H, D], cache [B, T, H, D] (mutated), start_pos, out)
//     cache[:, start_pos : start_pos + S] = value; `out` is a placeholder (upstream returns one).
//   llama::custom_sdpa.out(query [B, S, Hq, D], key_cache, value_cache [B, T, Hkv, D], start_pos,
//                          attn_mask?, dropout_p, is_causal, scale?, out [B, S, Hq, D])
//     attention of the S new queries (positions start_pos..start_pos+S-1) over the FILLED part
//     of the caches only, positions [0, start_pos + S): causal when is_causal (query i sees
//     keys <= start_pos + i); Hq = G * Hkv (query head h reads kv head h / G); scale defaults
//     to 1/sqrt(D). Entries past start_pos + S are never read. attn_mask and dropout are not
//     supported (NotSupported), as in upstream's decode path. Inner loops are vectorised: the
//     q.k dot products in vector-extension lanes, the softmax on vec_math's exp, the weighted
//     sum of values as a loop over the head dim. Scores take `start_pos + S` floats of temp.
#pragma once

#include <optional>

#include "kernels/portable/util/boxing.h"
#include "runtime/core/tensor.h"
#include "runtime/kernel/kernel_runtime_context.h"

namespace ember::kernels::portable {

using runtime::KernelRuntimeContext;
using runtime::Tensor;

Tensor& llama_update_cache_out(KernelRuntimeContext& ctx, const Tensor& value, Tensor& cache,
                               int64_t start_pos, Tensor& out);
Tensor& llama_custom_sdpa_out(KernelRuntimeContext& ctx, const Tensor& query,
                              const Tensor& key_cache, const Tensor& value_cache, int64_t start_pos,
                              const Tensor* attn_mask, double dropout_p, bool is_causal,
                              std::optional<double> scale, Tensor& out);

}  // namespace ember::kernels::portable
