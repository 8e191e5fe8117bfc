// ember_llm: generates text from a lowered decoder LLM (.pte), streaming it as it settles.
//
//   ember_llm --model m.pte --tokenizer tokenizer.json --prompt "Once upon a time"
//   ember_llm --model m.pte --prompt_ids "1,15,27" --max_new_tokens 16 --json
//
// Without --tokenizer the prompt is given as ids (--prompt_ids) and the output is printed as
// ids (id_tokenizer.h). Sampling: --temperature (0: greedy), --top_k, --top_p, --min_p,
// --repetition_penalty, --seed (same seed, same tokens). --threads sets the kernels' and the
// delegates' threads. After the text it prints the load time, time to first token, prefill and
// decode tokens/s and the peak RSS (stderr), or with --json one JSON object on stdout with the
// tokens, the text and those figures. --warmup runs the prompt and one decode step once first
// and discards them (llama-bench's warm-up), so the figures exclude one-time costs. Bad flags exit 2, a failed load or run exits 1, each with
// "ember_llm: ErrorName (0xNN): message".
//
// Sessions: --save_session FILE writes the conversation after the run (KV cache, tokens, the
// sampler's generator; llm/runner/session_file.h, atomically); --load_session FILE restores one
// saved with the same model before the run: the prompt, if any, is appended to it, and the
// sampler continues the saved random stream (--seed is not used), so a run split across
// processes gives an uninterrupted run's tokens.
//
// Chat: --chat reads user messages from stdin, one a line, and answers each (apps/llm/chat.h),
// rendering the conversation with --chat_template (a built-in row's name or a .json row; by
// default the family of the chat_template in the tokenizer_config.json beside --tokenizer) and
// --system; each turn prefills only its new tokens.
#include <gflags/gflags.h>
#include <unistd.h>

#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "apps/common/printable.h"
#include "apps/common/unknown_flags.h"
#include "apps/executor_runner/registration.h"
#include "apps/executor_runner/stats.h"
#include "apps/llm/chat.h"
#include "apps/llm/id_tokenizer.h"
#include "apps/llm/timed_model.h"
#include "llm/generation/generation.h"
#include "llm/runner/pte_logits_model.h"
#include "llm/runner/session.h"
#include "llm/runner/session_file.h"
#include "runtime/core/diagnostics.h"
#include "runtime/kernel/kernel_registry.h"
#include "runtime/platform/log.h"
#include "runtime/threadpool/pthreadpool_thread_pool.h"

DEFINE_string(model, "", "The lowered decoder program (.pte).");
DEFINE_string(tokenizer, "", "tokenizer.json, SentencePiece .model or .tiktoken file.");
DEFINE_string(prompt, "", "The prompt text (needs --tokenizer).");
DEFINE_string(prompt_ids, "", "The prompt as token ids, comma or space separated.");
DEFINE_int32(max_new_tokens, 64, "Tokens to generate at most.");
DEFINE_double(temperature, 0.0, "0: greedy; > 0: sample.");
DEFINE_int32(top_k, 0, "Keep the k most likely tokens (0: off).");
DEFINE_double(top_p, 1.0, "Nucleus sampling mass (1: off).");
DEFINE_double(min_p, 0.0, "Drop tokens below min_p times the best one's probability (0: off).");
DEFINE_double(repetition_penalty, 1.0, "CTRL repetition penalty (1: off).");
DEFINE_uint64(seed, 0, "The sampler's seed.");
DEFINE_int32(threads, 1, "Threads for kernels and delegates (1: none; -1: one per core).");
DEFINE_string(save_session, "", "Save the conversation (cache, tokens, generator) here after the run.");
DEFINE_string(load_session, "", "Restore a conversation saved with this model; the prompt is appended.");
DEFINE_bool(chat, false, "Interactive chat: each stdin line is a user message.");
DEFINE_string(chat_template, "", "Chat template: a built-in name (llama3, chatml, qwen2, smollm2, gemma, phi3) or a .json row.");
DEFINE_string(system, "", "The system message of --chat.");
DEFINE_bool(json, false, "Print one JSON object with tokens, text and figures on stdout.");
DEFINE_bool(warmup, false, "Before the timed run, run the prompt and one decode step once and "
            "discard them (llama-bench's warm-up): the figures then exclude one-time costs.");

