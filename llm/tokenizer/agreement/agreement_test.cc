// The committed agreement sample (llm/tokenizer/testdata: 767 records of the 11 MB corpus, the
// tokenizers trained on it and Python's ids and decoded text, written by
// refgen/llm_tokenizers/train_and_reference.py): every record must agree exactly.
#include "llm/tokenizer/agreement/agreement.h"

#include <gtest/gtest.h>

#include "runtime/core/diagnostics.h"
#include "tests/support/shared_fixtures.h"

namespace ember::llm {
namespace {

class AgreementTest : public ::testing::TestWithParam<std::string> {};

TEST_P(AgreementTest, IdsAndDecodedTextMatchPython) {
  const std::string dir = ember::testing::runfiles_root() + "/llm/tokenizer/testdata";
  const std::string name = GetParam();
  auto corpus = read_text_file(dir + "/sample_corpus.bin", size_t{1} << 26);
  ASSERT_TRUE(corpus.ok()) << runtime::last_error_message();
  auto reference = read_text_file(dir + "/" + name + ".ref", size_t{1} << 26);
  ASSERT_TRUE(reference.ok()) << runtime::last_error_message();
  auto tokenizer = load_agreement_tokenizer(dir, name);
  ASSERT_TRUE(tokenizer.ok()) << runtime::last_error_message();
  const auto records = split_corpus(corpus.get());
  auto report = check_agreement(*tokenizer.get(), records, reference.get(),
                                agreement_adds_special_tokens(name), 3);
  ASSERT_TRUE(report.ok()) << runtime::last_error_message();
  EXPECT_GT(report->records, 700u);
  EXPECT_EQ(report->ids_differ, 0u);
  EXPECT_EQ(report->text_differs, 0u);
  for (const std::string& e : report->examples) ADD_FAILURE() << e;
}

INSTANTIATE_TEST_SUITE_P(Tokenizers, AgreementTest,
                         ::testing::ValuesIn(agreement_tokenizer_names()),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace ember::llm
