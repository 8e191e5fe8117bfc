// Runs the program ember_pte lowered and ember_embedded_program embedded (read-only data, no
// file system) through Ember's C API, and compares its output with PyTorch's
// (model/tiny_convnet.output0.bin, written by model/export_model.py). Plain C++, no test
// framework: exit status 0 means pass.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "ember/ember.h"
#include "tiny_convnet_program.h"

namespace {

int failures = 0;

void check(bool ok, const std::string& what) {
  if (!ok) {
    std::fprintf(stderr, "FAIL: %s (%s)\n", what.c_str(), ember_last_error_message());
    ++failures;
  }
}

std::vector<float> read_floats(const char* path) {
  std::ifstream f(path, std::ios::binary);
  std::vector<char> bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  std::vector<float> out(bytes.size() / sizeof(float));
  std::copy(bytes.begin(), bytes.begin() + out.size() * sizeof(float), reinterpret_cast<char*>(out.data()));
  return out;
}

}  // namespace

int main() {
  // The array is aligned as the header says (128: the .pte's segment alignment).
  check(reinterpret_cast<uintptr_t>(ember_program_tiny_convnet_program) % 128 == 0, "array alignment");
  check(ember_program_tiny_convnet_program_size > 0, "array size");

  ember_program* program = nullptr;
  check(ember_program_load_buffer(ember_program_tiny_convnet_program, ember_program_tiny_convnet_program_size,
                                  nullptr, &program) == EMBER_OK,
        "load program from the embedded array");
  if (program == nullptr) return 1;

  ember_method* method = nullptr;
  check(ember_method_create(program, "forward", nullptr, &method) == EMBER_OK, "create method forward");
  if (method == nullptr) return 1;

  const std::vector<float> input = read_floats("model/tiny_convnet.input0.bin");
  const std::vector<float> want = read_floats("model/tiny_convnet.output0.bin");
  check(input.size() == 2 * 3 * 8 * 8 && want.size() == 2 * 5, "reference files (runfiles)");
  check(ember_method_set_input(method, 0, EMBER_DTYPE_FLOAT, input.data(), input.size() * sizeof(float)) ==
            EMBER_OK,
        "set input 0");
  check(ember_method_execute(method) == EMBER_OK, "execute");

  ember_value out;
  ember_value_init(&out);
  check(ember_method_output(method, 0, &out) == EMBER_OK, "output 0");
  check(out.kind == EMBER_KIND_TENSOR && out.dtype == EMBER_DTYPE_FLOAT && out.rank == 2 &&
            out.sizes[0] == 2 && out.sizes[1] == 5 && out.nbytes == want.size() * sizeof(float),
        "output 0 is a float32 [2, 5] tensor");
  if (failures == 0) {
    const float* got = static_cast<const float*>(out.data);
    for (size_t i = 0; i < want.size(); ++i) {
      // Float32 kernels against PyTorch's float32: |got - want| <= 1e-5 + 1e-4 |want|.
      const float diff = std::fabs(got[i] - want[i]);
      check(diff <= 1e-5f + 1e-4f * std::fabs(want[i]),
            "element " + std::to_string(i) + ": got " + std::to_string(got[i]) + ", PyTorch " +
                std::to_string(want[i]));
    }
  }

  ember_method_destroy(method);
  ember_program_destroy(program);
  if (failures == 0) std::printf("PASS: tiny_convnet from the embedded array matches PyTorch\n");
  return failures == 0 ? 0 : 1;
}
