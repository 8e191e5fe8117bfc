#include "llm/tokenizer/sentencepiece_tokenizer.h"

#include <sentencepiece_processor.h>

#include "llm/tokenizer/utf8.h"
#include "runtime/core/diagnostics.h"

namespace ember::llm {
namespace {

constexpr size_t kMaxModelBytes = size_t{1} << 30;

}  // namespace

SentencePieceTokenizer::SentencePieceTokenizer()
    : processor_(std::make_unique<sentencepiece::SentencePieceProcessor>()) {}
SentencePieceTokenizer::~SentencePieceTokenizer() = default;

Result<std::unique_ptr<SentencePieceTokenizer>> SentencePieceTokenizer::load(
    const std::string& path) {
  EMBER_ASSIGN_OR_RETURN(std::string bytes, read_text_file(path, kMaxModelBytes));
  auto tokenizer = from_bytes(bytes);
  if (!tokenizer.ok()) return runtime::annotate(tokenizer.error(), "%s", path.c_str());
  return std::move(tokenizer.get());
}

Result<std::unique_ptr<SentencePieceTokenizer>> SentencePieceTokenizer::from_bytes(
    std::string_view model) {
  std::unique_ptr<SentencePieceTokenizer> t(new SentencePieceTokenizer());
  const auto status = t->processor_->LoadFromSerializedProto(model);
  EMBER_CHECK_OR_RETURN(status.ok(), InvalidExternalData, "SentencePiece model: %s",
                        status.ToString().c_str());
  return t;
}

Result<std::vector<int32_t>> SentencePieceTokenizer::encode(std::string_view text,
                                                            bool add_special_tokens) const {
  std::vector<int> pieces;
  const auto status = processor_->Encode(sanitize_utf8(text), &pieces);
  EMBER_CHECK_OR_RETURN(status.ok(), InvalidArgument, "SentencePiece encode: %s",
                        status.ToString().c_str());
  std::vector<int32_t> ids;
  ids.reserve(pieces.size() + 1);
  if (add_special_tokens && processor_->bos_id() >= 0) ids.push_back(processor_->bos_id());
  ids.insert(ids.end(), pieces.begin(), pieces.end());
  return ids;
}

Result<std::string> SentencePieceTokenizer::decode(const std::vector<int32_t>& ids,
                                                   bool skip_special_tokens) const {
  std::vector<int> pieces;
  pieces.reserve(ids.size());
  for (int32_t id : ids) {
    EMBER_CHECK_OR_RETURN(id >= 0 && id < vocab_size(), InvalidArgument,
                          "decode: id %d is not in the vocabulary (size %d)", id, vocab_size());
    if (skip_special_tokens && is_special(id)) continue;
    pieces.push_back(id);
  }
  std::string text;
  const auto status = processor_->Decode(pieces, &text);
  EMBER_CHECK_OR_RETURN(status.ok(), InvalidArgument, "SentencePiece decode: %s",
                        status.ToString().c_str());
  return sanitize_utf8(text);
}

int32_t SentencePieceTokenizer::vocab_size() const { return processor_->GetPieceSize(); }

std::optional<int32_t> SentencePieceTokenizer::token_id(std::string_view token) const {
  const int id = processor_->PieceToId(token);
  if (id < 0 || (processor_->IsUnknown(id) && processor_->IdToPiece(id) != token)) {
    return std::nullopt;
  }
  return id;
}

bool SentencePieceTokenizer::is_special(int32_t id) const {
  return id >= 0 && id < vocab_size() && processor_->IsControl(id);
}

}  // namespace ember::llm
