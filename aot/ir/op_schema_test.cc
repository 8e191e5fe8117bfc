// Tests for the op schema table and argument binding. Expected signatures and defaults
// are ATen's documented ones (e.g. conv2d: stride=1, padding=0, dilation=1, groups=1),
// checked by hand, not produced by the code under test.
#include "aot/ir/op_schema.h"

#include <gtest/gtest.h>

namespace ember::aot {
namespace {

const OpSchema& get(const std::string& name) {
  const OpSchema* s = builtin_op_schemas().find(name);
  EXPECT_NE(s, nullptr) << name;
  static OpSchema empty;
  return s ? *s : empty;
}

TEST(OpSchemaTest, BuiltinTableParses) {
  EXPECT_EQ(builtin_op_schema_status(), Error::Ok) << format_error(builtin_op_schema_status());
  EXPECT_GE(builtin_op_schemas().size(), 100u);
}

TEST(OpSchemaTest, CoversEveryOpInTheSharedFixtures) {
  // Ops listed by the fixture manifest (torch 2.6 / 2.14) and the torch 2.2 GitHub file.
  for (const char* op : {"aten::add.Tensor",
                         "aten::mul.Tensor",
                         "aten::_native_batch_norm_legit_no_training.default",
                         "aten::convolution.default",
                         "aten::relu.default",
                         "aten::batch_norm.default",
                         "aten::conv2d.default",
                         "aten::addmm.default",
                         "aten::permute.default",
                         "aten::cat.default",
                         "aten::max_pool2d_with_indices.default",
                         "aten::mean.dim",
                         "aten::view.default",
                         "aten::clone.default",
                         "aten::t.default",
                         "aten::leaky_relu.default",
                         "aten::_native_batch_norm_legit_functional.default",
                         "aten::_log_softmax.default",
                         "aten::squeeze.default",
                         "aten::sym_size.int"}) {
    EXPECT_NE(builtin_op_schemas().find(op), nullptr) << op;
  }
}

TEST(OpSchemaTest, Conv2dSignature) {
  const OpSchema& s = get("aten::conv2d.default");
  EXPECT_EQ(s.to_string(),
            "aten::conv2d.default(Tensor input, Tensor weight, Tensor? bias=None, "
            "SymInt[2] stride=1, SymInt[2] padding=0, SymInt[2] dilation=1, SymInt groups=1) "
            "-> Tensor");
  ASSERT_EQ(s.args.size(), 7u);
  EXPECT_EQ(s.args[3].default_value.kind, ArgKind::IntList);
  EXPECT_EQ(s.args[3].default_value.ints, (std::vector<int64_t>{1, 1}));
  EXPECT_EQ(s.args[4].default_value.ints, (std::vector<int64_t>{0, 0}));
  EXPECT_EQ(s.args[6].default_value.i, 1);
  EXPECT_EQ(s.out_variant, "");
}

TEST(OpSchemaTest, KeywordOnlyReturnsOutVariantsAndFlags) {
  const OpSchema& addmm = get("aten::addmm.default");
  EXPECT_TRUE(addmm.args[addmm.arg_index("beta")].kw_only);
  EXPECT_FALSE(addmm.args[addmm.arg_index("mat1")].kw_only);
  EXPECT_EQ(addmm.out_variant, "aten::addmm.out");
  EXPECT_EQ(get("aten::max_pool2d_with_indices.default").returns.size(), 2u);
  EXPECT_EQ(get("aten::_native_batch_norm_legit_functional.default").returns.size(), 5u);
  EXPECT_TRUE(get("aten::view.default").is_view);
  EXPECT_EQ(get("aten::view.default").out_variant, "aten::view_copy.out");
  EXPECT_TRUE(get("aten::relu_.default").is_inplace);
  EXPECT_TRUE(get("aten::relu_.default").args[0].is_mutable);
  const OpSchema& leaky = get("aten::leaky_relu.default");
  EXPECT_EQ(leaky.args[1].default_value.kind, ArgKind::Float);
  EXPECT_DOUBLE_EQ(leaky.args[1].default_value.f, 0.01);
  EXPECT_EQ(get("aten::gelu.default").args[1].default_value.s, "none");
  EXPECT_EQ(get("aten::max_pool2d.default").args[2].default_value.ints.size(), 0u);
  EXPECT_EQ(get("aten::index.Tensor").args[1].type.to_string(), "Tensor?[]");
}

TEST(OpSchemaTest, BadLinesAreErrors) {
  for (const char* bad :
       {"aten::x.default | self:Tensor | Tensor | -", "x.default | self:Tensor | Tensor | - | -",
        "aten::x.default | self:Tensr | Tensor | - | -", "aten::x.default | self | Tensor | - | -",
        "aten::x.default | self:int=abc | Tensor | - | -",
        "aten::x.default | self:Tensor | Tensor | - | weird"}) {
    EXPECT_FALSE(parse_op_schema_line(bad).ok()) << bad;
  }
  OpSchemaRegistry r;
  EXPECT_EQ(r.add_table("aten::x.default | self:Tensor | Tensor | - | -"), Error::Ok);
  EXPECT_NE(r.add_table("aten::x.default | self:Tensor | Tensor | - | -"), Error::Ok);
}

// Expected signatures are ATen's documented out variants, checked by hand.
TEST(OpSchemaTest, DerivedOutVariants) {
  auto mean = derive_out_variant_schema(get("aten::mean.dim"));
  ASSERT_TRUE(mean.ok());
  EXPECT_EQ(mean->to_string(),
            "aten::mean.out(Tensor self, int[1]? dim, bool keepdim=False, *, "
            "ScalarType? dtype=None, Tensor(!) out) -> Tensor");
  auto to_copy = derive_out_variant_schema(get("aten::_to_copy.default"));
  ASSERT_TRUE(to_copy.ok());
  EXPECT_EQ(to_copy->to_string(),
            "aten::_to_copy.out(Tensor self, *, bool non_blocking=False, "
            "MemoryFormat? memory_format=None, Tensor(!) out) -> Tensor");
  auto pool = derive_out_variant_schema(get("aten::max_pool2d_with_indices.default"));
  ASSERT_TRUE(pool.ok());
  ASSERT_EQ(pool->args.size(), 8u);
  EXPECT_EQ(pool->args[6].name, "out");
  EXPECT_EQ(pool->args[7].name, "indices");
  auto full = derive_out_variant_schema(get("aten::full.default"));
  ASSERT_TRUE(full.ok());
  EXPECT_EQ(full->to_string(),
            "aten::full.out(SymInt[] size, Scalar fill_value, *, Tensor(!) out) -> Tensor");
  auto bn = derive_out_variant_schema(get("aten::_native_batch_norm_legit_no_training.default"));
  ASSERT_TRUE(bn.ok());
  EXPECT_EQ(bn->args.back().name, "out2");
  EXPECT_FALSE(derive_out_variant_schema(get("aten::conv2d.default")).ok());
}

// The quantized_decomposed ops: functional schemas as torch 2.6 prints them
// (torch.ops.quantized_decomposed.<op>.<overload>._schema), out variants as upstream
// ExecuTorch's kernels/quantized/quantized.yaml spells them (with out_dtype, as its
// quant-pattern tables do); both copied by hand.
TEST(OpSchemaTest, QuantizedDecomposedSchemas) {
  EXPECT_EQ(get("quantized_decomposed::dequantize_per_tensor.default").to_string(),
            "quantized_decomposed::dequantize_per_tensor.default(Tensor input, float scale, "
            "int zero_point, int quant_min, int quant_max, ScalarType dtype, *, "
            "ScalarType? out_dtype=None) -> Tensor");
  EXPECT_EQ(get("quantized_decomposed::quantize_per_tensor.tensor").to_string(),
            "quantized_decomposed::quantize_per_tensor.tensor(Tensor input, Tensor scale, "
            "Tensor zero_point, int quant_min, int quant_max, ScalarType dtype) -> Tensor");
  EXPECT_EQ(get("quantized_decomposed::dequantize_per_channel.default").to_string(),
            "quantized_decomposed::dequantize_per_channel.default(Tensor input, Tensor scales, "
            "Tensor? zero_points, int axis, int quant_min, int quant_max, ScalarType dtype, *, "
            "ScalarType? out_dtype=None) -> Tensor");
  auto dq = derive_out_variant_schema(get("quantized_decomposed::dequantize_per_tensor.tensor"));
  ASSERT_TRUE(dq.ok());
  EXPECT_EQ(dq->to_string(),
            "quantized_decomposed::dequantize_per_tensor.Tensor_out(Tensor input, Tensor scale, "
            "Tensor zero_point, int quant_min, int quant_max, ScalarType dtype, *, "
            "ScalarType? out_dtype=None, Tensor(!) out) -> Tensor");
  auto q = derive_out_variant_schema(get("quantized_decomposed::quantize_per_channel.default"));
  ASSERT_TRUE(q.ok());
  EXPECT_EQ(q->op.qualified(), "quantized_decomposed::quantize_per_channel.out");
  auto choose = derive_out_variant_schema(get("quantized_decomposed::choose_qparams.tensor"));
  ASSERT_TRUE(choose.ok());
  EXPECT_EQ(choose->to_string(),
            "quantized_decomposed::choose_qparams.Tensor_out(Tensor input, int quant_min, "
            "int quant_max, float eps, ScalarType dtype, *, Tensor(!) scale_out, "
            "Tensor(!) zero_point_out) -> (Tensor, Tensor)");
}

Node conv_node() {
  Node n;
  n.op = OpName{"aten", "conv2d", "default"};
  n.name = "conv2d";
  n.inputs = {{"input", Argument::tensor(0), false},
              {"weight", Argument::tensor(1), false},
              {"padding", Argument::int_list({1, 1}), false}};
  return n;
}

TEST(OpSchemaTest, BindFillsDefaults) {
  const OpSchema& s = get("aten::conv2d.default");
  auto bound = bind_arguments(s, conv_node());
  ASSERT_TRUE(bound.ok()) << format_error(bound.error());
  ASSERT_EQ(bound->size(), 7u);
  EXPECT_EQ((*bound)[0].value(), 0);
  EXPECT_EQ((*bound)[2].kind, ArgKind::None);
  EXPECT_EQ((*bound)[3].ints, (std::vector<int64_t>{1, 1}));
  EXPECT_EQ((*bound)[4].ints, (std::vector<int64_t>{1, 1}));
  EXPECT_EQ((*bound)[6].i, 1);
}

TEST(OpSchemaTest, BindRejectsUnknownMissingAndMistyped) {
  const OpSchema& s = get("aten::conv2d.default");
  Node unknown = conv_node();
  unknown.inputs.push_back({"paddin", Argument::integer(1), false});
  auto r1 = bind_arguments(s, unknown);
  ASSERT_FALSE(r1.ok());
  EXPECT_NE(std::string(last_error_message()).find("'paddin'"), std::string::npos);
  Node missing = conv_node();
  missing.inputs.erase(missing.inputs.begin() + 1);
  auto r2 = bind_arguments(s, missing);
  ASSERT_FALSE(r2.ok());
  EXPECT_NE(std::string(last_error_message()).find("'weight'"), std::string::npos);
  Node mistyped = conv_node();
  mistyped.inputs[2].arg = Argument::string("same");
  EXPECT_FALSE(bind_arguments(s, mistyped).ok());
}

}  // namespace
}  // namespace ember::aot
