/* Ember's LLM C API (C99): load a lowered decoder LLM (.pte) with its tokenizer and generate
 * text, streamed to a callback, with a cancel flag another thread may set. Built on
 * llm/runner (PteLogitsModel, Session) and llm/generation; the status codes and the thread's
 * last error message are ember.h's.
 *
 *   ember_llm* llm = NULL;
 *   if (ember_llm_load("m.pte", "tokenizer.json", &llm) != EMBER_OK) {
 *     fprintf(stderr, "%s\n", ember_last_error_message());
 *   }
 *   ember_llm_config config;
 *   ember_llm_config_init(&config);
 *   config.max_new_tokens = 64;
 *   ember_llm_generate(llm, "Once upon a time", NULL, 0, &config, on_text, user_data, NULL);
 *   ember_llm_destroy(llm);
 *
 * One ember_llm is one conversation (one KV cache) on a loaded program: calls on one handle must
 * not overlap; the cancel flag is the one thing another thread touches. ember_llm_new_session
 * and ember_llm_fork give further conversations on the same loaded program (the weights shared,
 * each its own cache), which may generate on different threads at once.
 *
 * KV-cache control: a prompt that starts with tokens the conversation already holds runs only
 * the rest (prefix reuse; ember_llm_get_stats shows it), ember_llm_rewind goes back to an
 * earlier position, ember_llm_save_session / ember_llm_load_session write a conversation to a
 * file and restore it in another process bit for bit, and ember_llm_estimate_memory tells what
 * a model needs before it is loaded.
 */
#ifndef EMBER_EMBER_LLM_H_
#define EMBER_EMBER_LLM_H_

#include "ember/ember.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ember_llm ember_llm;

/* Loads `model_path` (a decoder whose forward takes token ids [1, n] and positions [n], int64,
 * and returns logits [1, n, vocab]) with the portable kernels and the XNNPACK delegate, and
 * `tokenizer_path` (tokenizer.json, SentencePiece .model or .tiktoken). With tokenizer_path NULL
 * the text in and out is token ids in decimal ("1 15 27 "). *out is destroyed with
 * ember_llm_destroy. Misuse is a status, as for ember_method (ember.h, "Misuse"): a call on a
 * destroyed handle is EMBER_INVALID_ARGUMENT, a call while another call runs on the same
 * handle (another thread, or the text callback calling back in) EMBER_INVALID_STATE, and a
 * second destroy does nothing. */
EMBER_EXPORT ember_status ember_llm_load(const char* model_path, const char* tokenizer_path,
                                         ember_llm** out);
EMBER_EXPORT void ember_llm_destroy(ember_llm* llm);

typedef struct ember_llm_config {
  int32_t max_new_tokens;   /* > 0; default 64 */
  float temperature;        /* 0: greedy (default) */
  int32_t top_k;            /* 0: off */
  float top_p;              /* 1: off */
  float min_p;              /* 0: off */
  float repetition_penalty; /* 1: off */
  uint64_t seed;            /* same seed, same tokens */
} ember_llm_config;

EMBER_EXPORT void ember_llm_config_init(ember_llm_config* config);

/* Called with each piece of settled text (never half a UTF-8 character); return 0 to stop. */
typedef int32_t (*ember_llm_text_callback)(const char* text, size_t size, void* user_data);

/* Generates from `prompt` (text, encoded with the tokenizer's special tokens) or, when prompt is
 * NULL, from `prompt_ids[0..prompt_count)`: the prompt is the whole conversation from position
 * 0, and the part of it the conversation already holds is not run again (prefix reuse). The
 * sampler is seeded with config->seed. Stops at max_new_tokens, the context's end, the callback
 * returning 0, or *cancel becoming non-zero (checked before each piece of text is delivered;
 * NULL: never). The generated tokens are kept in the conversation. EMBER_OUT_OF_RESOURCES when
 * the prompt does not fit the context. */
EMBER_EXPORT ember_status ember_llm_generate(ember_llm* llm, const char* prompt,
                                             const int32_t* prompt_ids, size_t prompt_count,
                                             const ember_llm_config* config,
                                             ember_llm_text_callback on_text, void* user_data,
                                             const volatile int32_t* cancel);

/* The last generation's tokens (not the prompt): their count, and up to `capacity` of them
 * copied to `tokens` (may be NULL when capacity is 0). */
