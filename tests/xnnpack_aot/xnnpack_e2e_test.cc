// End-to-end: the committed fixture models (tests/fixtures/pt2; mobilenet_v2 from
// large_fixtures when present) through check_fixtures (xnnpack_fixture_check.h): lowered with
// the "xnnpack" recipe, run by Ember's runtime, compared with PyTorch. The large torchvision
// classifiers are in xnnpack_classifiers_test.
#include <gtest/gtest.h>

#include "tests/xnnpack_aot/xnnpack_fixture_check.h"

namespace ember::testing {
namespace {

void check_model(const std::string& model) {
  if (check_fixtures(model + ".core_aten.torch2_6") == 0) GTEST_SKIP() << model << ": fixture not found";
}

TEST(XnnpackE2eTest, Mlp) { check_model("mlp"); }
TEST(XnnpackE2eTest, ConvBnRelu) { check_model("conv_bn_relu"); }
TEST(XnnpackE2eTest, TransformerEncoderLayer) { check_model("transformer_encoder_layer"); }
TEST(XnnpackE2eTest, Squeezenet) { check_model("squeezenet1_1"); }
TEST(XnnpackE2eTest, MobileNetV2) { check_model("mobilenet_v2"); }
// Committed transformer / U-Net fixtures with the partition count each torch version's export
// reaches. The encoder layers are whole, core ATen's _safe_softmax (bool eq/any/logical_not/
// where) included; the masked one keeps its bool-mask -> float-mask conversions (where,
// full_like, scalar_tensor on the bool input and the causal buffer) on the portable kernels,
// ahead of the one delegate: XNNPACK has no bool datatype.
void check_committed(const std::string& model, int partitions_torch2_6, int partitions_torch2_14) {
  EXPECT_EQ(check_fixtures(model + ".core_aten.torch2_6", partitions_torch2_6), 1);
  EXPECT_EQ(check_fixtures(model + ".core_aten.torch2_14", partitions_torch2_14), 1);
}
TEST(XnnpackE2eTest, TransformerEncoderLayerPartitions) { check_committed("transformer_encoder_layer", 1, 1); }
TEST(XnnpackE2eTest, TransformerEncoderMasked) { check_committed("transformer_encoder_masked", 1, 1); }
TEST(XnnpackE2eTest, VitBlock) { check_committed("vit_block", 1, 1); }  // gelu, layer_norm, cat, expand
// torch 2.14 keeps upsample_nearest2d / upsample_bilinear2d (one partition); torch 2.6's
// core ATen decomposes them into int64 index arithmetic and index.Tensor gathers (11
// partitions in export order; 4 since to_backend groups the index arithmetic, which depends
// only on shapes and constants, ahead of the delegated runs; 3 since a float32 _to_copy of a
// float32 tensor is its input, RemoveIdentityCopyPass).
TEST(XnnpackE2eTest, TinyUnet) { check_committed("tiny_unet", 3, 1); }

// Hugging Face transformers (issue #30; torch 2.14 core ATen, GPT-2's training IR too). The
// shape-only parts of their attention masks are folded at lowering (FoldShapeMasksPass); what
// depends on the attention_mask input (index, bitwise_and, where on bool) stays on the portable
// kernels, and the summary gives the reason for each node left out. Those nodes depend only on
// the inputs, so to_backend runs them ahead of the delegate (to_backend_pass.h) and BERT's
// encoder is one partition (5 in export order; the external training IR 5 -> 1, its boolean
// SDPA masks becoming one additive bias each). GPT-2's tanh GELU has pow(x, 3), now lowered as
// square times x: its core ATen is one partition too (4 before), its training IR 3 (6 before).
TEST(XnnpackE2eTest, HuggingFaceBert) {
  EXPECT_EQ(check_fixtures("hf_bert.core_aten.torch2_14", 1), 1);
}
// GPT-2's lm_head shares its matrix with the token embedding: the tied linear stays outside
// the delegate so the matrix is stored once (TiedLinearPass). It is the last node and reads the
// N-D activation itself (linear_views.h): one partition (2 while the view of its output was
// one more; the training IR 4 before RemoveIdentityCopyPass).
TEST(XnnpackE2eTest, HuggingFaceGpt2) {
  EXPECT_EQ(check_fixtures("hf_gpt2.core_aten.torch2_14", 1), 1);
  EXPECT_EQ(check_fixtures("hf_gpt2.training_ir.torch2_14", 1), 1);
}

// Issue #30's broader corpus (refgen/fixtures/pt2_model_zoo.py), with the partition count
// the xnnpack recipe reaches; every node left out has a reason in the summary (checked).
// Recurrent nets: torch's core ATen export unrolls them (GRU over 98 steps: 1,778 nodes), and
// Ember's decomposition of the training IR's gru.input / lstm.input does the same
// (decomp_rnn.cc); every step delegates but the initial state's full/zeros: one partition,
// one delegate call per run.
void check_zoo(const std::string& model, int partitions, bool torch2_6 = true) {
  for (const char* v : {".core_aten.torch2_14", ".training_ir.torch2_14", ".core_aten.torch2_6",
                        ".training_ir.torch2_6"}) {
    const std::string id = model + v;
    if (!torch2_6 && id.find("torch2_6") != std::string::npos) continue;
    EXPECT_EQ(check_fixtures(id, partitions), 1) << id;
  }
}
TEST(XnnpackE2eTest, GruKeywordSpotter) { check_zoo("gru_kws", 1); }
TEST(XnnpackE2eTest, Lstm) { check_zoo("lstm_2layer", 1); }
// nn.Unfold/nn.Fold (im2col/col2im) stay on the portable kernels between delegated runs.
TEST(XnnpackE2eTest, FoldVit) { check_zoo("fold_vit", -1); }
TEST(XnnpackE2eTest, DetrStyle) { check_zoo("detr_tiny", -1); }
// XNNPACK has 2-D convolutions only: the 3-D ones run on the portable kernels.
TEST(XnnpackE2eTest, VideoResNet) { check_zoo("video_resnet_tiny", -1); }
TEST(XnnpackE2eTest, DeepLabV3) { check_zoo("deeplabv3_tiny", -1); }
TEST(XnnpackE2eTest, LrAspp) { check_zoo("lraspp_tiny", -1); }
// Whisper's two 1-D convolutions stay portable (XNNPACK 1-D convs are not lowered as 2-D ones
// yet): 2 partitions. T5's decoder step with a static cache: torch 2.14 only (transformers).
TEST(XnnpackE2eTest, WhisperEncoder) { check_zoo("hf_whisper_encoder", 2, false); }
TEST(XnnpackE2eTest, T5DecoderWithCache) { check_zoo("hf_t5_decoder_cache", -1, false); }

// torch.cond (docs/aot.md "Control flow"): the partitioner delegates inside the branch bodies;
// the cond markers (JumpFalseCall / MoveCall) and the bool predicate stay on the portable
// side. cond_branch: Linear+ReLU+mul (true), sigmoid+sub (false), the add after the cond;
// nested_cond: mul (inner true), tanh (inner false), add (outer true), neg (outer false).
// Every case takes a different path; both dialects, both torch versions.
void check_cond(const std::string& model, int partitions) {
  for (const char* v : {".core_aten.torch2_6", ".core_aten.torch2_14", ".training_ir.torch2_6",
                        ".training_ir.torch2_14"}) {
    EXPECT_EQ(check_fixtures(model + v, partitions), 1) << model << v;
  }
}
TEST(XnnpackE2eTest, CondBranch) { check_cond("cond_branch", 3); }
TEST(XnnpackE2eTest, NestedCond) { check_cond("nested_cond", 4); }
// while_loop: the body (mul, Linear, add) and the loop test (abs) delegate; copy.out of the
// loop state, sum and the bool lt stay portable. Cases run 0, 1, 3 and 7 iterations.
// A SymBool predicate (x.shape[0] > 4, dynamic batch): sym_size and executorch_prim::gt compute a
// Bool EValue that JumpFalseCall reads; cases at batch 6 (true), 2 and 1 (false).
TEST(XnnpackE2eTest, CondOnShape) { check_cond("cond_on_shape", -1); }
TEST(XnnpackE2eTest, WhileLoop) { check_cond("while_loop", -1); }
// map (a counted loop over dim 0): the body delegates (map_rows: the Linear and relu+add, 2
// partitions; map_dynamic: cos*w and the +1 after the loop), the row select at the loop
// counter (a run-time index), sum, the counter's prim ops and et_copy_index stay portable.
// map_dynamic (rows 3, 1, 16) only from torch 2.14: torch 2.6 cannot export it (decisions).
TEST(XnnpackE2eTest, MapRows) { check_cond("map_rows", 2); }
TEST(XnnpackE2eTest, MapDynamic) {
  EXPECT_EQ(check_fixtures("map_dynamic.core_aten.torch2_14", 2), 1);
  EXPECT_EQ(check_fixtures("map_dynamic.training_ir.torch2_14", 2), 1);
}

// Dynamic shapes (docs/dynamic_shapes.md): delegated at their upper bounds (before: 3 of 8 MLP nodes in 3 partitions), re-planned per input
// shape by the runtime half; every reference shape in turn on one loaded program. The
// transformer keeps its two-dynamic-dim views ([8, s, s]), the q/k/v selects, and the
// _safe_softmax guard on the portable kernels. The input projection, bmm of a dynamic-batch
// expand of the weight, is one mm since decision 122 (7 partitions before, 6 then; 5 since
// to_backend groups the portable nodes that depend only on inputs ahead of the delegate).
TEST(XnnpackE2eTest, DynamicMlp) { check_committed("mlp_dynamic_batch", 1, 1); }
TEST(XnnpackE2eTest, DynamicTransformer) { check_committed("transformer_dynamic_seq", 5, 5); }

// Every other committed fixture (both dialects and torch versions): whatever the xnnpack
// recipe delegates must still match PyTorch.
TEST(XnnpackE2eTest, AllCommittedFixtures) { EXPECT_GT(check_fixtures(""), 0); }

// The shared corpus, when present.
TEST(XnnpackE2eTest, SharedCorpus) {
  if (check_fixtures("shared:") == 0) GTEST_SKIP() << "shared corpus not found";
}

}  // namespace
}  // namespace ember::testing
