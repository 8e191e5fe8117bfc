// to_backend, first and second ways (the tutorial's LowerableSubModel / CompositeModule):
// a sin model lowered whole to DemoBackend with a compile spec is printed, saved as its
// own .pte and run; then called twice from a larger graph whose non-lowerable part (two
// adds with a 0.3 bias) runs on the portable kernels. Expected values come from tables:
// sin(pi/6) = 0.5, sin(pi/2) = 1, sin(0.5) = 0.479425538604203, sin(1) = 0.841470984807897.
#include "aot/backend/delegated_module.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <iterator>

#include "aot/recipe/compile_method.h"
#include "aot/emit/pte_writer.h"
#include "aot/ir/testing/graph_builder.h"
#include "backends/demo/aot/demo_partitioner.h"
#include "runtime/core/diagnostics.h"
#include "runtime/module/module.h"
#include "tests/delegation/pipeline_util.h"

namespace ember::testing {
namespace {

using aot::testing::GraphBuilder;
using runtime::Error;

constexpr float kPi = 3.14159265358979f;
const std::vector<float> kX = {0, kPi / 6, kPi / 2, -kPi / 2};
const std::vector<float> kSinX = {0, 0.5f, 1, -1};
const std::vector<float> kSinSinX = {0, 0.479425538604203f, 0.841470984807897f,
                                     -0.841470984807897f};

// class LowerableSubModel: forward(x) = torch.sin(x)
aot::Graph sin_model() {
  GraphBuilder g;
  auto x = g.input("x", {4});
  g.output(g.op("aten::sin.default", {{"self", x}}, "sin_0", {4}));
  return g.take();
}

aot::Result<aot::DelegatedModule> lower_sin(uint8_t max_numel) {
  return aot::to_backend(sin_model(), backends::demo::DemoPartitioner(),
                         {{"max_numel", {max_numel}}});
}

void expect_near(const std::vector<float>& got, const std::vector<float>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], want[i], 2e-6) << "element " << i;
}

