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
#include "llm/runner/session_file.h"
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

namespace ember::capi {

// What every conversation on one loaded program shares.
struct LlmShared {
  runtime::BackendRegistry backends;  // outlives the model's methods
  std::unique_ptr<llm::PteLogitsModel> model;
  std::unique_ptr<llm::Tokenizer> tokenizer;
};

}  // namespace ember::capi

struct ember_llm {
  std::shared_ptr<ember::capi::LlmShared> shared;
  std::unique_ptr<ember::llm::PteLogitsModel> own_context;  // all but the first conversation
  ember::llm::PteLogitsModel* context = nullptr;
  std::unique_ptr<ember::llm::Session> session;
  ember::llm::Rng rng{0};
  ember::llm::GenerationResult last;
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

using namespace ember;

void new_session_on(ember_llm* llm) {
  llm->session = std::make_unique<llm::Session>(*llm->context, llm->context->max_seq_len(),
                                                llm->context->context_length());
}

Error load(const char* model_path, const char* tokenizer_path, ember_llm* llm) {
  const runtime::KernelRegistry* kernels = nullptr;
  EMBER_TRY(capi::linked_kernels(&kernels));
  llm->shared = std::make_shared<capi::LlmShared>();
  capi::LlmShared& shared = *llm->shared;
  EMBER_TRY(capi::select_backends(nullptr, &shared.backends));
  runtime::Module::Options options;
  options.method.kernels = kernels;
  options.method.backends = &shared.backends;
  EMBER_ASSIGN_OR_RETURN(shared.model, llm::PteLogitsModel::load(model_path, options));
  if (tokenizer_path != nullptr) {
    EMBER_ASSIGN_OR_RETURN(shared.tokenizer, llm::load_tokenizer(tokenizer_path));
  } else {
    shared.tokenizer = std::make_unique<capi::DecimalIds>(shared.model->vocab_size());
  }
  llm->context = shared.model.get();
  new_session_on(llm);
  return Error::Ok;
}

llm::GenerationConfig generation_config(const ember_llm* llm, const ember_llm_config* config) {
  llm::GenerationConfig gen;
  gen.sampling.temperature = config->temperature;
  gen.sampling.top_k = config->top_k;
  gen.sampling.top_p = config->top_p;
  gen.sampling.min_p = config->min_p;
  gen.sampling.repetition_penalty = config->repetition_penalty;
  gen.sampling.seed = config->seed;
  gen.context.context_length = llm->session->context_length();
  gen.context.max_new_tokens = config->max_new_tokens;
  // The conversation goes on after the call: the last token is run too.
  gen.evaluate_last_token = true;
  return gen;
}

ember_status run_generation(ember_llm* llm, const std::vector<int32_t>& ids,
                            const ember_llm_config* config, ember_llm_text_callback on_text,
                            void* user_data, const volatile int32_t* cancel) {
  llm::GenerationConfig gen = generation_config(llm, config);
  gen.rng = &llm->rng;
  llm->last = llm::GenerationResult();
  auto result = llm::generate(*llm->session, *llm->shared->tokenizer, ids, gen,
                              [&](std::string_view text) {
                                if (cancel != nullptr && *cancel != 0) return false;
                                return on_text == nullptr ||
                                       on_text(text.data(), text.size(), user_data) != 0;
                              });
  if (!result.ok()) return to_status(result.error());
  llm->last = std::move(result.get());
  return EMBER_OK;
}

ember_status null_argument(const char* what) {
  return to_status(runtime::fail(Error::InvalidArgument, "%s", what));
}

// A further conversation on llm's program; with `copy`, a copy of llm's.
ember_status new_conversation(ember_llm* llm, ember_llm** out, bool copy) {
  if (llm == nullptr || out == nullptr) return null_argument("llm and out must not be NULL");
  *out = nullptr;
  const LlmClaim claim(llm);
  if (claim.error() != Error::Ok) return to_status(claim.error());
  ember_llm* other = capi::new_heap<ember_llm>();
  if (other == nullptr) {
    return to_status(runtime::fail(Error::MemoryAllocationFailed, "no memory for a session"));
  }
  other->shared = llm->shared;
  auto context = llm->shared->model->new_context();
  if (!context.ok()) {
    capi::destroy_heap(other);
    return to_status(context.error());
  }
  other->own_context = std::move(context.get());
  other->context = other->own_context.get();
  new_session_on(other);
  if (copy) {
    Error err = other->context->copy_state_from(*llm->context);
    if (err == Error::Ok) {
      err = other->session->restore(llm->session->tokens(), llm->session->last_logits());
    }
    if (err != Error::Ok) {
      capi::destroy_heap(other);
      return to_status(err);
    }
    other->rng = llm->rng;
  }
  if (Error err = capi::register_handle(other, capi::HandleKind::Llm); err != Error::Ok) {
    capi::destroy_heap(other);
    return to_status(err);
  }
  *out = other;
  return EMBER_OK;
}

}  // namespace

