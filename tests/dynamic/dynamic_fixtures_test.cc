// Issue #8, "Must hold" 1: the dynamic .pt2 fixtures (dynamic-batch MLP, two dynamic dims
// meeting in a cat and a reshape, transformer layer with dynamic sequence length, embedding
// with dynamic token count) are lowered with the portable and the xnnpack recipes and run at
// every reference shape PyTorch recorded, on ONE loaded method (so each run resizes from
// the previous shape, smaller and larger), and at the reference shapes again in reverse
// order. Expected values are PyTorch's eager outputs (manifest tolerance). Also checks
// the output shapes reported by the runtime equal PyTorch's.
#include <gtest/gtest.h>

#include "aot/recipe/run_method.h"
#include "tests/dynamic/dynamic_util.h"

namespace ember::testing {
namespace {

void run_all_cases(const std::string& id, const std::string& recipe) {
  Fixture f;
  if (!find_fixture(id, &f)) GTEST_SKIP() << id << " not found";
  auto pte = lower_pt2(f.pt2, recipe);
  ASSERT_TRUE(pte.ok()) << ::ember::aot::format_error(pte.error());
  aot::RunOptions ro;
  ro.backends = &xnnpack_backends();
  auto runner = aot::PteRunner::load(*pte, ro);
  ASSERT_TRUE(runner.ok()) << ::ember::aot::format_error(runner.error());
  // Forward then backward over the cases: every shape follows both a smaller and a larger one.
  std::vector<size_t> order;
  for (size_t c = 0; c < f.cases.size(); ++c) order.push_back(c);
  for (size_t c = f.cases.size(); c-- > 0;) order.push_back(c);
  ASSERT_GE(f.cases.size(), 3u) << "fixture should have several shapes";
  for (size_t c : order) {
    SCOPED_TRACE(recipe + " case " + std::to_string(c));
    std::vector<aot::HostTensor> inputs(f.cases[c].inputs.size());
    for (size_t i = 0; i < inputs.size(); ++i) {
      ASSERT_TRUE(read_fixture_tensor(f.cases[c].inputs[i], &inputs[i]));
    }
    auto outputs = runner.get()->run("forward", inputs);
    ASSERT_TRUE(outputs.ok()) << ::ember::aot::format_error(outputs.error());
    ASSERT_EQ(outputs->size(), f.cases[c].outputs.size());
    for (size_t o = 0; o < outputs->size(); ++o) {
      aot::HostTensor ref;
      ASSERT_TRUE(read_fixture_tensor(f.cases[c].outputs[o], &ref));
      EXPECT_EQ((*outputs)[o].sizes, f.cases[c].outputs[o].shape) << "output " << o << " shape";
      Comparison cmp = compare_tensors((*outputs)[o], ref, f.cases[c].outputs[o].exact, f.atol, f.rtol);
      EXPECT_TRUE(cmp.ok) << "output " << o << ": " << cmp.message;
    }
  }
}

const char* const kModels[] = {"mlp_dynamic_batch", "two_dynamic_dims", "transformer_dynamic_seq",
                               "embedding_dynamic_seq"};
const char* const kVariants[] = {".core_aten.torch2_6", ".training_ir.torch2_14"};

TEST(DynamicFixturesTest, PortableAtEveryReferenceShape) {
  for (const char* m : kModels) {
    for (const char* v : kVariants) run_all_cases(std::string(m) + v, "portable");
  }
}

TEST(DynamicFixturesTest, XnnpackAtEveryReferenceShape) {
  for (const char* m : kModels) {
    for (const char* v : kVariants) run_all_cases(std::string(m) + v, "xnnpack");
  }
}

}  // namespace
}  // namespace ember::testing
