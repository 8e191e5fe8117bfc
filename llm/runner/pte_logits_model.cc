#include "llm/runner/pte_logits_model.h"

#include <cstring>

#include "runtime/core/diagnostics.h"
#include "runtime/core/tensor.h"

namespace ember::llm {

using runtime::EValue;
using runtime::ScalarType;
using runtime::Tensor;

namespace {

// Checks "forward" is a decoder: inputs ids [1, n] and positions [n] (int64), output 0 float
// [1, n, vocab]. Returns n's bound and the vocabulary size.
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
                         "forward's output 0 is not float logits [1, n, vocab]");
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
  auto module = std::make_unique<runtime::Module>(path);
  module->set_options(options);
  EMBER_TRY_CONTEXT(module->load(), "loading %s", path.c_str());
  std::unique_ptr<PteLogitsModel> model(new PteLogitsModel(std::move(module)));
  EMBER_TRY(read_shapes(*model->module_, &model->max_seq_len_, &model->vocab_size_));
  // The cache holds as many positions as the longest prefill may fill: the exports size their
  // sequence bound to the cache (max_cache_len), so a position past it has no cache slot.
  model->context_length_ = model->max_seq_len_;
  auto method = model->module_->load_method("forward");
  if (!method.ok()) return method.error();
  return model;
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
  EMBER_ASSIGN_OR_RETURN(std::vector<EValue> outputs,
                         module_->forward({EValue(&ids_t), EValue(&pos_t)}));
  if (outputs.empty() || !outputs[0].is_tensor()) {
    return runtime::fail(Error::InvalidProgram, "forward returned no logits tensor");
  }
  const Tensor& logits = outputs[0].to_tensor();
  if (logits.scalar_type() != ScalarType::Float || logits.dim() != 3 || logits.size(1) != n ||
      logits.size(2) != vocab_size_) {
    return runtime::fail(Error::InvalidProgram, "forward's logits are not [1, %lld, %d] float",
                         static_cast<long long>(n), vocab_size_);
  }
  const float* last = logits.const_data_ptr<float>() + (n - 1) * vocab_size_;
  return std::vector<float>(last, last + vocab_size_);
}

}  // namespace ember::llm