TEST(TutorialDelegatedModule, PrintsSavesAndRunsOnItsOwn) {
  auto lowered = lower_sin(4);
  ASSERT_TRUE(lowered.ok()) << ::ember::aot::format_error(lowered.error());
  EXPECT_EQ(lowered->backend_id, "DemoBackend");
  const std::string text = lowered->to_string();
  EXPECT_EQ(text.rfind("DelegatedModule(backend_id=DemoBackend, processed=" +
                           std::to_string(lowered->processed.size()) +
                           " bytes, compile_specs=[max_numel:1B])\noriginal:\n",
                       0),
            0u)
      << text;
  EXPECT_NE(text.find("aten::sin.default"), std::string::npos) << text;

  auto pte = aot::delegated_module_pte(*lowered);
  ASSERT_TRUE(pte.ok()) << ::ember::aot::format_error(pte.error());
  const std::string path = std::string(std::getenv("TEST_TMPDIR")) + "/lowered_sin.pte";
  {
    std::ofstream f(path, std::ios::binary);
    f.write(reinterpret_cast<const char*>(pte->data()), static_cast<std::streamsize>(pte->size()));
  }
  std::ifstream f(path, std::ios::binary);
  std::vector<uint8_t> saved((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  ASSERT_EQ(saved, *pte);
  auto out = run_with_demo(saved, "forward", {f32({4}, kX)});
  ASSERT_TRUE(out.ok()) << ::ember::aot::format_error(out.error());
  expect_near(floats((*out)[0]), kSinX);
}

TEST(TutorialDelegatedModule, CompileSpecReachesTheBackend) {
  auto lowered = lower_sin(3);  // max_numel 3 < the 4 elements of x: DemoBackend refuses
  ASSERT_TRUE(lowered.ok());
  auto pte = aot::delegated_module_pte(*lowered);
  ASSERT_TRUE(pte.ok());
  runtime::Module module(pte->data(), pte->size());
  runtime::Module::Options options;
  options.method.backends = &demo_registry();
  module.set_options(options);
  ASSERT_EQ(module.load(), runtime::Error::Ok);
  auto method = module.load_method("forward");
  ASSERT_FALSE(method.ok());
  EXPECT_EQ(method.error(), runtime::Error::InvalidArgument);
  EXPECT_NE(std::string(runtime::last_error_message()).find("max_numel is 3"), std::string::npos)
      << runtime::last_error_message();
}

TEST(TutorialDelegatedModule, UnsupportedOpIsNamed) {
  GraphBuilder g;
  auto x = g.input("x", {4});
  g.output(g.op("aten::abs.default", {{"self", x}}, "abs_0", {4}));
  auto lowered = aot::to_backend(g.take(), backends::demo::DemoPartitioner());
  ASSERT_FALSE(lowered.ok());
  EXPECT_EQ(lowered.error(), aot::Error::NotSupported);
  EXPECT_NE(std::string(::ember::runtime::last_error_message()).find("aten::abs.default"), std::string::npos)
      << std::string(::ember::runtime::last_error_message());
}

// class CompositeModule: a = lowered(x); b = lowered(a); ret = (a + b) + 0.3; return a, b, ret
TEST(TutorialDelegatedModule, ComposedTwiceWithNonLowerablePart) {
  auto lowered = lower_sin(4);
  ASSERT_TRUE(lowered.ok());
  GraphBuilder g;
  auto bias = g.parameter("bias", {1}, {0.3f});
  auto x = g.input("x", {4});
  auto a = aot::call_delegated(g.graph(), *lowered, {x});
  ASSERT_TRUE(a.ok()) << ::ember::aot::format_error(a.error());
  auto b = aot::call_delegated(g.graph(), *lowered, {(*a)[0]});
  ASSERT_TRUE(b.ok()) << ::ember::aot::format_error(b.error());
  auto sum = g.op("aten::add.Tensor", {{"self", (*a)[0]}, {"other", (*b)[0]}}, "add_0", {4});
  auto ret = g.op("aten::add.Tensor", {{"self", sum}, {"other", bias}}, "add_1", {4});
  g.output((*a)[0]);
  g.output((*b)[0]);
  g.output(ret);
  auto program = aot::compile_method(g.take(), "forward");
  ASSERT_TRUE(program.ok()) << ::ember::aot::format_error(program.error());
  const aot::EmitMethod& m = program->methods[0];
  ASSERT_EQ(m.delegates.size(), 2u);
  ASSERT_EQ(m.delegates[1].compile_specs.size(), 1u);
  EXPECT_EQ(m.delegates[1].compile_specs[0].key, "max_numel");
  EXPECT_EQ(m.delegates[1].compile_specs[0].value, std::vector<uint8_t>{4});
  std::vector<uint8_t> pte;
  ASSERT_EQ(aot::write_pte(*program, &pte), Error::Ok);
  auto out = run_with_demo(pte, "forward", {f32({4}, kX)});
  ASSERT_TRUE(out.ok()) << ::ember::aot::format_error(out.error());
  ASSERT_EQ(out->size(), 3u);
  expect_near(floats((*out)[0]), kSinX);
  expect_near(floats((*out)[1]), kSinSinX);
  std::vector<float> want;
  for (size_t i = 0; i < 4; ++i) want.push_back(kSinX[i] + kSinSinX[i] + 0.3f);
  expect_near(floats((*out)[2]), want);
}

TEST(TutorialDelegatedModule, CallLoweredChecksInputs) {
  auto lowered = lower_sin(4);
  ASSERT_TRUE(lowered.ok());
  GraphBuilder g;
  auto wrong = g.input("wrong", {3});
  auto r = aot::call_delegated(g.graph(), *lowered, {wrong});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(std::string(::ember::runtime::last_error_message()).find("must be f32[4]"), std::string::npos) << std::string(::ember::runtime::last_error_message());
  EXPECT_FALSE(aot::call_delegated(g.graph(), *lowered, {}).ok());
}

}  // namespace
}  // namespace ember::testing
