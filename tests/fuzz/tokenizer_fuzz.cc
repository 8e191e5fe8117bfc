// libFuzzer target over //llm/tokenizer's readers (tokenizer.json, tiktoken, SentencePiece) and
// the byte-level encoder (tokenizer_run_fuzz.sh builds and runs it; tokenizer_fuzz_test drives
// the same entry point in `bazel test`).
#include "tests/fuzz/tokenizer_fuzz.h"

#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "llm/tokenizer/byte_level.h"
#include "llm/tokenizer/hf_tokenizer.h"
#include "llm/tokenizer/sentencepiece_tokenizer.h"
#include "llm/tokenizer/tiktoken_tokenizer.h"
#include "runtime/core/diagnostics.h"

namespace ember::fuzz {
namespace {

using llm::Tokenizer;
using runtime::Error;

// A small byte-level tokenizer.json: every byte, a few merges, an added token, NFC, digits.
std::string fixed_tokenizer_json() {
  nlohmann::json vocab = nlohmann::json::object();
  for (int b = 0; b < 256; ++b) vocab[llm::bytes_to_byte_level(std::string(1, char(b)))] = b;
  vocab["th"] = 256;
  vocab["the"] = 257;
  vocab["\xC4\xA0t"] = 258;    // "Ġt"
  vocab["\xC4\xA0the"] = 259;  // "Ġthe"
  nlohmann::json j = nlohmann::json::parse(R"({
    "added_tokens": [{"id": 300, "content": "<|end|>", "special": true, "lstrip": true}],
    "normalizer": {"type": "NFC"},
    "pre_tokenizer": {"type": "Sequence", "pretokenizers": [
      {"type": "Digits", "individual_digits": true},
      {"type": "ByteLevel", "add_prefix_space": false, "use_regex": true}]},
    "decoder": {"type": "ByteLevel"},
    "model": {"type": "BPE", "merges": ["t h", "th e", "\u0120 t", "\u0120 the"]}})");
  j["model"]["vocab"] = vocab;
  return j.dump();
}

const Tokenizer* fixed_tokenizer() {
  static const std::unique_ptr<llm::HfTokenizer> t = [] {
    auto r = llm::HfTokenizer::from_json(fixed_tokenizer_json());
    return r.ok() ? std::move(r.get()) : nullptr;
  }();
  return t.get();
}

// Uses a tokenizer that loaded: encode and decode edge-case text, decode edge ids.
Error exercise(const Tokenizer& t, std::string_view text) {
  static const char kEdge[] = "the 123 \xF0\x9F\x98\x80 e\xCC\x81 \xFF\xC0 <|end|>  \t\n";
  for (std::string_view s : {std::string_view(kEdge), text}) {
    auto ids = t.encode(s, true);
    if (!ids.ok()) return ids.error();
    auto back = t.decode(ids.get(), false);
    if (!back.ok()) return back.error();
  }
  const int32_t n = t.vocab_size();
  for (int32_t id : {0, n - 1, n, -1}) {
    auto r = t.decode({id}, true);
    (void)r;  // an id outside the vocabulary is InvalidArgument; either way no crash
  }
  return Error::Ok;
}

}  // namespace

Error tokenizer_fuzz_input(const uint8_t* data, size_t size) {
  if (size == 0) return Error::Ok;
  const std::string_view bytes(reinterpret_cast<const char*>(data) + 1, size - 1);
  switch (data[0] % 4) {
    case 0: {
      auto t = llm::HfTokenizer::from_json(bytes);
      return t.ok() ? exercise(*t.get(), "fuzz") : t.error();
    }
    case 1: {
      auto t = llm::TiktokenTokenizer::from_text(bytes, llm::kCl100kSplitPattern,
                                                 {{"<|endoftext|>", 100000}});
      return t.ok() ? exercise(*t.get(), "fuzz") : t.error();
    }
    case 2: {
      auto t = llm::SentencePieceTokenizer::from_bytes(bytes);
      return t.ok() ? exercise(*t.get(), "fuzz") : t.error();
    }
    default: {
      const Tokenizer* t = fixed_tokenizer();
      if (t == nullptr) return runtime::fail(Error::Internal, "the fixed tokenizer does not load");
      return exercise(*t, bytes);
    }
  }
}

}  // namespace ember::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  ember::runtime::clear_error_message();
  (void)ember::fuzz::tokenizer_fuzz_input(data, size);
  return 0;
}