EMBER_EXPORT size_t ember_llm_generated_tokens(const ember_llm* llm, int32_t* tokens,
                                               size_t capacity);

/* Forgets the conversation (position 0). */
EMBER_EXPORT ember_status ember_llm_reset(ember_llm* llm);

/* Generates after the conversation so far: `text` (encoded without special tokens) or, when
 * text is NULL, `ids[0..count)` is appended first (both NULL / count 0: nothing), and the
 * sampler continues its random stream (from the last generation or the restored session), so
 * a generation split into several calls, or across a save and a restore, gives the tokens of
 * one uninterrupted call. Otherwise as ember_llm_generate. */
EMBER_EXPORT ember_status ember_llm_continue(ember_llm* llm, const char* text, const int32_t* ids,
                                             size_t count, const ember_llm_config* config,
                                             ember_llm_text_callback on_text, void* user_data,
                                             const volatile int32_t* cancel);

/* The conversation's tokens (prompt and generated, in the cache): their count, and up to
 * `capacity` copied to `tokens` (may be NULL when capacity is 0). */
EMBER_EXPORT size_t ember_llm_session_tokens(const ember_llm* llm, int32_t* tokens,
                                             size_t capacity);

/* Goes back to `position` (0 <= position <= the token count): the tokens from there on are
 * forgotten and their cache slots rewritten by the next run (undo a turn, regenerate). */
EMBER_EXPORT ember_status ember_llm_rewind(ember_llm* llm, int32_t position);

/* A new conversation on the same loaded program and tokenizer (empty, its own KV cache); the
 * handles are destroyed with ember_llm_destroy in any order. */
EMBER_EXPORT ember_status ember_llm_new_session(ember_llm* llm, ember_llm** out);

/* A new conversation that starts as a copy of llm's (cache, tokens, random stream): a system
 * prompt prefilled once and forked into several conversations without running it again. */
EMBER_EXPORT ember_status ember_llm_fork(ember_llm* llm, ember_llm** out);

/* Writes the conversation (KV cache, tokens, the logits after the last token, the random
 * stream) to `path` atomically (a temporary file renamed over it; a failure leaves path as it
 * was). The file is versioned and checksummed and names the model by its size and content
 * hash. */
EMBER_EXPORT ember_status ember_llm_save_session(ember_llm* llm, const char* path);

/* Restores a conversation written by ember_llm_save_session with the same model file (possibly
 * in another process); EMBER_INVALID_ARGUMENT names another model, version or a damaged file,
 * and leaves the conversation as it was. */
EMBER_EXPORT ember_status ember_llm_load_session(ember_llm* llm, const char* path);

/* Figures of the last generation (ember_llm_generate or ember_llm_continue). */
typedef struct ember_llm_stats {
  int32_t prompt_tokens;      /* the prompt after the context policy */
  int32_t prefill_evaluated;  /* of those, run through the model */
  int32_t prefill_reused;     /* of those, already in the cache (prefix reuse) */
  int32_t generated_tokens;
  int32_t decode_steps;       /* model calls after the prefill */
  int32_t position;           /* tokens in the conversation now */
  int32_t context_length;
  double prefill_ms;
  double decode_ms;
  double time_to_first_token_ms;
} ember_llm_stats;

EMBER_EXPORT ember_status ember_llm_get_stats(const ember_llm* llm, ember_llm_stats* out);

/* What a decoder program needs in memory, read from the file without loading it (nothing is
 * allocated for the model): the file (weights; mapped, shared by all conversations), and per
 * conversation the planned memory (activations and the KV cache), of which the KV cache and
 * other state (0 when the program does not mark it), and the temp allocator. */
typedef struct ember_llm_memory {
  uint64_t file_bytes;
  uint64_t planned_bytes;
  uint64_t kv_cache_bytes;
  uint64_t temp_bytes;
  uint64_t total_bytes; /* file + planned + temp: one conversation */
  int32_t context_length;
  int32_t max_seq_len;
  int32_t vocab_size;
} ember_llm_memory;

EMBER_EXPORT ember_status ember_llm_estimate_memory(const char* model_path,
                                                    ember_llm_memory* out);

#ifdef __cplusplus
}
#endif

#endif /* EMBER_EMBER_LLM_H_ */
