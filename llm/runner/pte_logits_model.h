// PteLogitsModel: a LogitsModel (llm/generation/generation.h) over a lowered decoder .pte run by
// runtime::Module. The program's "forward" takes the token ids [1, n] (int64) and their
// positions [n] (int64) -- transformers' exports call them input_ids / cache_position,
// export_llama's tokens / input_pos -- and returns logits [1, n, vocab] (float). The KV cache is a
// mutable buffer inside the program, so one loaded program is one conversation: the prefill
// runs the prompt with its dynamic length, then each decode step runs one token.
//
// The kernels and backends the program calls must be registered in the process-wide registries
// (or in Module::Options) before load(); the program that links this library does that.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "llm/generation/generation.h"
#include "runtime/module/module.h"

namespace ember::llm {

class PteLogitsModel final : public LogitsModel {
 public:
  // Loads `path` (mmap) and its "forward" method, and reads the method's input bounds.
  // InvalidProgram names the method when it does not look like a decoder (two int64 inputs,
  // a float output).
  static Result<std::unique_ptr<PteLogitsModel>> load(const std::string& path,
                                                      const runtime::Module::Options& options = {});

  // Runs `tokens` at start_pos, start_pos + 1, ...; the logits after the last one.
  // InvalidArgument when there are no tokens, more than the program's sequence bound, or
  // positions past the context length.
  Result<std::vector<float>> forward(const std::vector<int32_t>& tokens,
                                     int32_t start_pos) override;

  // The longest run one forward() accepts (the sequence length's upper bound).
  int32_t max_seq_len() const { return max_seq_len_; }
  // The number of positions the program's cache holds (from its export metadata when it has
  // it, else the largest position a cache sized for one full prefill can take).
  int32_t context_length() const { return context_length_; }
  int32_t vocab_size() const { return vocab_size_; }

 private:
  explicit PteLogitsModel(std::unique_ptr<runtime::Module> module) : module_(std::move(module)) {}

  std::unique_ptr<runtime::Module> module_;
  int32_t max_seq_len_ = 0;
  int32_t context_length_ = 0;
  int32_t vocab_size_ = 0;
};

}  // namespace ember::llm