extern "C" {

ember_status ember_llm_load(const char* model_path, const char* tokenizer_path, ember_llm** out) {
  if (out == nullptr || model_path == nullptr) {
    return null_argument("ember_llm_load: model_path and out must not be NULL");
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
  if (llm == nullptr || config == nullptr || (prompt == nullptr && prompt_ids == nullptr)) {
    return null_argument("ember_llm_generate: llm, config and a prompt are required");
  }
  const LlmClaim claim(llm);
  if (claim.error() != Error::Ok) return to_status(claim.error());
  std::vector<int32_t> ids;
  if (prompt != nullptr) {
    auto encoded = llm->shared->tokenizer->encode(prompt, /*add_special_tokens=*/true);
    if (!encoded.ok()) return to_status(encoded.error());
    ids = std::move(encoded.get());
  } else {
    ids.assign(prompt_ids, prompt_ids + prompt_count);
  }
  llm->rng.reseed(config->seed);
  return run_generation(llm, ids, config, on_text, user_data, cancel);
}

ember_status ember_llm_continue(ember_llm* llm, const char* text, const int32_t* ids, size_t count,
                                const ember_llm_config* config, ember_llm_text_callback on_text,
                                void* user_data, const volatile int32_t* cancel) {
  if (llm == nullptr || config == nullptr || (ids == nullptr && count != 0)) {
    return null_argument("ember_llm_continue: llm and config are required, ids with a count");
  }
  const LlmClaim claim(llm);
  if (claim.error() != Error::Ok) return to_status(claim.error());
  std::vector<int32_t> prompt = llm->session->tokens();
  if (text != nullptr) {
    auto encoded = llm->shared->tokenizer->encode(text, /*add_special_tokens=*/false);
    if (!encoded.ok()) return to_status(encoded.error());
    prompt.insert(prompt.end(), encoded.get().begin(), encoded.get().end());
  } else if (ids != nullptr) {
    prompt.insert(prompt.end(), ids, ids + count);
  }
  return run_generation(llm, prompt, config, on_text, user_data, cancel);
}

size_t ember_llm_generated_tokens(const ember_llm* llm, int32_t* tokens, size_t capacity) {
  const LlmClaim claim(llm);
  if (claim.error() != Error::Ok) return 0;
  const std::vector<int32_t>& generated = llm->last.tokens;
  for (size_t i = 0; i < capacity && i < generated.size() && tokens != nullptr; ++i) {
    tokens[i] = generated[i];
  }
  return generated.size();
}

size_t ember_llm_session_tokens(const ember_llm* llm, int32_t* tokens, size_t capacity) {
  if (llm == nullptr) return 0;
  const LlmClaim claim(llm);
  if (claim.error() != Error::Ok) return 0;
  const std::vector<int32_t>& all = llm->session->tokens();
  for (size_t i = 0; i < capacity && i < all.size() && tokens != nullptr; ++i) tokens[i] = all[i];
  return all.size();
}

ember_status ember_llm_reset(ember_llm* llm) {
  if (llm == nullptr) return null_argument("ember_llm_reset: llm is NULL");
  const LlmClaim claim(llm);
  if (claim.error() != Error::Ok) return to_status(claim.error());
  new_session_on(llm);
  llm->last = llm::GenerationResult();
  return EMBER_OK;
}

ember_status ember_llm_rewind(ember_llm* llm, int32_t position) {
  if (llm == nullptr) return null_argument("ember_llm_rewind: llm is NULL");
  const LlmClaim claim(llm);
  if (claim.error() != Error::Ok) return to_status(claim.error());
  return to_status(llm->session->truncate(position));
}

ember_status ember_llm_new_session(ember_llm* llm, ember_llm** out) {
  return new_conversation(llm, out, /*copy=*/false);
}

ember_status ember_llm_fork(ember_llm* llm, ember_llm** out) {
  return new_conversation(llm, out, /*copy=*/true);
}

ember_status ember_llm_save_session(ember_llm* llm, const char* path) {
  if (llm == nullptr || path == nullptr) return null_argument("ember_llm_save_session: llm and path are required");
  const LlmClaim claim(llm);
  if (claim.error() != Error::Ok) return to_status(claim.error());
  return to_status(llm::save_session(path, *llm->context, *llm->session, &llm->rng));
}

ember_status ember_llm_load_session(ember_llm* llm, const char* path) {
  if (llm == nullptr || path == nullptr) return null_argument("ember_llm_load_session: llm and path are required");
  const LlmClaim claim(llm);
  if (claim.error() != Error::Ok) return to_status(claim.error());
  llm::Rng rng = llm->rng;
  bool has_rng = false;
  Error err = llm::load_session(path, *llm->context, *llm->session, &rng, &has_rng);
  if (err != Error::Ok) return to_status(err);
  if (has_rng) llm->rng = rng;
  llm->last = llm::GenerationResult();
  return EMBER_OK;
}

ember_status ember_llm_get_stats(const ember_llm* llm, ember_llm_stats* out) {
  if (llm == nullptr || out == nullptr) return null_argument("ember_llm_get_stats: llm and out are required");
  const LlmClaim claim(llm);
  if (claim.error() != Error::Ok) return to_status(claim.error());
  const llm::GenerationResult& r = llm->last;
  *out = ember_llm_stats{};
  out->prompt_tokens = r.prompt_tokens;
  out->prefill_evaluated = r.prefill_evaluated;
  out->prefill_reused = r.prefill_reused;
  out->generated_tokens = static_cast<int32_t>(r.tokens.size());
  out->decode_steps = r.decode_steps;
  out->position = llm->session->position();
  out->context_length = llm->session->context_length();
  out->prefill_ms = static_cast<double>(r.prefill_ns) / 1e6;
  out->decode_ms = static_cast<double>(r.decode_ns) / 1e6;
  out->time_to_first_token_ms = static_cast<double>(r.first_token_ns) / 1e6;
  return EMBER_OK;
}

ember_status ember_llm_estimate_memory(const char* model_path, ember_llm_memory* out) {
  if (model_path == nullptr || out == nullptr) {
    return null_argument("ember_llm_estimate_memory: model_path and out are required");
  }
  auto m = llm::estimate_memory(model_path);
  if (!m.ok()) return to_status(m.error());
  *out = ember_llm_memory{};
  out->file_bytes = m->file_bytes;
  out->planned_bytes = m->planned_bytes;
  out->kv_cache_bytes = m->state_bytes;
  out->temp_bytes = m->temp_bytes;
  out->total_bytes = m->total_bytes();
  out->context_length = m->context_length;
  out->max_seq_len = m->max_seq_len;
  out->vocab_size = m->vocab_size;
  return EMBER_OK;
}

}  // extern "C"
