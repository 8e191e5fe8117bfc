// A hand-written rank file: "a"=0 "b"=1 "c"=2 " "=3 "bc"=4 "ab"=5 "abc"=6. Merges go by the
// rank of the concatenation, so in "abc" the pair (b c)=4 merges before (a b)=5, then a+bc=abc.
#include "llm/tokenizer/tiktoken_tokenizer.h"

#include <gtest/gtest.h>

#include "runtime/core/diagnostics.h"

namespace ember::llm {
namespace {

// base64: a=YQ== b=Yg== c=Yw== " "=IA== bc=YmM= ab=YWI= abc=YWJj
const char kRanks[] = "YQ== 0\nYg== 1\nYw== 2\nIA== 3\nYmM= 4\nYWI= 5\nYWJj 6\n";

TEST(TiktokenTokenizerTest, MergesByRankOfTheConcatenation) {
  auto t = TiktokenTokenizer::from_text(kRanks, "\\S+|\\s+", {{"<|end|>", 7}});
  ASSERT_TRUE(t.ok()) << runtime::last_error_message();
  EXPECT_EQ(t.get()->encode("abc", false).get(), (std::vector<int32_t>{6}));
  // "cab": (c a) is no token, (a b)=5 merges -> c ab.
  EXPECT_EQ(t.get()->encode("cab", false).get(), (std::vector<int32_t>{2, 5}));
  EXPECT_EQ(t.get()->encode("cab<|end|> a", false).get(), (std::vector<int32_t>{2, 5, 7, 3, 0}));
  EXPECT_EQ(t.get()->decode({2, 5, 7, 3, 0}, true).get(), "cab a");
}

TEST(TiktokenTokenizerTest, MalformedRankFilesAreNamedErrors) {
  const char* cases[] = {"YQ==\n",           "YQ== x\n",         "Y!== 0\n",
                         "YQ== 0\nYQ== 1\n", "YQ== 0\nYg== 0\n", "YQ== 99999999\n"};
  for (const char* text : cases) {
    auto t = TiktokenTokenizer::from_text(text, kCl100kSplitPattern, {});
    EXPECT_FALSE(t.ok()) << text;
    EXPECT_EQ(t.error(), Error::InvalidExternalData) << text;
  }
}

}  // namespace
}  // namespace ember::llm
