#include "llm/tokenizer/tokenizer.h"

#include <fstream>

#include "llm/tokenizer/hf_tokenizer.h"
#include "llm/tokenizer/sentencepiece_tokenizer.h"
#include "llm/tokenizer/tiktoken_tokenizer.h"
#include "runtime/core/diagnostics.h"

namespace ember::llm {
namespace {

bool ends_with(const std::string& s, const char* suffix) {
  const std::string_view sv(suffix);
  return s.size() >= sv.size() && s.compare(s.size() - sv.size(), sv.size(), sv) == 0;
}

template <typename T>
Result<std::unique_ptr<Tokenizer>> upcast(Result<std::unique_ptr<T>> r) {
  if (!r.ok()) return r.error();
  return std::unique_ptr<Tokenizer>(std::move(r.get()));
}

}  // namespace

Result<std::string> read_text_file(const std::string& path, size_t max_bytes) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  EMBER_CHECK_OR_RETURN(in.good(), AccessFailed, "cannot open '%s'", path.c_str());
  const std::streamoff size = in.tellg();
  EMBER_CHECK_OR_RETURN(size >= 0 && static_cast<size_t>(size) <= max_bytes, AccessFailed,
                        "'%s' is larger than %zu bytes", path.c_str(), max_bytes);
  std::string bytes(static_cast<size_t>(size), '\0');
  in.seekg(0);
  in.read(bytes.data(), size);
  EMBER_CHECK_OR_RETURN(in.gcount() == size, AccessFailed, "cannot read '%s'", path.c_str());
  return bytes;
}

Result<std::unique_ptr<Tokenizer>> load_tokenizer(const std::string& path) {
  if (ends_with(path, ".json")) return upcast(HfTokenizer::load(path));
  if (ends_with(path, ".model")) return upcast(SentencePieceTokenizer::load(path));
  if (ends_with(path, ".tiktoken")) return upcast(TiktokenTokenizer::load(path));
  return runtime::fail(Error::NotSupported,
                       "'%s': not a tokenizer.json, SentencePiece .model or .tiktoken file",
                       path.c_str());
}

}  // namespace ember::llm
