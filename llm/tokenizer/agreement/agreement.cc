#include "llm/tokenizer/agreement/agreement.h"

#include <nlohmann/json.hpp>

#include "llm/tokenizer/hf_tokenizer.h"
#include "llm/tokenizer/sentencepiece_tokenizer.h"
#include "llm/tokenizer/tiktoken_tokenizer.h"
#include "runtime/core/diagnostics.h"

namespace ember::llm {
namespace {

constexpr size_t kMaxFile = size_t{1} << 30;

std::string describe_ids(const std::vector<int32_t>& ids) {
  std::string s;
  for (size_t i = 0; i < ids.size() && i < 40; ++i) s += std::to_string(ids[i]) + " ";
  if (ids.size() > 40) s += "...";
  return s;
}

template <typename T>
Result<std::unique_ptr<Tokenizer>> upcast(Result<std::unique_ptr<T>> r) {
  if (!r.ok()) return r.error();
  return std::unique_ptr<Tokenizer>(std::move(r.get()));
}

}  // namespace

const std::vector<std::string>& agreement_tokenizer_names() {
  static const std::vector<std::string> names = {"gpt2",   "llama3",      "qwen",    "smollm",
                                                 "llama2", "spm_unigram", "spm_bpe", "tiktoken"};
  return names;
}

bool agreement_adds_special_tokens(const std::string& name) {
  return name != "tiktoken" && name.rfind("spm_", 0) != 0;
}

Result<std::unique_ptr<Tokenizer>> load_agreement_tokenizer(const std::string& dir,
                                                            const std::string& name) {
  if (name.rfind("spm_", 0) == 0)
    return upcast(SentencePieceTokenizer::load(dir + "/" + name + ".model"));
  if (name != "tiktoken") return upcast(HfTokenizer::load(dir + "/" + name + ".json"));
  EMBER_ASSIGN_OR_RETURN(std::string spec_text,
                         read_text_file(dir + "/tiktoken.specials.json", kMaxFile));
  const auto spec = nlohmann::json::parse(spec_text, nullptr, false);
  EMBER_CHECK_OR_RETURN(!spec.is_discarded() && spec.is_object() && spec["pattern"].is_string() &&
                            spec["special_tokens"].is_object(),
                        InvalidExternalData, "tiktoken.specials.json is malformed");
  std::vector<std::pair<std::string, int32_t>> specials;
  for (auto it = spec["special_tokens"].begin(); it != spec["special_tokens"].end(); ++it) {
    EMBER_CHECK_OR_RETURN(it.value().is_number_integer(), InvalidExternalData, "special id");
    specials.emplace_back(it.key(), it.value().get<int32_t>());
  }
  return upcast(TiktokenTokenizer::load(dir + "/tiktoken.tiktoken",
                                        spec["pattern"].get<std::string>(), specials));
}

std::vector<std::string> split_corpus(const std::string& corpus) {
  std::vector<std::string> records;
  size_t pos = 0;
  for (size_t hit; (hit = corpus.find("\x1e\n", pos)) != std::string::npos; pos = hit + 2) {
    records.push_back(corpus.substr(pos, hit - pos));
  }
  if (pos < corpus.size()) records.push_back(corpus.substr(pos));
  return records;
}

Result<AgreementReport> check_agreement(const Tokenizer& tokenizer,
                                        const std::vector<std::string>& records,
                                        const std::string& reference, bool add_special_tokens,
                                        size_t max_examples) {
  AgreementReport report;
  size_t pos = 0;
  for (const std::string& record : records) {
    const size_t end = reference.find('\n', pos);
    EMBER_CHECK_OR_RETURN(end != std::string::npos, InvalidExternalData,
                          "reference has fewer lines than the corpus's %zu records",
                          records.size());
    const auto line =
        nlohmann::json::parse(reference.begin() + pos, reference.begin() + end, nullptr, false);
    pos = end + 1;
    EMBER_CHECK_OR_RETURN(!line.is_discarded() && line.is_array() && line.size() == 2 &&
                              line[0].is_array() && line[1].is_string(),
                          InvalidExternalData, "reference line %zu is not [ids, text]",
                          report.records + 1);
    std::vector<int32_t> want;
    for (const auto& id : line[0]) want.push_back(id.get<int32_t>());
    EMBER_ASSIGN_OR_RETURN(std::vector<int32_t> got, tokenizer.encode(record, add_special_tokens));
    EMBER_ASSIGN_OR_RETURN(std::string text, tokenizer.decode(want, false));
    const std::string& want_text = line[1].get_ref<const std::string&>();
    const bool ids_ok = got == want, text_ok = text == want_text;
    report.ids_differ += !ids_ok;
    report.text_differs += !text_ok;
    if ((!ids_ok || !text_ok) && report.examples.size() < max_examples) {
      report.examples.push_back("record " + std::to_string(report.records) + " (" +
                                nlohmann::json(record.substr(0, 200))
                                    .dump(-1, ' ', true, nlohmann::json::error_handler_t::replace) +
                                "):\n  want " + describe_ids(want) + "\n  got  " +
                                describe_ids(got) + (text_ok ? "" : "\n  decoded text differs"));
    }
    ++report.records;
    report.corpus_bytes += record.size();
  }
  return report;
}

}  // namespace ember::llm
