// Imports the LLM C API as the clang module `EmberLLM` (EmberLLM/module.modulemap), the way
// Swift and Objective-C apps see it, and generates greedily from the transformers Llama of
// tests/fixtures/llm lowered in the build: PyTorch's tokens (llm/manifest.json), streamed.
// Plain C inside an Objective-C file: no Objective-C runtime needed.
@import EmberLLM;

#include <stdint.h>
#include <stdio.h>
#include <string.h>

static int32_t count(const char* text, size_t size, void* user_data) {
  (void)text;
  (void)size;
  ++*(int*)user_data;
  return 1;
}

int main(void) {
  static const int32_t greedy[17] = {91, 98, 121, 98, 127, 98, 127, 18, 98,
                                     18, 18, 18,  18, 18,  18, 18,  18};
  int64_t raw[5];
  int32_t prompt[5], tokens[32];
  FILE* f = fopen("tests/fixtures/llm/llm_llama.core_aten.torch2_14.input0.bin", "rb");
  if (f == NULL || fread(raw, sizeof(raw), 1, f) != 1) {
    printf("FAIL: fixture missing\n");
    return 1;
  }
  fclose(f);
  for (int i = 0; i < 5; ++i) prompt[i] = (int32_t)raw[i];
  ember_llm* llm = NULL;
  ember_status s = ember_llm_load("tests/embedding/llm_llama.pte", NULL, &llm);
  ember_llm_config config;
  ember_llm_config_init(&config);
  config.max_new_tokens = 17;
  int pieces = 0;
  if (s == EMBER_OK) s = ember_llm_generate(llm, NULL, prompt, 5, &config, count, &pieces, NULL);
  if (s != EMBER_OK) {
    printf("FAIL: %s: %s\n", ember_status_name(s), ember_last_error_message());
    return 1;
  }
  size_t n = ember_llm_generated_tokens(llm, tokens, 32);
  ember_llm_destroy(llm);
  if (n != 17 || memcmp(tokens, greedy, sizeof(greedy)) != 0 || pieces != 17) {
    printf("FAIL: %zu tokens, %d pieces, not PyTorch's\n", n, pieces);
    return 1;
  }
  printf("@import EmberLLM: 17 greedy tokens = PyTorch's\n");
  return 0;
}
