// A hand-written byte-level tokenizer.json whose ids are worked out by hand from the BPE rules:
// split with GPT-2's regex, start from bytes, merge the lowest-ranked pair first.
#include "llm/tokenizer/hf_tokenizer.h"

#include <gtest/gtest.h>

#include "runtime/core/diagnostics.h"

namespace ember::llm {
namespace {

// Vocabulary: a=0 b=1 c=2 "Ġ"(space)=3 ab=4 abc=5 Ġa=6, special <|eot|>=7.
// Merges by rank: (a b)=0, (ab c)=1, (Ġ a)=2.
const char kJson[] = R"({
  "added_tokens": [{"id": 7, "content": "<|eot|>", "special": true}],
  "normalizer": null,
  "pre_tokenizer": {"type": "ByteLevel", "add_prefix_space": false, "use_regex": true},
  "post_processor": {"type": "TemplateProcessing",
    "single": [{"SpecialToken": {"id": "<|eot|>", "type_id": 0}}, {"Sequence": {"id": "A", "type_id": 0}}],
    "special_tokens": {"<|eot|>": {"id": "<|eot|>", "ids": [7], "tokens": ["<|eot|>"]}}},
  "decoder": {"type": "ByteLevel"},
  "model": {"type": "BPE", "vocab": {"a": 0, "b": 1, "c": 2, "\u0120": 3, "ab": 4, "abc": 5, "\u0120a": 6},
            "merges": ["a b", "ab c", "\u0120 a"]}
})";

std::unique_ptr<HfTokenizer> make() {
  auto t = HfTokenizer::from_json(kJson);
  EXPECT_TRUE(t.ok()) << runtime::last_error_message();
  return std::move(t.get());
}

TEST(HfTokenizerTest, LowestRankMergesFirst) {
  auto t = make();
  // "abc" -> a b c -> ab c -> abc. " ab" -> Ġ a b: (a b) rank 0 beats (Ġ a) rank 2 -> Ġ ab.
  auto ids = t->encode("abc ab", false);
  ASSERT_TRUE(ids.ok());
  EXPECT_EQ(ids.get(), (std::vector<int32_t>{5, 3, 4}));
  // " ac" -> Ġ a c: only (Ġ a) merges -> Ġa c.
  EXPECT_EQ(t->encode(" ac", false).get(), (std::vector<int32_t>{6, 2}));
}

TEST(HfTokenizerTest, SpecialTokensSplitAndTemplate) {
  auto t = make();
  EXPECT_EQ(t->encode("a<|eot|>b", true).get(), (std::vector<int32_t>{7, 0, 7, 1}));
  EXPECT_EQ(t->decode({7, 0, 7, 1}, true).get(), "ab");
  EXPECT_EQ(t->decode({5, 3, 4}, false).get(), "abc ab");
}

TEST(HfTokenizerTest, BytesOutsideTheVocabularyAreDropped) {
  auto t = make();
  // 'd' has no token (a real byte-level vocabulary has all 256).
  EXPECT_EQ(t->encode("dab", false).get(), (std::vector<int32_t>{4}));
}

TEST(HfTokenizerTest, LongWhitespaceRunIsOneWordOfSpaces) {
  auto t = make();
  // GPT-2's regex takes the whole run with \s+(?!\S) (nothing follows it); no merge joins two
  // "Ġ", so 200,000 spaces are 200,000 ids 3.
  auto ids = t->encode(std::string(200000, ' '), false);
  ASSERT_TRUE(ids.ok()) << runtime::last_error_message();
  EXPECT_EQ(ids.get(), std::vector<int32_t>(200000, 3));
}

TEST(HfTokenizerTest, BadIdIsANamedError) {
  auto t = make();
  auto text = t->decode({99}, false);
  ASSERT_FALSE(text.ok());
  EXPECT_EQ(text.error(), Error::InvalidArgument);
  EXPECT_NE(std::string(runtime::last_error_message()).find("99"), std::string::npos);
}

TEST(HfTokenizerTest, MalformedFilesAreNamedErrors) {
  const char* cases[] = {
      "",
      "[]",
      "{\"model\": 3}",
      "{\"model\": {\"type\": \"WordPiece\", \"vocab\": {}}}",
      "{\"model\": {\"vocab\": {\"a\": -1}}}",
      "{\"model\": {\"vocab\": {\"a\": 0}, \"merges\": [\"a\"]}}",
      "{\"model\": {\"vocab\": {\"a\": 0}, \"merges\": [\"a b\"]}}",
      "{\"model\": {\"vocab\": {}}, \"pre_tokenizer\": {\"type\": \"Split\", \"pattern\": "
      "{\"Regex\": \"(\"}, \"behavior\": \"Isolated\"}}",
      "{\"model\": {\"vocab\": {}}, \"normalizer\": {\"type\": \"Lowercase\"}}",
  };
  for (const char* json : cases) {
    auto t = HfTokenizer::from_json(json);
    EXPECT_FALSE(t.ok()) << json;
    EXPECT_STRNE(runtime::last_error_message(), "") << json;
  }
}

}  // namespace
}  // namespace ember::llm
