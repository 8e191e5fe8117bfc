#include "llm/runner/pte_logits_model.h"

#include <cstdio>
#include <cstring>
#include <mutex>
#include <string>

#include "llm/runner/content_hash.h"
#include "runtime/core/diagnostics.h"
#include "runtime/core/tensor.h"

namespace ember::llm {

struct PteLogitsModel::Shared {
  std::string path;
  std::unique_ptr<runtime::Module> module;
  std::mutex mu;  // guards module's method instances and the hash below
  bool hashed = false;
  uint64_t file_size = 0;
  uint64_t content_hash = 0;
};

using runtime::EValue;
using runtime::ScalarType;
using runtime::Tensor;

namespace {

// Checks "forward" is a decoder: inputs ids [1, n] and positions [n] (int64), output 0 float
// [1, n, vocab] (or [1, 1, vocab]: the last position's logits only). Returns n's bound and the vocabulary size.
Error read_shapes(runtime::Module& module, int32_t* max_seq, int32_t* vocab) {
  EMBER_ASSIGN_OR_RETURN(runtime::MethodMeta meta, module.method_meta("forward"));
  if (meta.num_inputs() != 2 || meta.num_outputs() < 1) {
    return runtime::fail(Error::InvalidProgram,
                         "forward has %zu inputs and %zu outputs; a decoder takes (token ids "
                         "[1, n], positions [n]) and returns logits [1, n, vocab]",
                         meta.num_inputs(), meta.num_outputs());
  }
  EMBER_ASSIGN_OR_RETURN(runtime::TensorInfo ids, meta.input_tensor_meta(0));
  EMBER_ASSIGN_OR_RETURN(runtime::TensorInfo pos, meta.input_tensor_meta(1));
  EMBER_ASSIGN_OR_RETURN(runtime::TensorInfo logits, meta.output_tensor_meta(0));
  if (ids.scalar_type() != ScalarType::Long || ids.sizes().size() != 2 ||
      pos.scalar_type() != ScalarType::Long || pos.sizes().size() != 1) {
    return runtime::fail(Error::InvalidProgram,
                         "forward's inputs are not int64 token ids [1, n] and positions [n]");
  }
  if (logits.scalar_type() != ScalarType::Float || logits.sizes().size() != 3) {
    return runtime::fail(Error::InvalidProgram,
                         "forward's output 0 is not float logits [1, n, vocab] or [1, 1, vocab]");
  }
  if (logits.sizes()[0] != 1 || (logits.sizes()[1] != 1 && logits.sizes()[1] != ids.sizes()[1])) {
    return runtime::fail(Error::InvalidProgram,
                         "forward's logits are bounded [%d, %d, %d] for token ids [%d, %d]; a "
                         "decoder returns [1, n, vocab] or the last position's [1, 1, vocab]",
                         logits.sizes()[0], logits.sizes()[1], logits.sizes()[2],
                         ids.sizes()[0], ids.sizes()[1]);
  }
  *max_seq = ids.sizes()[1];
  *vocab = logits.sizes()[2];
  if (*max_seq < 1 || *vocab < 1) {
    return runtime::fail(Error::InvalidProgram, "forward's bounds are empty (n <= %d, vocab %d)",
                         *max_seq, *vocab);
  }
  return Error::Ok;
}

}  // namespace

Result<std::unique_ptr<PteLogitsModel>> PteLogitsModel::load(
    const std::string& path, const runtime::Module::Options& options) {
  auto shared = std::make_shared<Shared>();
  shared->path = path;
  shared->module = std::make_unique<runtime::Module>(path);
  shared->module->set_options(options);
  EMBER_TRY_CONTEXT(shared->module->load(), "loading %s", path.c_str());
  std::unique_ptr<PteLogitsModel> model(new PteLogitsModel(shared));
  EMBER_TRY(read_shapes(*shared->module, &model->max_seq_len_, &model->vocab_size_));
  // The cache holds as many positions as the longest prefill may fill: the exports size their
  // sequence bound to the cache (max_cache_len), so a position past it has no cache slot.
  model->context_length_ = model->max_seq_len_;
  EMBER_ASSIGN_OR_RETURN(model->method_, shared->module->load_method("forward"));
  return model;
}

PteLogitsModel::~PteLogitsModel() {
  if (instance_ && method_ != nullptr) {
    std::lock_guard<std::mutex> lock(shared_->mu);
    shared_->module->unload_method_instance(method_);
  }
}

Result<std::unique_ptr<PteLogitsModel>> PteLogitsModel::new_context() {
  std::unique_ptr<PteLogitsModel> model(new PteLogitsModel(shared_));
  model->max_seq_len_ = max_seq_len_;
  model->context_length_ = context_length_;
  model->vocab_size_ = vocab_size_;
  std::lock_guard<std::mutex> lock(shared_->mu);
  EMBER_ASSIGN_OR_RETURN(model->method_, shared_->module->load_method_instance("forward"));
  model->instance_ = true;
  return model;
}

Result<std::vector<runtime::Module::StateRange>> PteLogitsModel::state() {
  std::lock_guard<std::mutex> lock(shared_->mu);
  return shared_->module->method_state(*method_);
}

Error PteLogitsModel::copy_state_from(PteLogitsModel& other) {
  if (other.shared_ != shared_) {
    return runtime::fail(Error::InvalidArgument,
                         "copy_state_from: the contexts belong to different loaded programs");
  }
  if (&other == this) return Error::Ok;
  EMBER_ASSIGN_OR_RETURN(std::vector<runtime::Module::StateRange> from, other.state());
  EMBER_ASSIGN_OR_RETURN(std::vector<runtime::Module::StateRange> to, state());
  if (from.size() != to.size()) {
    return runtime::fail(Error::Internal, "copy_state_from: %zu state ranges, %zu expected",
                         from.size(), to.size());
  }
  for (size_t i = 0; i < from.size(); ++i) {
    if (from[i].bytes.size() != to[i].bytes.size()) {
      return runtime::fail(Error::Internal, "copy_state_from: state range %zu sizes differ", i);
    }
    std::memcpy(to[i].bytes.data(), from[i].bytes.data(), from[i].bytes.size());
  }
  return Error::Ok;
}

Result<ModelIdentity> PteLogitsModel::identity() {
  std::lock_guard<std::mutex> lock(shared_->mu);
  if (!shared_->hashed) {
    EMBER_ASSIGN_OR_RETURN(shared_->content_hash, hash_file(shared_->path, &shared_->file_size));
    shared_->hashed = true;
  }
  ModelIdentity id;
  id.file_size = shared_->file_size;
  id.content_hash = shared_->content_hash;
  id.vocab_size = vocab_size_;
  id.context_length = context_length_;
  return id;
}

Result<DecoderMemory> estimate_memory(const std::string& path,
                                      const runtime::Module::Options& options) {
  runtime::Module module(path);
  module.set_options(options);
  EMBER_TRY_CONTEXT(module.load(), "loading %s", path.c_str());
  DecoderMemory m;
  EMBER_TRY(read_shapes(module, &m.max_seq_len, &m.vocab_size));
  m.context_length = m.max_seq_len;  // as PteLogitsModel::load
  EMBER_ASSIGN_OR_RETURN(runtime::MethodMeta meta, module.method_meta("forward"));
  for (size_t i = 0; i < meta.num_memory_planned_buffers(); ++i) {
    EMBER_ASSIGN_OR_RETURN(int64_t size, meta.memory_planned_buffer_size(i));
    m.planned_bytes += static_cast<uint64_t>(size);
  }
  EMBER_ASSIGN_OR_RETURN(m.state_bytes, meta.mutable_buffer_bytes());
  m.temp_bytes = options.temp_allocator_bytes;
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) return runtime::fail(Error::NotFound, "cannot open '%s'", path.c_str());
  std::fseek(f, 0, SEEK_END);
  m.file_bytes = static_cast<uint64_t>(std::ftell(f));
  std::fclose(f);
  return m;
}

