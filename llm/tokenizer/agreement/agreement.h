// The tokenizer agreement check: Ember's ids and decoded text for every record of a corpus against
// the reference the Python libraries wrote (refgen/llm_tokenizers/train_and_reference.py). The
// corpus is records separated by "\x1e\n"; the reference has one JSON line per record,
// [ids, decoded text]. Used by the committed-sample test and by the full 10 MB run
// (agreement_check, docs/llm.md).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "llm/tokenizer/tokenizer.h"

namespace ember::llm {

struct AgreementReport {
  size_t records = 0;
  size_t corpus_bytes = 0;
  size_t ids_differ = 0;              // records whose ids differ
  size_t text_differs = 0;            // records whose decoded text differs
  std::vector<std::string> examples;  // the first few differences, described
};

// The agreement tokenizers by name (gpt2, llama3, qwen, smollm, llama2, spm_unigram, spm_bpe,
// tiktoken), loaded from `dir` as train_and_reference.py names them.
const std::vector<std::string>& agreement_tokenizer_names();
Result<std::unique_ptr<Tokenizer>> load_agreement_tokenizer(const std::string& dir,
                                                            const std::string& name);
// Whether the reference was encoded with the post-processor's special tokens (tokenizer.json).
bool agreement_adds_special_tokens(const std::string& name);

// Splits a corpus into its records.
std::vector<std::string> split_corpus(const std::string& corpus);

// Compares `tokenizer` on `records` with the reference text; InvalidExternalData if the
// reference does not parse or has another number of lines.
Result<AgreementReport> check_agreement(const Tokenizer& tokenizer,
                                        const std::vector<std::string>& records,
                                        const std::string& reference, bool add_special_tokens,
                                        size_t max_examples);

}  // namespace ember::llm
