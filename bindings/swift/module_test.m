// Imports the C API as the clang module `Ember` (module.modulemap), the way Swift and
// Objective-C apps see it, and runs the MLP lowered from tests/fixtures/pt2 against
// PyTorch's output. Plain C inside an Objective-C file: no Objective-C runtime needed.
@import Ember;

#include <math.h>
#include <stdio.h>
#include <string.h>

static size_t read_file(const char* path, void* buffer, size_t capacity) {
  FILE* f = fopen(path, "rb");
  if (f == NULL) return 0;
  size_t n = fread(buffer, 1, capacity, f);
  fclose(f);
  return n;
}

int main(void) {
  static float input[64], expected[40];
  int failed = 0;
  if (read_file("tests/fixtures/pt2/mlp.core_aten.torch2_6.input0.bin", input, sizeof(input)) !=
          sizeof(input) ||
      read_file("tests/fixtures/pt2/mlp.core_aten.torch2_6.output0.bin", expected,
                sizeof(expected)) != sizeof(expected)) {
    printf("FAIL: fixtures missing\n");
    return 1;
  }
  ember_program* program = NULL;
  ember_method* method = NULL;
  ember_status s = ember_program_load_file("tests/embedding/mlp.pte", NULL, &program);
  if (s == EMBER_OK) s = ember_method_create(program, "forward", NULL, &method);
  if (s == EMBER_OK) s = ember_method_set_input(method, 0, EMBER_DTYPE_FLOAT, input, sizeof(input));
  if (s == EMBER_OK) s = ember_method_execute(method);
  ember_value out;
  ember_value_init(&out);
  if (s == EMBER_OK) s = ember_method_output(method, 0, &out);
  if (s != EMBER_OK) {
    printf("FAIL: %s: %s\n", ember_status_name(s), ember_last_error_message());
    return 1;
  }
  const float* got = (const float*)out.data;
  for (int i = 0; i < 40; ++i) {
    if (fabsf(got[i] - expected[i]) > 1e-5f + 1e-4f * fabsf(expected[i])) ++failed;
  }
  // An error through the module: named, with the message.
  if (ember_method_set_input(method, 0, EMBER_DTYPE_FLOAT, input, 3) != EMBER_INVALID_ARGUMENT ||
      strstr(ember_method_last_error(method), "got 3 bytes") == NULL) {
    ++failed;
  }
  // The planned-memory budget through the module (what Ember.swift's maxPlannedMemoryBytes
  // sets): a 1-byte budget is MemoryAllocationFailed naming the option.
  ember_method_options tight;
  ember_method_options_init(&tight);
  tight.max_planned_memory_bytes = 1;
  ember_method* refused = NULL;
  if (ember_method_create(program, "forward", &tight, &refused) != EMBER_MEMORY_ALLOCATION_FAILED ||
      refused != NULL || strstr(ember_last_error_message(), "max_planned_memory_bytes 1:") == NULL) {
    ++failed;
  }
  ember_method_destroy(method);
  ember_program_destroy(program);
  printf("%d passed, %d failed\n", 42 - failed, failed);
  return failed == 0 ? 0 : 1;
}
