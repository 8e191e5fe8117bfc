// The torchvision classifiers of issue #20 (64x64 inputs, random weights, ../large_fixtures/pt2
// written by refgen/fixtures/generate_pt2.py --large-out; each test skips when its files are
// absent): lowered with the "xnnpack" recipe from every torch version present, each whole in
// one partition, and matching PyTorch (check_fixtures).
#include <gtest/gtest.h>

#include "tests/xnnpack_aot/xnnpack_fixture_check.h"

namespace ember::testing {
namespace {

// Hardswish/hardsigmoid (int64 3 and 6, cast to f32 by the recipe's transform stage): whole.
TEST(XnnpackClassifiersTest, MobileNetV3Small) { check_large_model("mobilenet_v3_small", 1); }
// split_with_sizes (channel split, delegate-internal static slices) and channel shuffle: whole.
TEST(XnnpackClassifiersTest, ShuffleNetV2) { check_large_model("shufflenet_v2_x0_5", 1); }
// More torchvision classifiers at 64x64 (issue #20), each whole in one partition.
TEST(XnnpackClassifiersTest, MobileNetV3Large) { check_large_model("mobilenet_v3_large", 1); }
TEST(XnnpackClassifiersTest, EfficientNetB0) { check_large_model("efficientnet_b0", 1); }  // SiLU as x * sigmoid(x)
TEST(XnnpackClassifiersTest, RegNetX400mf) { check_large_model("regnet_x_400mf", 1); }
TEST(XnnpackClassifiersTest, MnasNet05) { check_large_model("mnasnet0_5", 1); }
TEST(XnnpackClassifiersTest, GoogLeNet) { check_large_model("googlenet", 1); }  // max_pool2d ceil_mode, cat of 4
// Dense blocks concatenate up to 25 tensors: chained delegate-internal concatenates.
TEST(XnnpackClassifiersTest, DenseNet121) { check_large_model("densenet121", 1); }
// ConvNeXt's 7x7 depthwise convolutions (49 taps; XNNPACK 2024-11's depthwise kernels stop at
// 25) are four quadrant convolutions plus adds each; as_strided stays portable: 2 partitions.
TEST(XnnpackClassifiersTest, ConvNextTinyCfg) { check_large_model("convnext_tiny_cfg", 2); }

}  // namespace
}  // namespace ember::testing
