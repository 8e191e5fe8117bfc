// libFuzzer target: executor_runner's input handling (apps/executor_runner/runner_io.h) on
// arbitrary flag text and input files. The program is fixed (out = a + b on float[2] with
// dynamic, bounded shapes); the fuzz input carries the --input_shapes text and the
// contents of the --inputs files:
//
//   byte 0: bits 0-1 = number of input files (0-3), bit 6 = name them "*.npy" (the .npy
//   reader, apps/diagnostics/npy.h, parses them), bit 7 = add a directory as a file;
//   then the shapes text up to the first '\n' (at most 256 bytes); the rest is divided
//   evenly between the files, written to /dev/shm for the duration of one input.
//
// Every input must end in executed outputs or a named error, as the runner does.
// runner_inputs_fuzz_test drives the same entry point in `bazel test`.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "runtime/executor/testing/program_builder.h"
#include "runtime/executor/testing/test_kernels.h"
#include "runtime/core/diagnostics.h"
#include "runtime/kernel/kernel_registry.h"
#include "runtime/kernel/prim_ops/prim_ops.h"
#include "runtime/module/module.h"
#include "runtime/platform/log.h"
#include "apps/executor_runner/runner_io.h"
#include "tests/fuzz/runner_inputs_fuzz.h"

namespace {

using namespace ember::runtime;  // NOLINT
using ember::runtime::Error;

const std::vector<uint8_t>& program_bytes() {
  static const std::vector<uint8_t> bytes = [] {
    auto program = ember::testing::make_add_program();
    for (int v : {0, 1, 3}) {
      program->execution_plan[0]->values[size_t(v)]->val.AsTensor()->shape_dynamism =
          executorch_flatbuffer::TensorShapeDynamism::DYNAMIC_BOUND;
    }
    return ember::testing::serialize(*program);
  }();
  return bytes;
}

const KernelRegistry& kernels() {
  static FixedKernelRegistry<64> registry;
  static bool initialized = false;
  if (!initialized) {
    initialized = true;
    set_min_log_level(LogLevel::Fatal);
    (void)register_prim_ops(registry);
    (void)ember::testing::register_test_kernels(registry);
  }
  return registry;
}

}  // namespace

namespace ember::fuzz {

Error runner_inputs_fuzz_input(const uint8_t* data, size_t size) {
  if (size == 0) return Error::Ok;
  const size_t num_files = data[0] & 3;
  const bool add_directory = (data[0] & 0x80) != 0;
  const bool npy = (data[0] & 0x40) != 0;
  size_t at = 1;
  std::string shapes_text;
  while (at < size && data[at] != '\n' && shapes_text.size() < 256) shapes_text.push_back(char(data[at++]));
  if (at < size) ++at;
  std::vector<std::string> files;
  const size_t rest = size - at;
  for (size_t i = 0; i < num_files; ++i) {
    const size_t begin = at + rest * i / num_files, end = at + rest * (i + 1) / num_files;
    files.push_back("/dev/shm/ember-runner-fuzz-" + std::to_string(getpid()) + "-" + std::to_string(i) +
                    (npy ? ".npy" : ""));
    FILE* f = std::fopen(files.back().c_str(), "wb");
    if (f == nullptr) return Error::AccessFailed;
    if (end > begin) std::fwrite(data + begin, 1, end - begin, f);
    std::fclose(f);
  }
  if (add_directory) files.push_back("/dev/shm");

  Error result = run_with_runner_inputs(shapes_text, files);
  for (size_t i = 0; i < num_files; ++i) std::remove(files[i].c_str());
  return result;
}

Error run_with_runner_inputs(const std::string& shapes_text, const std::vector<std::string>& files) {
  (void)kernels();
  std::vector<std::vector<int32_t>> shapes;
  EMBER_TRY(parse_shapes(shapes_text, &shapes));
  Module module(program_bytes().data(), program_bytes().size());
  Module::Options options;
  options.method.kernels = &kernels();
  // The add program needs no temp memory; the runner's 16 MiB default, allocated and
  // freed per input, cost most of each execution under ASan.
  options.temp_allocator_bytes = 4096;
  module.set_options(options);
  Result<Method*> method = module.load_method("forward");
  if (!method.ok()) return method.error();
  RunnerInputs inputs;
  EMBER_TRY(build_inputs(**method, files, shapes, &inputs));
  EMBER_TRY((*method)->set_inputs(Span<const EValue>(inputs.values.data(), inputs.values.size())));
  EMBER_TRY((*method)->execute());
  (void)outputs_json(**method);
  return Error::Ok;
}

}  // namespace ember::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  (void)ember::fuzz::runner_inputs_fuzz_input(data, size);
  return 0;
}