namespace ember::llm {
namespace {

using runtime::Error;

int die(Error err, int status = 1) {
  char buffer[runtime::kMaxErrorMessageLength + 64];
  std::fprintf(stderr, "ember_llm: %s\n", apps::printable_message(runtime::format_error(err, buffer, sizeof(buffer))).c_str());
  return status;
}

double ms(uint64_t ns) { return static_cast<double>(ns) / 1e6; }

Error check_flags() {
  if (FLAGS_model.empty()) return runtime::fail(Error::InvalidArgument, "--model is required");
  if (!FLAGS_prompt.empty() && !FLAGS_prompt_ids.empty()) {
    return runtime::fail(Error::InvalidArgument, "give exactly one of --prompt and --prompt_ids");
  }
  if (FLAGS_chat && (!FLAGS_prompt.empty() || !FLAGS_prompt_ids.empty())) {
    return runtime::fail(Error::InvalidArgument, "--chat reads the messages from stdin; no --prompt");
  }
  if (FLAGS_prompt.empty() && FLAGS_prompt_ids.empty() && FLAGS_load_session.empty() && !FLAGS_chat) {
    return runtime::fail(Error::InvalidArgument,
                         "give exactly one of --prompt and --prompt_ids (or --load_session)");
  }
  if (!FLAGS_prompt.empty() && FLAGS_tokenizer.empty()) {
    return runtime::fail(Error::InvalidArgument,
                         "--prompt needs --tokenizer (or use --prompt_ids)");
  }
  if (FLAGS_max_new_tokens < 1) {
    return runtime::fail(Error::InvalidArgument, "--max_new_tokens must be at least 1, got %d",
                         FLAGS_max_new_tokens);
  }
  if (FLAGS_warmup && (FLAGS_chat || !FLAGS_load_session.empty())) {
    return runtime::fail(Error::InvalidArgument,
                         "--warmup runs the prompt of a fresh session; not with --chat or "
                         "--load_session");
  }
  if (FLAGS_threads == 0 || FLAGS_threads < -1) {
    return runtime::fail(Error::InvalidArgument, "--threads must be -1 or at least 1, got %d",
                         FLAGS_threads);
  }
  return Error::Ok;
}

GenerationConfig generation_config(int32_t context_length) {
  GenerationConfig config;
  config.sampling.temperature = static_cast<float>(FLAGS_temperature);
  config.sampling.top_k = FLAGS_top_k;
  config.sampling.top_p = static_cast<float>(FLAGS_top_p);
  config.sampling.min_p = static_cast<float>(FLAGS_min_p);
  config.sampling.repetition_penalty = static_cast<float>(FLAGS_repetition_penalty);
  config.sampling.seed = FLAGS_seed;
  config.context.context_length = context_length;
  config.context.max_new_tokens = FLAGS_max_new_tokens;
  return config;
}

// Wall time of --load_session and --save_session (0 when not given).
double g_session_load_ms = 0;
double g_session_save_ms = 0;
// Wall time of --warmup's prefill and decode step (-1 when not run).
double g_warmup_prefill_ms = -1;
double g_warmup_decode_ms = -1;

// --warmup: the prompt and one decode step on a session of their own, as llama-bench warms up
// before it measures (a prompt run, then one generated token). What runs once per shape (an
// XNNPACK delegate builds its plan for the prompt's length and for one token at its first call
// with that shape; first touches of the activations' pages) then stays out of the timed figures.
// The cache slots it wrote are rewritten by the timed run's prefill, which starts at 0, and
// attention never reads past the position it is given.
Error warm_up(LogitsModel& model, int32_t max_chunk, int32_t context_length,
              const std::vector<int32_t>& prompt) {
  if (prompt.empty()) return Error::Ok;
  Session warm(model, max_chunk, context_length);
  uint64_t start = ember_pal_now_ns();
  auto logits = warm.append(prompt);
  if (!logits.ok()) return runtime::annotate(logits.error(), "--warmup: the prompt");
  g_warmup_prefill_ms = ms(ember_pal_now_ns() - start);
  if (warm.position() >= context_length) return Error::Ok;
  start = ember_pal_now_ns();
  auto step = warm.append({prompt.back()});
  if (!step.ok()) return runtime::annotate(step.error(), "--warmup: a decode step");
  g_warmup_decode_ms = ms(ember_pal_now_ns() - start);
  return Error::Ok;
}

void report(const GenerationResult& result, const TimedModel& timed, double load_ms) {
  const double prefill_s = ms(timed.prefill_ns()) / 1e3;
  const double decode_s = ms(timed.decode_ns()) / 1e3;
  // With one new token there is no second call: the first token came after the prefill.
  const uint64_t first_token_ns =
      timed.first_token_ns() ? timed.first_token_ns() : timed.prefill_ns();
  nlohmann::json j;
  j["tokens"] = result.tokens;
  j["text"] = result.text;
  j["stop_reason"] = stop_reason_name(result.reason);
  j["load_ms"] = load_ms;
  j["time_to_first_token_ms"] = ms(first_token_ns);
  j["prompt_tokens"] = result.prompt_tokens;
  j["prefill_evaluated"] = result.prefill_evaluated;
  j["prefill_reused"] = result.prefill_reused;
  j["prefill_tokens_per_s"] = prefill_s > 0 ? result.prompt_tokens / prefill_s : 0.0;
  j["decode_steps"] = timed.decode_calls();
  j["decode_tokens_per_s"] = decode_s > 0 ? timed.decode_calls() / decode_s : 0.0;
  j["peak_rss_kb"] = runtime::peak_rss_kb();
  if (!FLAGS_load_session.empty()) j["session_load_ms"] = g_session_load_ms;
  if (!FLAGS_save_session.empty()) j["session_save_ms"] = g_session_save_ms;
  if (g_warmup_prefill_ms >= 0) j["warmup_prefill_ms"] = g_warmup_prefill_ms;
  if (g_warmup_decode_ms >= 0) j["warmup_decode_ms"] = g_warmup_decode_ms;
  if (FLAGS_json) {
    std::printf("%s\n", j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace).c_str());
    return;
  }
  std::fprintf(
      stderr,
      "\n[%s] load %.1f ms, first token %.1f ms, prefill %d tok at %.1f tok/s, decode %lld "
      "tok at %.1f tok/s, peak RSS %llu KiB\n",
      stop_reason_name(result.reason), load_ms, ms(first_token_ns), result.prompt_tokens,
      j["prefill_tokens_per_s"].get<double>(), static_cast<long long>(timed.decode_calls()),
      j["decode_tokens_per_s"].get<double>(),
      static_cast<unsigned long long>(runtime::peak_rss_kb()));
}

int run() {
  if (Error err = check_flags(); err != Error::Ok) return die(err, 2);
  static runtime::FixedKernelRegistry<runtime::kDefaultKernelRegistryCapacity> kernels;
  static runtime::BackendRegistry backends;
  if (Error err = runtime::register_linked(kernels, backends); err != Error::Ok) return die(err);
  std::unique_ptr<runtime::PthreadpoolThreadPool> pool;
  if (FLAGS_threads != 1) {
    pool = std::make_unique<runtime::PthreadpoolThreadPool>(
        FLAGS_threads < 0 ? 0 : static_cast<size_t>(FLAGS_threads));
  }
  const size_t threads = pool != nullptr ? pool->num_threads() : 1;
  if (Error err = runtime::set_linked_backend_threads(threads); err != Error::Ok) return die(err);

  const uint64_t load_start = ember_pal_now_ns();
  runtime::Module::Options options;
  options.method.kernels = &kernels;
  options.method.backends = &backends;
  options.method.thread_pool = pool.get();
  auto model = PteLogitsModel::load(FLAGS_model, options);
  if (!model.ok()) return die(model.error());
  std::unique_ptr<Tokenizer> tokenizer;
  if (!FLAGS_tokenizer.empty()) {
    auto loaded = load_tokenizer(FLAGS_tokenizer);
    if (!loaded.ok()) return die(loaded.error());
    tokenizer = std::move(loaded.get());
  } else {
    tokenizer = std::make_unique<IdTokenizer>(model.get()->vocab_size());
  }
  const double load_ms = ms(ember_pal_now_ns() - load_start);
  if (FLAGS_chat) {
    auto tmpl = resolve_chat_template(FLAGS_chat_template, FLAGS_tokenizer);
    if (!tmpl.ok()) return die(tmpl.error());
    Session session(*model.get(), model.get()->max_seq_len(), model.get()->context_length());
    ChatOptions chat;
    chat.system = FLAGS_system;
    chat.json = FLAGS_json;
    Error err = run_chat(session, *tokenizer, tmpl.get(),
                         generation_config(session.context_length()), chat, stdin);
    return err == Error::Ok ? 0 : die(err);
  }

  // A continued conversation gets no second BOS.
  auto prompt = !FLAGS_prompt.empty()
                    ? tokenizer->encode(FLAGS_prompt, FLAGS_load_session.empty())
                    : IdTokenizer(model.get()->vocab_size()).encode(FLAGS_prompt_ids, false);
  if (!prompt.ok()) return die(prompt.error(), FLAGS_prompt_ids.empty() ? 1 : 2);
  Session session(*model.get(), model.get()->max_seq_len(), model.get()->context_length());
  GenerationConfig config = generation_config(session.context_length());
  Rng rng(FLAGS_seed);
  config.rng = &rng;
  config.evaluate_last_token = !FLAGS_save_session.empty();
  std::vector<int32_t> ids = std::move(prompt.get());
  if (!FLAGS_load_session.empty()) {
    bool has_rng = false;
    const uint64_t start = ember_pal_now_ns();
    if (Error err = load_session(FLAGS_load_session, *model.get(), session, &rng, &has_rng);
        err != Error::Ok) {
      return die(err);
    }
    g_session_load_ms = ms(ember_pal_now_ns() - start);
    // The restored conversation is the start of the prompt: prefix reuse skips all of it.
    ids.insert(ids.begin(), session.tokens().begin(), session.tokens().end());
  }
  if (FLAGS_warmup) {
    if (Error err = warm_up(*model.get(), model.get()->max_seq_len(),
                            model.get()->context_length(), ids);
        err != Error::Ok) {
      return die(err);
    }
  }
  TimedModel timed(session);
  auto result = generate(timed, *tokenizer, ids, config, [](std::string_view text) {
    if (!FLAGS_json) {
      std::fwrite(text.data(), 1, text.size(), stdout);
      std::fflush(stdout);
    }
    return true;
  });
  if (!result.ok()) return die(result.error());
  if (!FLAGS_save_session.empty()) {
    const uint64_t start = ember_pal_now_ns();
    if (Error err = save_session(FLAGS_save_session, *model.get(), session, &rng);
        err != Error::Ok) {
      return die(err);
    }
    g_session_save_ms = ms(ember_pal_now_ns() - start);
  }
  report(result.get(), timed, load_ms);
  return 0;
}

}  // namespace
}  // namespace ember::llm

int main(int argc, char** argv) {
  gflags::SetUsageMessage(
      "ember_llm --model m.pte (--tokenizer t.json --prompt TEXT | --prompt_ids IDS)");
  if (ember::runtime::Error err = ember::apps::check_unknown_flags(argc, argv); err != ember::runtime::Error::Ok) {
    return ember::llm::die(err, 2);
  }
  gflags::ParseCommandLineFlags(&argc, &argv, true);
  return ember::llm::run();
}
