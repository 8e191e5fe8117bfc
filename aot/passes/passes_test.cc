// Unit tests of the smaller passes on hand-made graphs (expected results by hand):
// FunctionalizePass, OpSetCheckPass, ScalarToTensorPass, RemoveAssertsPass, DeadCodePass,
// OutVariantPass and the PassPipeline hooks (MemoryPlanningPass: aot/planning).
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstring>
#include <fstream>

#include "aot/ir/printer.h"
#include "aot/ir/testing/graph_builder.h"
#include "aot/passes/dead_code_pass.h"
#include "aot/passes/functionalize_pass.h"
#include "aot/passes/op_set_check_pass.h"
#include "aot/passes/out_variant_pass.h"
#include "aot/passes/pipeline.h"
#include "aot/passes/quantized_op_check_pass.h"
#include "aot/passes/scalar_to_tensor_pass.h"

namespace ember::aot {
namespace {

using testing::GraphBuilder;
using testing::print_body;

TEST(FunctionalizePassTest, InPlaceOpBecomesFunctionalAndLaterReadsSeeIt) {
  GraphBuilder b;
  ValueId x = b.input("x", {4});
  ValueId n = b.op("aten::neg.default", {{"self", x}}, "neg", {4});
  b.op("aten::relu_.default", {{"self", n}}, "relu_", {4});
  b.output(b.op("aten::add.Tensor", {{"self", n}, {"other", x}}, "add", {4}));
  Graph g = b.take();
  ASSERT_EQ(FunctionalizePass().run(g), Error::Ok);
  EXPECT_EQ(print_body(g),
            "%neg : f32[4] = aten::neg.default(self=%x)\n"
            "%relu_ : f32[4] = aten::relu.default(self=%neg)\n"
            "%add : f32[4] = aten::add.Tensor(self=%relu_, other=%x)\n");
}

TEST(FunctionalizePassTest, InPlaceOnBufferBecomesBufferMutation) {
  GraphBuilder b;
  ValueId s = b.parameter("steps", {1}, {0.f}, InputKind::Buffer);
  ValueId x = b.input("x", {1});
  ValueId a = b.op("aten::add_.Tensor", {{"self", s}, {"other", x}}, "add_", {1});
  b.output(b.op("aten::mul.Tensor", {{"self", s}, {"other", x}}, "mul", {1}));
  Graph g = b.take();
  ASSERT_EQ(FunctionalizePass().run(g), Error::Ok);
  ASSERT_EQ(g.outputs().size(), 2u);
  EXPECT_EQ(g.signature().outputs[0].kind, OutputKind::BufferMutation);
  EXPECT_EQ(g.signature().outputs[0].target, "steps");
  EXPECT_EQ(g.outputs()[0].value(), a);
  EXPECT_EQ(g.nodes()[1].inputs[0].arg.value(), a);  // mul reads the new value
}

// Swin's mask building, mask[0:2, 1:3] = v: fill_ on a slice of a slice of a fresh tensor.
// The fill becomes functional and is scattered back through both slices (innermost first);
// the later read of the base reads the scattered value.
TEST(FunctionalizePassTest, InPlaceThroughSlicesIsScatteredBack) {
  GraphBuilder b;
  ValueId x = b.input("x", {4, 4});
  ValueId v = b.input("v", {});
  ValueId z = b.op("aten::neg.default", {{"self", x}}, "base", {4, 4});
  ValueId s0 = b.op("aten::slice.Tensor", {{"self", z}}, "slice_0", {2, 4},
                    {{"dim", Argument::integer(0), false}, {"start", Argument::integer(0), false},
                     {"end", Argument::integer(2), false}});
  ValueId s1 = b.op("aten::slice.Tensor", {{"self", s0}}, "slice_1", {2, 2},
                    {{"dim", Argument::integer(1), false}, {"start", Argument::integer(1), false},
                     {"end", Argument::integer(3), false}});
  b.op("aten::fill_.Tensor", {{"self", s1}, {"value", v}}, "fill_", {2, 2});
  b.output(b.op("aten::add.Tensor", {{"self", z}, {"other", x}}, "add", {4, 4}));
  Graph g = b.take();
  ASSERT_EQ(FunctionalizePass().run(g), Error::Ok);
  EXPECT_EQ(print_body(g),
            "%base : f32[4, 4] = aten::neg.default(self=%x)\n"
            "%slice_0 : f32[2, 4] = aten::slice.Tensor(self=%base, dim=0, start=0, end=2)\n"
            "%slice_1 : f32[2, 2] = aten::slice.Tensor(self=%slice_0, dim=1, start=1, end=3)\n"
            "%fill_ : f32[2, 2] = aten::fill.Tensor(self=%slice_1, value=%v)\n"
            "%slice_1_scatter : f32[2, 4] = aten::slice_scatter.default(self=%slice_0, "
            "src=%fill_, dim=1, start=1, end=3)\n"
            "%slice_0_scatter : f32[4, 4] = aten::slice_scatter.default(self=%base, "
            "src=%slice_1_scatter, dim=0, start=0, end=2)\n"
            "%add : f32[4, 4] = aten::add.Tensor(self=%slice_0_scatter, other=%x)\n");
}

// Through a view op without a scatter (permute) whose base is read later: refused.
TEST(FunctionalizePassTest, InPlaceThroughPermuteReadLaterIsNotSupported) {
  GraphBuilder b;
  ValueId x = b.input("x", {2, 3});
  ValueId z = b.op("aten::neg.default", {{"self", x}}, "base", {2, 3});
  ValueId p = b.op("aten::permute.default", {{"self", z}}, "perm", {3, 2},
                   {{"dims", Argument::int_list({1, 0}), false}});
  b.op("aten::relu_.default", {{"self", p}}, "relu_", {3, 2});
  b.output(b.op("aten::add.Tensor", {{"self", z}, {"other", x}}, "add", {2, 3}));
  Graph g = b.take();
  EXPECT_EQ(FunctionalizePass().run(g), Error::NotSupported);
}

TEST(FunctionalizePassTest, InPlaceOnUserInputIsNotSupported) {
  GraphBuilder b;
  ValueId x = b.input("x", {4});
  b.output(b.op("aten::relu_.default", {{"self", x}}, "relu_", {4}));
  Graph g = b.take();
  Error st = FunctionalizePass().run(g);
  EXPECT_EQ(st, Error::NotSupported);
  EXPECT_NE(std::string(last_error_message()).find("'x'"), std::string::npos) << std::string(last_error_message());
}

TEST(OpSetCheckPassTest, ListsEveryOffendingNodeWithLineAndSuggestion) {
  GraphBuilder b;
  ValueId x = b.input("x", {2, 2});
  ValueId l = b.op("aten::linear.default", {{"input", x}, {"weight", x}}, "linear", {2, 2});
  ValueId r = b.op("aten::relu.default", {{"self", l}}, "relu", {2, 2});
  b.output(b.op("aten::frobnicate.default", {{"self", r}}, "frob", {2, 2}));
  Graph g = b.take();
  Error st = OpSetCheckPass().run(g);
  ASSERT_EQ(st, Error::OperatorMissing);
  const std::string& m = std::string(last_error_message());
  EXPECT_NE(m.find("2 node(s)"), std::string::npos) << m;
  EXPECT_NE(m.find("node 'linear' (aten::linear.default, model.py:10): a decomposition exists"),
            std::string::npos) << m;
  EXPECT_NE(m.find("node 'frob' (aten::frobnicate.default, model.py:12): operator Ember does not know"),
            std::string::npos) << m;
  EXPECT_EQ(m.find("'relu'"), std::string::npos) << m;
  EXPECT_EQ(m.find("aot/"), std::string::npos) << "hints never send users into Ember's source: " << m;
}

// Issue #16: the hint for a quantized op of the eager/FX flows (what torch.export leaves of a
// model converted with torch.ao.quantization.convert) told users to add a schema to Ember's
// source. It now points at the PT2E flow Ember lowers.
TEST(OpSetCheckPassTest, LegacyQuantizedOpsPointAtPt2e) {
  GraphBuilder b;
  ValueId x = b.input("x", {2, 2});
  ValueId q = b.op("aten::quantize_per_tensor.default", {{"self", x}}, "quantize_per_tensor", {2, 2});
  ValueId l = b.op("quantized::linear.default", {{"X", q}}, "linear", {2, 2});
  b.output(b.op("aten::dequantize.self", {{"self", l}}, "dequantize", {2, 2}));
  Graph g = b.take();
  ASSERT_EQ(OpSetCheckPass().run(g), Error::OperatorMissing);
  const std::string m = last_error_message();
  EXPECT_NE(m.find("3 node(s)"), std::string::npos) << m;
  for (const char* node : {"'quantize_per_tensor' (aten::quantize_per_tensor.default", "'linear' (quantized::linear.default",
                           "'dequantize' (aten::dequantize.self"}) {
    EXPECT_NE(m.find(node + std::string(", model.py:") ), std::string::npos) << node << "\n" << m;
  }
  EXPECT_NE(m.find("quantized op from eager or FX quantization: Ember lowers PT2E quantization"), std::string::npos) << m;
  EXPECT_NE(m.find("prepare_pt2e/convert_pt2e"), std::string::npos) << m;
  EXPECT_EQ(m.find("aot/"), std::string::npos) << m;
  EXPECT_EQ(m.find("custom operator"), std::string::npos) << m;
}

TEST(QuantizedOpCheckPassTest, ListsUnsupportedOpsAndBadPerChannelParameters) {
  GraphBuilder b;
  ValueId x = b.input("x", {4, 3});
  ValueId w = b.input("w", {4, 3}, ScalarType::Char);
  ValueId s = b.parameter("s", {2}, {0.5f, 0.25f}, InputKind::Buffer);
  ValueId t = b.op("quantized_decomposed::quantize_per_token.default", {{"input", x}}, "qtok",
                   {4, 3});
  ValueId d = b.op("quantized_decomposed::dequantize_per_channel.default",
                   {{"input", w}, {"scales", s}}, "dq_w", {4, 3},
                   {{"zero_points", Argument::none(), false},
                    {"axis", Argument::integer(0), false},
                    {"quant_min", Argument::integer(-127), false},
                    {"quant_max", Argument::integer(127), false},
                    {"dtype", Argument::scalar_type(ScalarType::Char), false}});
  b.output(b.op("aten::add.Tensor", {{"self", t}, {"other", d}}, "add", {4, 3}));
  Graph g = b.take();
  Error st = QuantizedOpCheckPass().run(g);
  ASSERT_EQ(st, Error::NotSupported);
  const std::string m = last_error_message();
  EXPECT_NE(m.find("2 quantized node(s) cannot be lowered"), std::string::npos) << m;
  EXPECT_NE(m.find("node 'qtok' (quantized_decomposed::quantize_per_token.default, model.py:10): "
                   "quantized op not supported"),
            std::string::npos) << m;
  EXPECT_NE(m.find("node 'dq_w' (quantized_decomposed::dequantize_per_channel.default, "
                   "model.py:11): scales 's' f32[2] must hold one scale per channel: input 'w' "
                   "i8[4, 3] has 4 channels along axis 0"),
            std::string::npos) << m;
  // The op-set check names the same unsupported op with the same advice.
  ASSERT_EQ(OpSetCheckPass().run(g), Error::OperatorMissing);
  EXPECT_NE(std::string(last_error_message()).find("'qtok' (quantized_decomposed::quantize_per_token"
                                                   ".default, model.py:10): quantized op not "
                                                   "supported; Ember lowers quantize_per_tensor"),
            std::string::npos) << last_error_message();
}

TEST(ScalarToTensorPassTest, WrappedNumberBecomesLiftedConstant) {
  GraphBuilder b;
  ValueId x = b.input("x", {3});
  b.output(b.op("aten::add.Tensor", {{"self", x}}, "add", {3}, {{"other", Argument::floating(2.5), false}}));
  Graph g = b.take();
  ASSERT_EQ(ScalarToTensorPass().run(g), Error::Ok);
  ValueId c = g.nodes()[0].inputs[1].arg.value();
  ASSERT_NE(c, kNoValue);
  const TensorSpec& s = g.value(c).tensor;
  EXPECT_EQ(s.to_string(), "f32[]");
  ASSERT_NE(s.constant, nullptr);
  float v;
  std::memcpy(&v, s.constant->bytes.data(), 4);
  EXPECT_EQ(v, 2.5f);
  ASSERT_EQ(g.inputs().size(), 2u);  // the constant comes before the user input
  EXPECT_EQ(g.signature().inputs[0].kind, InputKind::TensorConstant);
  EXPECT_EQ(g.inputs()[1].value(), x);
}

TEST(DeadCodePassTest, RemovesUnusedChains) {
  GraphBuilder b;
  ValueId x = b.input("x", {3});
  ValueId n = b.op("aten::neg.default", {{"self", x}}, "neg", {3});
  b.op("aten::abs.default", {{"self", n}}, "abs", {3});
  b.output(b.op("aten::relu.default", {{"self", x}}, "relu", {3}));
  Graph g = b.take();
  ASSERT_EQ(DeadCodePass().run(g), Error::Ok);
  EXPECT_EQ(print_body(g), "%relu : f32[3] = aten::relu.default(self=%x)\n");
}

TEST(OutVariantPassTest, FillsDefaultsAndRenames) {
  GraphBuilder b;
  ValueId x = b.input("x", {3});
  ValueId a = b.op("aten::add.Tensor", {{"self", x}, {"other", x}}, "add", {3});
  ValueId v = b.op("aten::view.default", {{"self", a}}, "view", {1, 3},
                   {{"size", Argument::int_list({1, 3}), false}});
  b.output(b.op("aten::full_like.default", {{"self", v}}, "full", {1, 3},
                {{"fill_value", Argument::floating(1.0), false}}));
  Graph g = b.take();
  ASSERT_EQ(OutVariantPass().run(g), Error::Ok);
  EXPECT_EQ(print_body(g),
            "%add : f32[3] = aten::add.out(self=%x, other=%x, alpha=1)\n"
            "%view : f32[1, 3] = aten::view_copy.out(self=%add, size=[1, 3])\n"
            // dtype/layout/device/pin_memory dropped: full_like.out(self, fill_value, *, memory_format, out)
            "%full : f32[1, 3] = aten::full_like.out(self=%view, fill_value=1.0, memory_format=None)\n");
  EXPECT_TRUE(is_out_variant_node(g.nodes()[0]));
}

class FailingPass final : public Pass {
 public:
  const char* name() const override { return "failing"; }
  Error run(Graph&) const override { return invalid_argument("boom"); }
};

TEST(PassPipelineTest, DumpsTimesAndAnnotatesFailures) {
  GraphBuilder b;
  ValueId x = b.input("x", {3});
  b.output(b.op("aten::relu.default", {{"self", x}}, "relu", {3}));
  Graph g = b.take();
  std::string dir = ::testing::TempDir() + "/pipeline_dump";
  mkdir(dir.c_str(), 0755);
  std::vector<PassTiming> timings;
  PassInstrumentation inst;
  inst.dump_dir = dir;
  inst.timings = &timings;
  PassPipeline p("stage");
  p.add(std::make_unique<DeadCodePass>()).add(std::make_unique<FailingPass>());
  Error st = p.run(g, inst);
  EXPECT_EQ(st, Error::InvalidArgument);
  EXPECT_EQ(std::string(last_error_message()), "pass 'failing' (stage): boom");
  ASSERT_EQ(timings.size(), 1u);
  EXPECT_EQ(timings[0].pass, "dead_code");
  std::ifstream dumped(dir + "/stage_00_dead_code.txt");
  ASSERT_TRUE(dumped.good());
  std::string text((std::istreambuf_iterator<char>(dumped)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("aten::relu.default"), std::string::npos);
}

}  // namespace
}  // namespace ember::aot
