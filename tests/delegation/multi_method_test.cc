// Multi-method programs (the tutorial's encode/decode) and constant methods: methods
// lowered separately (encode through DemoBackend, decode on the portable kernels) and
// merged into one .pte with three constant getters; every method is run on Ember's
// runtime. Hand-computed values for the C++ graphs; for lower_methods on real .pt2
// fixtures, the PyTorch reference outputs in tests/fixtures/pt2.
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>

#include "aot/emit/program_merge.h"
#include "aot/emit/pte_writer.h"
#include "aot/ir/testing/graph_builder.h"
#include "aot/recipe/multi_method.h"
#include "backends/demo/aot/demo_partitioner.h"
#include "runtime/module/module.h"
#include "tests/delegation/pipeline_util.h"

namespace ember::testing {
namespace {

using aot::testing::GraphBuilder;
using runtime::Error;

aot::EmitProgram lowered(aot::Graph g, bool demo, const std::string& name) {
  std::vector<std::shared_ptr<const aot::Partitioner>> parts;
  if (demo) parts.push_back(std::make_shared<backends::demo::DemoPartitioner>());
  aot::ExportSession s = session_for(std::move(g), parts);
  aot::Error st = s.run();
  EXPECT_EQ(st, Error::Ok) << ::ember::aot::format_error(st);
  aot::EmitProgram p = *s.last_artifact().program;
  p.methods[0].name = name;
  return p;
}

// encode(x) = relu(mm(x, W)), W = [1 -1; 2 0]
aot::Graph encode_graph() {
  GraphBuilder g;
  auto w = g.parameter("w", {2, 2}, {1, -1, 2, 0});
  auto x = g.input("x", {2, 2});
  auto mm = g.op("aten::mm.default", {{"self", x}, {"mat2", w}}, "mm_0", {2, 2});
  g.output(g.op("aten::relu.default", {{"self", mm}}, "relu_1", {2, 2}));
  return g.take();
}

// decode(z) = z * z - z
aot::Graph decode_graph() {
  GraphBuilder g;
  auto z = g.input("z", {2, 2});
  auto sq = g.op("aten::mul.Tensor", {{"self", z}, {"other", z}}, "mul_0", {2, 2});
  g.output(g.op("aten::sub.Tensor", {{"self", sq}, {"other", z}}, "sub_1", {2, 2}));
  return g.take();
}

TEST(TutorialMultiMethod, EncodeDecodeAndConstantMethodsInOneProgram) {
  auto scale = aot::constant_method("get_scale", {aot::EmitValue::of_double(0.5)});
  auto vocab = aot::constant_method("get_vocab_size", {aot::EmitValue::of_int(32000)});
  std::vector<std::vector<uint8_t>> table_data;
  auto table_value = aot::constant_tensor(f32({2}, {1.5f, -2}), &table_data);
  ASSERT_TRUE(table_value.ok());
  auto table = aot::constant_method("get_table", {*table_value}, std::move(table_data));
  ASSERT_TRUE(scale.ok() && vocab.ok() && table.ok());
  auto merged = aot::merge_programs({lowered(encode_graph(), true, "encode"),
                                     lowered(decode_graph(), false, "decode"), *vocab, *scale,
                                     *table});
  ASSERT_TRUE(merged.ok()) << ::ember::aot::format_error(merged.error());
  EXPECT_EQ(merged->methods[1].delegates.size(), 1u);  // encode runs on DemoBackend
  std::vector<uint8_t> pte;
  ASSERT_EQ(aot::write_pte(*merged, &pte), Error::Ok);

  runtime::Module module(pte.data(), pte.size());
  ASSERT_EQ(module.load(), runtime::Error::Ok);
  auto names = module.method_names();
  ASSERT_TRUE(names.ok());
  EXPECT_EQ(*names, (std::vector<std::string>{"decode", "encode", "get_scale", "get_table",
                                              "get_vocab_size"}));
  auto v = module.execute("get_vocab_size", {});
  ASSERT_TRUE(v.ok());
  ASSERT_EQ(v->size(), 1u);
  EXPECT_EQ((*v)[0].to_int(), 32000);
  auto s = module.execute("get_scale", {});
  ASSERT_TRUE(s.ok());
  EXPECT_EQ((*s)[0].to_double(), 0.5);

  auto t = run_with_demo(pte, "get_table", {});
  ASSERT_TRUE(t.ok()) << ::ember::aot::format_error(t.error());
  EXPECT_EQ(floats((*t)[0]), (std::vector<float>{1.5f, -2}));
  // x @ W = [1+4, -1; 3-8, -3] = [5 -1; -5 -3]; relu -> [5 0; 0 0].
  auto e = run_with_demo(pte, "encode", {f32({2, 2}, {1, 2, 3, -4})});
  ASSERT_TRUE(e.ok()) << ::ember::aot::format_error(e.error());
  EXPECT_EQ(floats((*e)[0]), (std::vector<float>{5, 0, 0, 0}));
  // z*z - z for z = [1 2; 3 -4] = [0 2; 6 20].
  auto d = run_with_demo(pte, "decode", {f32({2, 2}, {1, 2, 3, -4})});
  ASSERT_TRUE(d.ok()) << ::ember::aot::format_error(d.error());
  EXPECT_EQ(floats((*d)[0]), (std::vector<float>{0, 2, 6, 20}));
}

std::vector<uint8_t> read_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return std::vector<uint8_t>((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
}

aot::HostTensor fixture(const std::string& file, std::vector<int64_t> sizes,
                        aot::ScalarType dtype = aot::ScalarType::Float) {
  aot::HostTensor t;
  t.dtype = dtype;
  t.sizes = std::move(sizes);
  t.bytes = read_file("tests/fixtures/pt2/" + file);
  return t;
}

void expect_close(const aot::HostTensor& got, const aot::HostTensor& want, float tol) {
  ASSERT_EQ(got.sizes, want.sizes);
  ASSERT_EQ(got.bytes.size(), want.bytes.size());
  std::vector<float> g = floats(got), w = floats(want);
  for (size_t i = 0; i < g.size(); ++i) EXPECT_NEAR(g[i], w[i], tol) << "element " << i;
}

// lower --recipe demo --method encode=mlp.pt2 --method decode=buffers_consts.pt2 as a
// library call, checked against PyTorch's outputs for both methods.
TEST(TutorialMultiMethod, LowerMethodsFromPt2FixturesMatchesPyTorch) {
  aot::RecipeRegistry recipes;
  ASSERT_EQ(aot::register_builtin_recipes(&recipes), Error::Ok);
  ASSERT_EQ(backends::demo::register_demo_recipe(&recipes), Error::Ok);
  const std::string dir = "tests/fixtures/pt2/";
  auto vocab = aot::constant_method("get_vocab_size", {aot::EmitValue::of_int(7)});
  std::vector<aot::EmitProgram> extra;
  extra.push_back(*vocab);
  auto program = aot::lower_methods(
      recipes, "demo",
      {{"encode", dir + "mlp.core_aten.torch2_6.pt2"},
       {"decode", dir + "buffers_consts.core_aten.torch2_6.pt2"}},
      {}, std::move(extra));
  ASSERT_TRUE(program.ok()) << ::ember::aot::format_error(program.error());
  ASSERT_EQ(program->methods.size(), 3u);
  EXPECT_FALSE(program->methods[1].delegates.empty()) << "mlp's relus go to DemoBackend";
  std::vector<uint8_t> pte;
  ASSERT_EQ(aot::write_pte(*program, &pte), Error::Ok);

  auto enc = run_with_demo(pte, "encode", {fixture("mlp.core_aten.torch2_6.input0.bin", {4, 16})});
  ASSERT_TRUE(enc.ok()) << ::ember::aot::format_error(enc.error());
  expect_close((*enc)[0], fixture("mlp.core_aten.torch2_6.output0.bin", {4, 10}), 1e-5f);

  auto dec = run_with_demo(pte, "decode",
                           {fixture("buffers_consts.core_aten.torch2_6.input0.bin", {3, 4}),
                            fixture("buffers_consts.core_aten.torch2_6.input1.bin", {3, 1})});
  ASSERT_TRUE(dec.ok()) << ::ember::aot::format_error(dec.error());
  ASSERT_EQ(dec->size(), 3u);
  expect_close((*dec)[0], fixture("buffers_consts.core_aten.torch2_6.output0.bin", {3, 3}), 1e-5f);
  EXPECT_EQ((*dec)[1].bytes, read_file(dir + "buffers_consts.core_aten.torch2_6.output1.bin"));

  auto bad = aot::lower_methods(recipes, "demo", {{"encode", dir + "missing.pt2"}});
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(std::string(::ember::runtime::last_error_message()).find("method 'encode'"), std::string::npos)
      << std::string(::ember::runtime::last_error_message());
}

}  // namespace
}  // namespace ember::testing
