/* A pure C99 program against libember_llm.so (built -std=c99 -pedantic -Wall -Wextra -Werror):
 * the transformers Llama of tests/fixtures/llm lowered in the build (tests/embedding), its
 * prompt from the fixture's input, and
 *   - greedy generation gives PyTorch's tokens (tests/fixtures/llm/manifest.json);
 *   - a sampled run of 12 tokens equals 6 tokens, a save, a restore into a second handle and
 *     6 continued tokens, and the restored prompt is not run again (stats);
 *   - the memory estimate, and a few named errors.
 * Prints "N passed, N failed". */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ember/ember_llm.h"

static int passed = 0;
static int failed = 0;

#define CHECK(cond)                                                            \
  do {                                                                         \
    if (cond) {                                                                \
      ++passed;                                                                \
    } else {                                                                   \
      ++failed;                                                                \
      fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
    }                                                                          \
  } while (0)

#define PTE "tests/embedding/llm_llama.pte"

/* PyTorch's greedy tokens after the fixture's prompt (manifest.json "greedy_tokens"). */
static const int32_t kGreedy[17] = {91, 98, 121, 98, 127, 98, 127, 18, 98,
                                    18, 18, 18,  18, 18,  18, 18,  18};

static size_t read_prompt(int32_t* ids, size_t capacity) {
  int64_t raw[64];
  size_t n, i;
  FILE* f = fopen("tests/fixtures/llm/llm_llama.core_aten.torch2_14.input0.bin", "rb");
  if (f == NULL) return 0;
  n = fread(raw, sizeof(int64_t), 64, f);
  fclose(f);
  for (i = 0; i < n && i < capacity; ++i) ids[i] = (int32_t)raw[i];
  return n;
}

static int32_t count_pieces(const char* text, size_t size, void* user_data) {
  (void)text;
  (void)size;
  ++*(int*)user_data;
  return 1;
}

int main(void) {
  int32_t prompt[64];
  int32_t tokens[32];
  int32_t joined[32];
  size_t prompt_count = read_prompt(prompt, 64);
  size_t i, n;
  int pieces = 0;
  ember_llm* llm = NULL;
  ember_llm* restored = NULL;
  ember_llm_config config;
  ember_llm_stats stats;
  ember_llm_memory memory;
  const char* tmp = getenv("TEST_TMPDIR");
  char session[512];

  snprintf(session, sizeof(session), "%s/c.session", tmp != NULL ? tmp : "/tmp");
  CHECK(prompt_count == 5);
  CHECK(ember_llm_load(PTE, NULL, &llm) == EMBER_OK);
  if (llm == NULL) {
    fprintf(stderr, "%s\n", ember_last_error_message());
    return 1;
  }
  ember_llm_config_init(&config);
  config.max_new_tokens = 17;
  CHECK(ember_llm_generate(llm, NULL, prompt, prompt_count, &config, count_pieces, &pieces,
                           NULL) == EMBER_OK);
  n = ember_llm_generated_tokens(llm, tokens, 32);
  CHECK(n == 17);
  CHECK(memcmp(tokens, kGreedy, sizeof(kGreedy)) == 0);
  CHECK(pieces == 17);

  /* Sampled: 12 uninterrupted tokens. */
  config.temperature = 0.8f;
  config.top_k = 30;
  config.seed = 11;
  config.max_new_tokens = 12;
  CHECK(ember_llm_generate(llm, NULL, prompt, prompt_count, &config, NULL, NULL, NULL) ==
        EMBER_OK);
  CHECK(ember_llm_generated_tokens(llm, tokens, 32) == 12);
  /* 6 tokens, saved; restored into another handle, 6 more. */
  CHECK(ember_llm_reset(llm) == EMBER_OK);
  config.max_new_tokens = 6;
  CHECK(ember_llm_generate(llm, NULL, prompt, prompt_count, &config, NULL, NULL, NULL) ==
        EMBER_OK);
  CHECK(ember_llm_generated_tokens(llm, joined, 32) == 6);
  CHECK(ember_llm_save_session(llm, session) == EMBER_OK);
  CHECK(ember_llm_load(PTE, NULL, &restored) == EMBER_OK);
  if (restored == NULL) return 1;
  CHECK(ember_llm_load_session(restored, session) == EMBER_OK);
  CHECK(ember_llm_continue(restored, NULL, NULL, 0, &config, NULL, NULL, NULL) == EMBER_OK);
  CHECK(ember_llm_generated_tokens(restored, joined + 6, 26) == 6);
  CHECK(memcmp(joined, tokens, 12 * sizeof(int32_t)) == 0);
  CHECK(ember_llm_get_stats(restored, &stats) == EMBER_OK);
  CHECK(stats.prefill_evaluated == 0);
  CHECK(stats.prefill_reused == (int32_t)prompt_count + 6);
  CHECK(stats.position == (int32_t)prompt_count + 12);
  CHECK(ember_llm_session_tokens(restored, NULL, 0) == prompt_count + 12);

  CHECK(ember_llm_estimate_memory(PTE, &memory) == EMBER_OK);
  CHECK(memory.kv_cache_bytes > 0 && memory.planned_bytes >= memory.kv_cache_bytes);
  CHECK(memory.vocab_size == 128);
  CHECK(memory.context_length == stats.context_length);

  CHECK(ember_llm_load_session(restored, "/nonexistent/x.session") == EMBER_NOT_FOUND);
  CHECK(ember_llm_rewind(restored, 1000) == EMBER_INVALID_ARGUMENT);
  CHECK(strlen(ember_last_error_message()) > 0);
  {
    ember_llm* none = NULL;
    CHECK(ember_llm_load("/nonexistent.pte", NULL, &none) != EMBER_OK);
    CHECK(none == NULL);
  }
  ember_llm_destroy(llm);
  ember_llm_destroy(restored);
  for (i = 0; i < 12; ++i) printf("%d ", (int)joined[i]);
  printf("\n%d passed, %d failed\n", passed, failed);
  return failed == 0 ? 0 : 1;
}