Result<uint64_t> hash_file(const std::string& path, uint64_t* size) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) return runtime::fail(Error::NotFound, "cannot open '%s'", path.c_str());
  ContentHash hash;
  uint64_t total = 0;
  std::vector<uint8_t> chunk(size_t(1) << 20);
  for (;;) {
    const size_t got = std::fread(chunk.data(), 1, chunk.size(), f);
    hash.update(chunk.data(), got);
    total += got;
    if (got < chunk.size()) break;
  }
  const bool failed = std::ferror(f) != 0;
  std::fclose(f);
  if (failed) return runtime::fail(Error::AccessFailed, "cannot read '%s'", path.c_str());
  *size = total;
  return hash.finish();
}

Result<std::vector<float>> PteLogitsModel::forward(const std::vector<int32_t>& tokens,
                                                   int32_t start_pos) {
  const int64_t n = static_cast<int64_t>(tokens.size());
  if (n == 0 || n > max_seq_len_) {
    return runtime::fail(Error::InvalidArgument,
                         "a forward runs 1 to %d tokens (the program's bound), not %lld",
                         max_seq_len_, static_cast<long long>(n));
  }
  if (start_pos < 0 || start_pos + n > context_length_) {
    return runtime::fail(Error::InvalidArgument,
                         "positions %d..%lld are outside the context of %d positions", start_pos,
                         static_cast<long long>(start_pos + n - 1), context_length_);
  }
  std::vector<int64_t> ids(tokens.begin(), tokens.end());
  std::vector<int64_t> positions(n);
  for (int64_t i = 0; i < n; ++i) positions[i] = start_pos + i;
  int32_t ids_sizes[2] = {1, static_cast<int32_t>(n)};
  uint8_t ids_order[2] = {0, 1};
  int32_t ids_strides[2];
  int32_t pos_sizes[1] = {static_cast<int32_t>(n)};
  uint8_t pos_order[1] = {0};
  int32_t pos_strides[1];
  Tensor ids_t(ScalarType::Long, 2, ids_sizes, ids_order, ids_strides, ids.data());
  Tensor pos_t(ScalarType::Long, 1, pos_sizes, pos_order, pos_strides, positions.data());
  EMBER_TRY(method_->set_input(EValue(&ids_t), 0));
  EMBER_TRY(method_->set_input(EValue(&pos_t), 1));
  EMBER_TRY(method_->execute());
  if (method_->outputs_size() < 1 || !method_->get_output(0).is_tensor()) {
    return runtime::fail(Error::InvalidProgram, "forward returned no logits tensor");
  }
  const Tensor& logits = method_->get_output(0).to_tensor();
  // Every position's logits [1, n, vocab], or the last one's only [1, 1, vocab] (a program
  // lowered with --llm_last_logits, or export_llama's default): the last row either way.
  if (logits.scalar_type() != ScalarType::Float || logits.dim() != 3 || logits.size(0) != 1 ||
      (logits.size(1) != n && logits.size(1) != 1) || logits.size(2) != vocab_size_) {
    std::string got = logits.scalar_type() == ScalarType::Float ? "float [" : "non-float [";
    for (int64_t d = 0; d < static_cast<int64_t>(logits.dim()); ++d) {
      got += (d ? ", " : "") + std::to_string(logits.size(d));
    }
    return runtime::fail(Error::InvalidProgram,
                         "forward's logits are %s] for %lld tokens; expected float [1, %lld, %d] "
                         "or [1, 1, %d]",
                         got.c_str(), static_cast<long long>(n), static_cast<long long>(n),
                         vocab_size_, vocab_size_);
  }
  const float* last =
      logits.const_data_ptr<float>() + (logits.size(1) - 1) * static_cast<int64_t>(vocab_size_);
  return std::vector<float>(last, last + vocab_size_);
}

}  // namespace ember::llm
