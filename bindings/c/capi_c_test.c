/* A pure C99 program against libember.so (built -std=c99 -pedantic -Wall -Wextra -Werror):
 * runs the MLP lowered from tests/fixtures/pt2 and compares with PyTorch's output, reads
 * the metadata and checks a few error paths. Prints "N passed, N failed". */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ember/ember.h"

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

static size_t read_file(const char* path, void* buffer, size_t capacity) {
  FILE* f = fopen(path, "rb");
  size_t n = 0;
  if (f == NULL) return 0;
  n = fread(buffer, 1, capacity, f);
  fclose(f);
  return n;
}

int main(void) {
  static float input[4 * 16];
  static float expected[4 * 10];
  ember_program* program = NULL;
  ember_method* method = NULL;
  ember_tensor_info info;
  ember_value out;
  ember_status s;
  size_t i;
  float worst = 0.0f;

  CHECK(ember_version() == EMBER_VERSION);
  CHECK(read_file("tests/fixtures/pt2/mlp.core_aten.torch2_6.input0.bin", input, sizeof(input)) ==
        sizeof(input));
  CHECK(read_file("tests/fixtures/pt2/mlp.core_aten.torch2_6.output0.bin", expected,
                  sizeof(expected)) == sizeof(expected));

  s = ember_program_load_file("tests/embedding/mlp.pte", NULL, &program);
  CHECK(s == EMBER_OK);
  if (s != EMBER_OK) {
    fprintf(stderr, "%s: %s\n", ember_status_name(s), ember_last_error_message());
    return 1;
  }
  s = ember_method_create(program, "forward", NULL, &method);
  CHECK(s == EMBER_OK);
  if (s != EMBER_OK) {
    fprintf(stderr, "%s: %s\n", ember_status_name(s), ember_program_last_error(program));
    return 1;
  }

  ember_tensor_info_init(&info);
  CHECK(ember_method_input_info(method, 0, &info) == EMBER_OK);
  CHECK(info.kind == EMBER_KIND_TENSOR && info.dtype == EMBER_DTYPE_FLOAT && info.rank == 2);
  CHECK(info.sizes[0] == 4 && info.sizes[1] == 16 && info.nbytes == sizeof(input));

  CHECK(ember_method_set_input(method, 0, EMBER_DTYPE_FLOAT, input, sizeof(input)) == EMBER_OK);
  CHECK(ember_method_execute(method) == EMBER_OK);
  ember_value_init(&out);
  CHECK(ember_method_output(method, 0, &out) == EMBER_OK);
  CHECK(out.kind == EMBER_KIND_TENSOR && out.dtype == EMBER_DTYPE_FLOAT);
  CHECK(out.rank == 2 && out.sizes[0] == 4 && out.sizes[1] == 10 && out.nbytes == sizeof(expected));
  if (out.nbytes == sizeof(expected)) {
    const float* got = (const float*)out.data;
    for (i = 0; i < 40; ++i) {
      const float err = fabsf(got[i] - expected[i]) - 1e-4f * fabsf(expected[i]);
      if (err > worst) worst = err;
    }
    CHECK(worst <= 1e-5f);
  }

  /* Errors: named, with a message on the handle; nothing aborts. */
  s = ember_method_set_input(method, 0, EMBER_DTYPE_FLOAT, input, sizeof(input) - 4);
  CHECK(s == EMBER_INVALID_ARGUMENT);
  CHECK(strcmp(ember_status_name(s), "InvalidArgument") == 0);
  CHECK(strstr(ember_method_last_error(method), "got 252 bytes") != NULL);
  CHECK(ember_method_set_input(method, 0, EMBER_DTYPE_INT32, input, sizeof(input)) ==
        EMBER_INVALID_TYPE);
  CHECK(ember_method_set_input(method, 3, EMBER_DTYPE_FLOAT, input, sizeof(input)) ==
        EMBER_INVALID_ARGUMENT);
  CHECK(ember_method_output(method, 0, NULL) == EMBER_INVALID_ARGUMENT);
  CHECK(ember_method_execute(NULL) == EMBER_INVALID_ARGUMENT);
  {
    ember_program* missing = NULL;
    CHECK(ember_program_load_file("tests/embedding/absent.pte", NULL, &missing) == EMBER_NOT_FOUND);
    CHECK(missing == NULL && strlen(ember_last_error_message()) > 0);
  }

  /* Issue #33's misuse: destroying the program before its method (the method keeps working,
   * the program handle is refused at once), a double destroy and calls on destroyed handles
   * are named errors or no-ops with a message, never a crash (also under ASan). */
  ember_program_destroy(program);
  CHECK(ember_program_method_count(program) == 0);
  CHECK(strstr(ember_last_error_message(), "is not a live ember_program handle") != NULL);
  {
    ember_method* second = NULL;
    CHECK(ember_method_create(program, "forward", NULL, &second) == EMBER_INVALID_ARGUMENT);
    CHECK(second == NULL);
  }
  CHECK(ember_method_set_input(method, 0, EMBER_DTYPE_FLOAT, input, sizeof(input)) == EMBER_OK);
  CHECK(ember_method_execute(method) == EMBER_OK);
  ember_program_destroy(program); /* a second destroy: a no-op */
  ember_method_destroy(method);   /* frees the program too */
  ember_method_destroy(method);   /* double destroy: a no-op with a message */
  CHECK(strstr(ember_last_error_message(), "is not a live ember_method handle") != NULL);
  CHECK(ember_method_execute(method) == EMBER_INVALID_ARGUMENT);
  CHECK(ember_method_output(method, 0, &out) == EMBER_INVALID_ARGUMENT);
  CHECK(ember_method_input_count(method) == 0);
  CHECK(strcmp(ember_method_last_error(method), "") == 0);
  CHECK(strcmp(ember_method_name(method), "") == 0);
  printf("%d passed, %d failed\n", passed, failed);
  return failed == 0 ? 0 : 1;
}
