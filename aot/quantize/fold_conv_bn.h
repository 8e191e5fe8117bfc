// Folds eval-mode batch norms into the convolution before them in a training-IR graph, the
// way PT2E's prepare_pt2e does before annotating (torch.nn.utils.fusion.fuse_conv_bn_weights
// in float32: rsqrt(var + eps), w * (gamma * rsqrt), (b - mean) * rsqrt * gamma + beta), so
// the weights Ember observes are the ones PyTorch observes. Handles aten::conv1d/conv2d
// followed by aten::batch_norm (training=False) or _native_batch_norm_legit_no_training, when
// the convolution's output has no other user and the parameters are constants.
#pragma once

#include "aot/ir/graph.h"

namespace ember::aot {

// Number of batch norms folded.
Result<int> fold_conv_batch_norm(Graph& graph);

}  // namespace ember::aot
