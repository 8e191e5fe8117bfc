// The LLM C API (include/ember/ember_llm.h) over llm/runner and llm/generation.
#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "bindings/c/handles.h"
#include "ember/ember_llm.h"
#include "llm/generation/generation.h"
#include "llm/runner/pte_logits_model.h"
#include "llm/runner/session.h"
#include "llm/tokenizer/tokenizer.h"

namespace ember::capi {
namespace {

// Token ids as decimal text: the tokenizer of a model loaded without one.
class DecimalIds final : public llm::Tokenizer {
 public:
  explicit DecimalIds(int32_t vocab) : vocab_(vocab) {}
  runtime::Result<std::vector<int32_t>> encode(std::string_view text, bool) const override {
    std::vector<int32_t> ids;
    int64_t value = -1;
    for (size_t i = 0; i <= text.size(); ++i) {
      const char c = i < text.size() ? text[i] : ' ';
      if (c >= '0' && c <= '9' && value < vocab_) {
        value = (value < 0 ? 0 : value * 10) + (c - '0');
      } else if (c == ' ' || c == ',') {
        if (value >= 0) ids.push_back(static_cast<int32_t>(value));
        value = -1;
      } else {
        value = vocab_;  // not an id: reported below
      }
      if (value >= vocab_) {
        return runtime::fail(Error::InvalidArgument, "prompt byte %zu: not an id in [0, %d)", i,
                             vocab_);
      }
    }
    return ids;
  }
  runtime::Result<std::string> decode(const std::vector<int32_t>& ids, bool) const override {
    std::string text;
    for (int32_t id : ids) text += std::to_string(id) + " ";
    return text;
  }
  int32_t vocab_size() const override { return vocab_; }
  std::optional<int32_t> token_id(std::string_view) const override { return std::nullopt; }
  bool is_special(int32_t) const override { return false; }

 private:
  int32_t vocab_;
};

}  // namespace
}  // namespace ember::capi

struct ember_llm {
  ember::runtime::BackendRegistry backends;  // outlives the model's method
  std::unique_ptr<ember::llm::PteLogitsModel> model;
  std::unique_ptr<ember::llm::Tokenizer> tokenizer;
  std::unique_ptr<ember::llm::Session> session;
  std::vector<int32_t> generated;
  std::atomic<bool> busy{false};  // a call is running on it (LlmClaim)
};

using ember::capi::Error;
using ember::capi::to_status;

namespace {

// Holds a live ember_llm for one call (handle_registry.h): InvalidArgument if it is NULL or
// destroyed, InvalidState if a call is already running on it (another thread, or the text
// callback calling back in).
class LlmClaim {
 public:
  explicit LlmClaim(const ember_llm* llm) : llm_(const_cast<ember_llm*>(llm)) {
    ember::capi::RegistryLock lock;
    error_ = ember::capi::check_handle_locked(llm_, ember::capi::HandleKind::Llm, "llm");
    if (error_ == Error::Ok && llm_->busy.exchange(true)) {
      error_ = ember::runtime::fail(Error::InvalidState, "llm %p is in use (by another thread or its own callback)",
                                    static_cast<void*>(llm_));
    }
  }
  ~LlmClaim() {
    if (error_ == Error::Ok) llm_->busy.store(false);
  }
  LlmClaim(const LlmClaim&) = delete;
  LlmClaim& operator=(const LlmClaim&) = delete;
  Error error() const { return error_; }

 private:
  ember_llm* llm_;
  Error error_;
};

Error load(const char* model_path, const char* tokenizer_path, ember_llm* llm) {
  using namespace ember;
  const runtime::KernelRegistry* kernels = nullptr;
  EMBER_TRY(capi::linked_kernels(&kernels));
  EMBER_TRY(capi::select_backends(nullptr, &llm->backends));
  runtime::Module::Options options;
  options.method.kernels = kernels;
  options.method.backends = &llm->backends;
  EMBER_ASSIGN_OR_RETURN(llm->model, llm::PteLogitsModel::load(model_path, options));
  if (tokenizer_path != nullptr) {
    EMBER_ASSIGN_OR_RETURN(llm->tokenizer, llm::load_tokenizer(tokenizer_path));
  } else {
    llm->tokenizer = std::make_unique<capi::DecimalIds>(llm->model->vocab_size());
  }
  llm->session = std::make_unique<llm::Session>(*llm->model, llm->model->max_seq_len(),
                                                llm->model->context_length());
  return Error::Ok;
}

}  // namespace

