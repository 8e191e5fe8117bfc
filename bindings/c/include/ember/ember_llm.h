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
 * One ember_llm is one conversation on one loaded program (its KV cache lives in the program):
 * calls on one handle must not overlap; the cancel flag is the one thing another thread touches.
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
 * NULL, from `prompt_ids[0..prompt_count)`, starting a new conversation (position 0). Stops at
 * max_new_tokens, the context's end, the callback returning 0, or *cancel becoming non-zero
 * (checked before each piece of text is delivered; NULL: never). EMBER_OUT_OF_RESOURCES when the
 * prompt does not fit the context. */
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

#ifdef __cplusplus
}
#endif

#endif /* EMBER_EMBER_LLM_H_ */
