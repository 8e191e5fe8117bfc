// Golden tests for the inspect summaries and the graph printer on real fixtures. The
// expected text was checked by hand against the files' JSON (node arguments exactly as
// exported, defaults omitted) and the manifest (shapes, dtypes, symbol ranges); sizes:
// conv_bn_relu has 240 parameter elements (960 B) and buffers 8 + 8 float32 + 1 int64 (72 B).
#include "apps/inspect/pt2_summary.h"

#include <gtest/gtest.h>

#include "aot/frontend/pt2_reader.h"
#include "aot/ir/printer.h"
#include "tests/support/shared_fixtures.h"

namespace ember::aot {
namespace {

Result<Graph> read_fixture(const std::string& file) {
  std::string dir = ember::testing::shared_dir();
  std::vector<uint8_t> bytes;
  if (!ember::testing::read_file(dir + "/fixtures/pt2/generated/" + file, &bytes)) {
    return not_found(file);
  }
  return read_pt2_buffer(bytes.data(), bytes.size(), file);
}

TEST(Pt2SummaryTest, AddMulText) {
  if (ember::testing::shared_dir().empty()) GTEST_SKIP() << ember::testing::skip_message();
  auto g = read_fixture("add_mul.core_aten.torch2_6.pt2");
  ASSERT_TRUE(g.ok()) << format_error(g.error());
  const char* expected =
      "file: add_mul.core_aten.torch2_6.pt2\n"
      "  layout legacy_zip, schema 8.2, torch 2.6.0+debian, dialect ATEN\n"
      "inputs:\n"
      "  a : f32[2, 3]\n"
      "  b : f32[2, 3]\n"
      "outputs:\n"
      "  add : f32[2, 3]\n"
      "ops (2 nodes):\n"
      "  1  aten::add.Tensor\n"
      "  1  aten::mul.Tensor\n"
      "state:\n"
      "  parameters: 0 tensors, 0 elements, 0 bytes\n"
      "  buffers: 0 tensors, 0 elements, 0 bytes\n"
      "  constants: 0 tensors, 0 elements, 0 bytes\n"
      "graph:\n"
      "  %a : f32[2, 3] = input USER_INPUT\n"
      "  %b : f32[2, 3] = input USER_INPUT\n"
      "  %mul : f32[2, 3] = aten::mul.Tensor(self=%a, other=%b)  # gen_fixtures.py:86\n"
      "  %add : f32[2, 3] = aten::add.Tensor(self=%mul, other=%a)  # gen_fixtures.py:86\n"
      "  output %add USER_OUTPUT\n";
  EXPECT_EQ(summarize_pt2_text(g.get(), true), expected);
}

TEST(Pt2SummaryTest, ConvBnReluTrainingIrGraphGolden) {
  if (ember::testing::shared_dir().empty()) GTEST_SKIP() << ember::testing::skip_message();
  auto g = read_fixture("conv_bn_relu.training_ir.torch2_6.pt2");
  ASSERT_TRUE(g.ok()) << format_error(g.error());
  const char* expected =
      "graph (schema 8.2, torch 2.6.0+debian, legacy_zip)\n"
      "  %p_conv_weight : f32[8, 3, 3, 3] = input PARAMETER 'conv.weight' const 864 B\n"
      "  %p_conv_bias : f32[8] = input PARAMETER 'conv.bias' const 32 B\n"
      "  %p_bn_weight : f32[8] = input PARAMETER 'bn.weight' const 32 B\n"
      "  %p_bn_bias : f32[8] = input PARAMETER 'bn.bias' const 32 B\n"
      "  %b_bn_running_mean : f32[8] = input BUFFER 'bn.running_mean' const 32 B\n"
      "  %b_bn_running_var : f32[8] = input BUFFER 'bn.running_var' const 32 B\n"
      "  %b_bn_num_batches_tracked : i64[] = input BUFFER 'bn.num_batches_tracked' const 8 B\n"
      "  %x : f32[1, 3, 16, 16] = input USER_INPUT\n"
      "  %conv2d : f32[1, 8, 16, 16] = aten::conv2d.default(input=%x, weight=%p_conv_weight, "
      "bias=%p_conv_bias, stride=[1, 1], padding=[1, 1])  # gen_fixtures.py:104\n"
      "  %batch_norm : f32[1, 8, 16, 16] = aten::batch_norm.default(input=%conv2d, "
      "weight=%p_bn_weight, bias=%p_bn_bias, running_mean=%b_bn_running_mean, "
      "running_var=%b_bn_running_var, training=False, momentum=0.1, eps=1e-05, "
      "cudnn_enabled=True)  # gen_fixtures.py:104\n"
      "  %relu : f32[1, 8, 16, 16] = aten::relu.default(self=%batch_norm)  # gen_fixtures.py:104\n"
      "  output %relu USER_OUTPUT\n";
  EXPECT_EQ(print_graph(g.get()), expected);
  std::string json = summarize_pt2_json(g.get(), false);
  EXPECT_NE(json.find("\"elements\": 240,\n    \"bytes\": 960"), std::string::npos) << json;
  EXPECT_NE(json.find("\"elements\": 17,\n    \"bytes\": 72"), std::string::npos) << json;
}

TEST(Pt2SummaryTest, DynamicBatchJson) {
  if (ember::testing::shared_dir().empty()) GTEST_SKIP() << ember::testing::skip_message();
  auto g = read_fixture("mlp_dynamic_batch.core_aten.torch2_6.pt2");
  ASSERT_TRUE(g.ok()) << format_error(g.error());
  std::string json = summarize_pt2_json(g.get(), false);
  EXPECT_NE(json.find("\"shape\": [\n        \"s0\",\n        784\n      ]"), std::string::npos)
      << json;
  EXPECT_NE(json.find("\"s0\": [\n      1,\n      64\n    ]"), std::string::npos) << json;
  std::string text = summarize_pt2_text(g.get(), false);
  EXPECT_NE(text.find("  input : f32[s0, 784]\n"), std::string::npos) << text;
  EXPECT_NE(text.find("symbols:\n  s0 in [1, 64]\n"), std::string::npos) << text;
}

}  // namespace
}  // namespace ember::aot