extern "C" {

ember_status ember_llm_load(const char* model_path, const char* tokenizer_path, ember_llm** out) {
  using namespace ember;
  if (out == nullptr || model_path == nullptr) {
    return to_status(runtime::fail(Error::InvalidArgument,
                                   "ember_llm_load: model_path and out "
                                   "must not be NULL"));
  }
  *out = nullptr;
  ember_llm* llm = capi::new_heap<ember_llm>();
  if (llm == nullptr) {
    return to_status(runtime::fail(Error::MemoryAllocationFailed, "ember_llm_load: no memory"));
  }
  Error e = load(model_path, tokenizer_path, llm);
  if (e == Error::Ok) e = capi::register_handle(llm, capi::HandleKind::Llm);
  if (e != Error::Ok) {
    capi::destroy_heap(llm);
    return to_status(e);
  }
  *out = llm;
  return EMBER_OK;
}

// A second destroy, a destroy of a non-handle or during a call on it: a no-op with a message.
void ember_llm_destroy(ember_llm* llm) {
  ember::runtime::clear_error_message();
  if (llm == nullptr) return;
  {
    ember::capi::RegistryLock lock;
    if (ember::capi::check_handle_locked(llm, ember::capi::HandleKind::Llm, "llm") != Error::Ok) return;
    if (llm->busy.exchange(true)) {
      ember::runtime::fail(Error::InvalidState, "ember_llm_destroy: llm %p is in use; not destroyed",
                           static_cast<void*>(llm));
      return;
    }
    ember::capi::unregister_handle_locked(llm, ember::capi::HandleKind::Llm);
  }
  ember::capi::destroy_heap(llm);
}

void ember_llm_config_init(ember_llm_config* config) {
  if (config == nullptr) return;
  *config = ember_llm_config{};
  config->max_new_tokens = 64;
  config->top_p = 1.0f;
  config->repetition_penalty = 1.0f;
}

ember_status ember_llm_generate(ember_llm* llm, const char* prompt, const int32_t* prompt_ids,
                                size_t prompt_count, const ember_llm_config* config,
                                ember_llm_text_callback on_text, void* user_data,
                                const volatile int32_t* cancel) {
  using namespace ember;
  if (llm == nullptr || config == nullptr || (prompt == nullptr && prompt_ids == nullptr)) {
    return to_status(runtime::fail(Error::InvalidArgument,
                                   "ember_llm_generate: llm, config and a prompt are required"));
  }
  const LlmClaim claim(llm);
  if (claim.error() != Error::Ok) return to_status(claim.error());
  std::vector<int32_t> ids;
  if (prompt != nullptr) {
    auto encoded = llm->tokenizer->encode(prompt, /*add_special_tokens=*/true);
    if (!encoded.ok()) return to_status(encoded.error());
    ids = std::move(encoded.get());
  } else {
    ids.assign(prompt_ids, prompt_ids + prompt_count);
  }
  llm::GenerationConfig gen;
  gen.sampling.temperature = config->temperature;
  gen.sampling.top_k = config->top_k;
  gen.sampling.top_p = config->top_p;
  gen.sampling.min_p = config->min_p;
  gen.sampling.repetition_penalty = config->repetition_penalty;
  gen.sampling.seed = config->seed;
  gen.context.context_length = llm->session->context_length();
  gen.context.max_new_tokens = config->max_new_tokens;
  llm->generated.clear();
  auto result = llm::generate(*llm->session, *llm->tokenizer, ids, gen, [&](std::string_view text) {
    if (cancel != nullptr && *cancel != 0) return false;
    return on_text == nullptr || on_text(text.data(), text.size(), user_data) != 0;
  });
  if (!result.ok()) return to_status(result.error());
  llm->generated = result.get().tokens;
  return EMBER_OK;
}

size_t ember_llm_generated_tokens(const ember_llm* llm, int32_t* tokens, size_t capacity) {
  const LlmClaim claim(llm);
  if (claim.error() != Error::Ok) return 0;
  for (size_t i = 0; i < capacity && i < llm->generated.size() && tokens != nullptr; ++i) {
    tokens[i] = llm->generated[i];
  }
  return llm->generated.size();
}

ember_status ember_llm_reset(ember_llm* llm) {
  if (llm == nullptr) {
    return to_status(ember::runtime::fail(Error::InvalidArgument, "ember_llm_reset: llm is NULL"));
  }
  const LlmClaim claim(llm);
  if (claim.error() != Error::Ok) return to_status(claim.error());
  llm->session = std::make_unique<ember::llm::Session>(*llm->model, llm->model->max_seq_len(),
                                                       llm->model->context_length());
  llm->generated.clear();
  return EMBER_OK;
}

}  // extern "C"
