// A test tokenizer: id i decodes to pieces[i]; decode() concatenates and makes the bytes valid
// UTF-8, as every real tokenizer's decode does. Encoding is not needed by the generation tests.
#pragma once

#include <string>
#include <vector>

#include "llm/tokenizer/tokenizer.h"
#include "llm/tokenizer/utf8.h"
#include "runtime/core/diagnostics.h"

namespace ember::llm::testing {

class FakeTokenizer final : public Tokenizer {
 public:
  explicit FakeTokenizer(std::vector<std::string> pieces) : pieces_(std::move(pieces)) {}
  Result<std::vector<int32_t>> encode(std::string_view, bool) const override {
    return runtime::fail(Error::NotSupported, "fake tokenizer");
  }
  Result<std::string> decode(const std::vector<int32_t>& ids, bool) const override {
    std::string out;
    for (int32_t id : ids) {
      EMBER_CHECK_OR_RETURN(id >= 0 && id < vocab_size(), InvalidArgument, "id %d", id);
      out += pieces_[id];
    }
    return sanitize_utf8(out);
  }
  int32_t vocab_size() const override { return static_cast<int32_t>(pieces_.size()); }
  std::optional<int32_t> token_id(std::string_view) const override { return std::nullopt; }
  bool is_special(int32_t) const override { return false; }

 private:
  std::vector<std::string> pieces_;
};

}  // namespace ember::llm::testing
