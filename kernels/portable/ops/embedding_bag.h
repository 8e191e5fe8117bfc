// _embedding_bag (nn.EmbeddingBag, DLRM-style recommenders): sums, means or maxima of
// weight rows over bags of indices, with the three auxiliary outputs ATen's CPU kernel returns.
#pragma once

#include "kernels/portable/util/boxing.h"
#include "runtime/core/tensor.h"
#include "runtime/kernel/kernel_runtime_context.h"

namespace ember::kernels::portable {

// _embedding_bag.out(weight [N, D], indices [L], offsets [B or B+1], scale_grad_by_freq,
// mode (0 sum, 1 mean, 2 max), sparse, per_sample_weights [L]? (sum only),
// include_last_offset, padding_idx (< 0: none), *, out0, out1, out2, out3).
// Bag b holds indices [offsets[b], offsets[b+1]) (the last bag ends at L unless
// include_last_offset); indices equal to padding_idx are skipped; an empty bag gives zeros.
// out0 [B, D] the reduction; as ATen's CPU kernel: out1 (offset2bag) the bag of every index,
// or empty for a float/half/bfloat16 sum without padding_idx (ATen's fast path); out2
// (bag_size) the counted indices per bag for mean and max, zeros for sum; out3 (max_indices)
// [B, D] the row index that gave each maximum (the first one), bag_size for mean, zeros [B]
// for sum. out1..out3 have the dtype of indices (int32 or int64, same as offsets).
void embedding_bag_out(runtime::KernelRuntimeContext& ctx, const runtime::Tensor& weight,
                       const runtime::Tensor& indices, const runtime::Tensor& offsets,
                       bool scale_grad_by_freq, int64_t mode, bool sparse,
                       const runtime::Tensor* per_sample_weights, bool include_last_offset,
                       int64_t padding_idx, runtime::Tensor& out0, runtime::Tensor& out1,
                       runtime::Tensor& out2, runtime::Tensor& out3);

}  // namespace ember::kernels::portable
