// PteLogitsModel: a LogitsModel (llm/generation/generation.h) over a lowered decoder .pte run by
// runtime::Module. The program's "forward" takes the token ids [1, n] (int64) and their
// positions [n] (int64) -- transformers' exports call them input_ids / cache_position,
// export_llama's tokens / input_pos -- and returns logits [1, n, vocab] (float), or the last
// position's only, [1, 1, vocab] (lower --llm_last_logits, export_llama's default). The KV cache is a
// mutable buffer inside the program's planned memory: one PteLogitsModel is one conversation's
// cache. new_context() makes another over the same loaded program (its own planned memory, the
// weights shared), and state() exposes the cache for saving, restoring and forking.
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

// What a saved session is checked against: the program file's size and a 64-bit hash of its
// bytes (weights included), with the interface read from it.
struct ModelIdentity {
  uint64_t file_size = 0;
  uint64_t content_hash = 0;
  int32_t vocab_size = 0;
  int32_t context_length = 0;
  bool operator==(const ModelIdentity& o) const {
    return file_size == o.file_size && content_hash == o.content_hash &&
           vocab_size == o.vocab_size && context_length == o.context_length;
  }
};

class PteLogitsModel final : public LogitsModel {
 public:
  // Loads `path` (mmap) and its "forward" method, and reads the method's input bounds.
  // InvalidProgram names the method when it does not look like a decoder (two int64 inputs,
  // a float output).
  static Result<std::unique_ptr<PteLogitsModel>> load(const std::string& path,
                                                      const runtime::Module::Options& options = {});
  ~PteLogitsModel() override;

  // Another context on the same loaded program: its own planned memory (an empty cache), the
  // program, weights and delegates' files shared. Contexts may run on different threads at
  // once; making and destroying them is serialised internally.
  Result<std::unique_ptr<PteLogitsModel>> new_context();

  // Runs `tokens` at start_pos, start_pos + 1, ...; the logits after the last one.
  // InvalidArgument when there are no tokens, more than the program's sequence bound, or
  // positions past the context length.
  Result<std::vector<float>> forward(const std::vector<int32_t>& tokens,
                                     int32_t start_pos) override;

  // The cache and other state between forward() calls (runtime::Module::method_state): the
  // program's mutable buffers, or its planned buffers whole when it marks none.
  Result<std::vector<runtime::Module::StateRange>> state();
  // Copies another context's state (same program) into this one: a forked conversation.
  Error copy_state_from(PteLogitsModel& other);

  // The file's identity; the hash is computed once per loaded program, on first use.
  Result<ModelIdentity> identity();

  // The longest run one forward() accepts (the sequence length's upper bound).
  int32_t max_seq_len() const { return max_seq_len_; }
  // The number of positions the program's cache holds (from its export metadata when it has
  // it, else the largest position a cache sized for one full prefill can take).
  int32_t context_length() const { return context_length_; }
  int32_t vocab_size() const { return vocab_size_; }

 private:
  struct Shared;
  explicit PteLogitsModel(std::shared_ptr<Shared> shared) : shared_(std::move(shared)) {}

  std::shared_ptr<Shared> shared_;
  runtime::Method* method_ = nullptr;
  bool instance_ = false;  // from new_context(): unloaded by the destructor
  int32_t max_seq_len_ = 0;
  int32_t context_length_ = 0;
  int32_t vocab_size_ = 0;
};

// What a decoder program needs in memory, read from the file without loading its method or
// touching its weights: the file (weights and program, mapped and shared by every context),
// per context the planned memory (activations and the KV cache) of which the KV cache and
// other mutable buffers (0 when the program marks none: a saved session then holds the planned
// memory whole), and the temp allocator Module gives each context.
struct DecoderMemory {
  uint64_t file_bytes = 0;
  uint64_t planned_bytes = 0;
  uint64_t state_bytes = 0;
  uint64_t temp_bytes = 0;
  int32_t max_seq_len = 0;
  int32_t context_length = 0;
  int32_t vocab_size = 0;
  // One context: file + planned + temp.
  uint64_t total_bytes() const { return file_bytes + planned_bytes + temp_bytes; }
};

// InvalidProgram when "forward" is not a decoder (as load()); NotFound for a missing file.
Result<DecoderMemory> estimate_memory(const std::string& path,
                                      const runtime::Module::Options& options = {});

// The ContentHash (content_hash.h) of a file's bytes, and its size: the identity a saved
// session checks. NotFound / AccessFailed name the file.
Result<uint64_t> hash_file(const std::string& path, uint64_t* size);

}  // namespace ember::llm
