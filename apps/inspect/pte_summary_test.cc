// summarize_pte on a program lowered from the committed mlp fixture (torch 2.6 core ATen:
// x[4,16] -> 3 x (permute weight, addmm) with relu between). Expected values by hand:
// 3 permute_copy.out + 3 addmm.out + 2 relu.out; the lower bound is the live set at the
// second addmm: relu out (4x32 f32 = 512 B) + permuted fc2 weight (32x32 = 4096 B) + its
// output (512 B) = 5120 B. Also: bytes that are not a program give a named error.
#include "apps/inspect/pte_summary.h"

#include <gtest/gtest.h>

#include <cstdlib>

#include "aot/recipe/export_session.h"

#include "tests/support/shared_fixtures.h"

namespace ember::aot {
namespace {

using ember::testing::committed_pt2_fixture;

TEST(PteSummaryTest, LoweredMlp) {
  RecipeRegistry recipes;
  ASSERT_EQ(register_builtin_recipes(&recipes), Error::Ok);
  auto session =
      ExportSession::create(recipes, "portable", committed_pt2_fixture("mlp.core_aten.torch2_6.pt2"));
  ASSERT_TRUE(session.ok()) << format_error(session.error());
  ASSERT_EQ(session->run(), Error::Ok);
  auto s = summarize_pte(*session->pte());
  ASSERT_TRUE(s.ok()) << format_error(s.error());
  ASSERT_EQ(s->methods.size(), 1u);
  const PteMethodSummary& m = s->methods[0];
  EXPECT_EQ(m.name, "forward");
  ASSERT_EQ(m.inputs.size(), 1u);
  EXPECT_EQ(m.inputs[0].to_string(), "f32[4, 16]");
  ASSERT_EQ(m.outputs.size(), 1u);
  EXPECT_EQ(m.outputs[0].to_string(), "f32[4, 10]");
  // The portable recipe transposes the linear weights ahead of time (no permute_copy).
  EXPECT_EQ(m.op_histogram, (std::map<std::string, int>{{"aten::addmm.out", 3}, {"aten::relu.out", 2}}));
  EXPECT_TRUE(m.delegates.empty());
  // Two f32[4, 32] activations (512 B each) live at once.
  EXPECT_EQ(m.lower_bound, 1024u);
  EXPECT_EQ(m.arena_bytes, 1024u);
  EXPECT_EQ(s->num_constants, 6u);  // 3 weights + 3 biases
  // 3 weights (2048 + 4096 + 1280) and 3 biases (128 + 128 + 40), each padded to 16 but the
  // last (a weight, so the 40-byte bias takes 48).
  EXPECT_EQ(s->constants_bytes, 2048u + 128u + 4096u + 128u + 1280u + 48u);
  std::string text = pte_summary_text(s.get());
  EXPECT_NE(text.find("lower bound 1024 B (ratio 1.000)"), std::string::npos) << text;
}

TEST(PteSummaryTest, NotAProgram) {
  std::vector<uint8_t> junk(64, 0x5a);
  auto s = summarize_pte(junk);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error(), Error::InvalidProgram);
  junk[4] = 'E', junk[5] = 'T', junk[6] = '1', junk[7] = '2';
  auto again = summarize_pte(junk);
  ASSERT_FALSE(again.ok());
  EXPECT_NE(std::string(last_error_message()).find("failed verification"), std::string::npos) << std::string(last_error_message());
}

// Issue #16: upstream's add.pte with bytes 570 and 572 set to 0 keeps a verified FlatBuffer
// whose value 0 is tagged Tensor but holds no table; inspect used to dereference it.
TEST(PteSummaryTest, TaggedValueWithoutTable) {
  const std::string dir = ember::testing::shared_dir();
  if (dir.empty()) GTEST_SKIP() << ember::testing::skip_message();
  std::vector<uint8_t> bytes;
  ASSERT_TRUE(ember::testing::read_file(dir + "/fixtures/executorch-pte/pytorch__executorch__add.pte", &bytes));
  ASSERT_EQ(bytes.size(), 728u);
  bytes[570] = 0;
  bytes[572] = 0;
  auto s = summarize_pte(bytes);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error(), Error::InvalidProgram);
  EXPECT_NE(std::string(last_error_message()).find("method 'forward' value "), std::string::npos)
      << last_error_message();
  EXPECT_NE(std::string(last_error_message()).find("tagged Tensor but holds no Tensor"), std::string::npos)
      << last_error_message();
}

}  // namespace
}  // namespace ember::aot
