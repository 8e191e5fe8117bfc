// corrupt_weight IN.pte IN.ptdbg MODULE OUT.pte: writes a copy of IN.pte with one weight
// changed, for dump_compare_test.sh. The weight is the largest constant tensor argument of
// the first instruction whose sidecar module is MODULE (an nn.Module path such as "fc2");
// every float of it is negated and shifted by 0.5. Prints the node name of that instruction
// (the layer where the two programs first differ). The weight's bytes are found by running
// the program once (inputs of ones) and searching the file for the argument's bytes, which
// must occur exactly once.
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "runtime/core/diagnostics.h"
#include "runtime/module/module.h"
#include "apps/diagnostics/debug_info.h"
#include "apps/executor_runner/registration.h"
#include "apps/executor_runner/runner_io.h"

namespace {

using namespace ember::runtime;  // NOLINT

int die(const char* what) {
  fprintf(stderr, "corrupt_weight: %s: %s\n", what, last_error_message());
  return 1;
}

// Remembers the largest constant-looking tensor argument of one instruction.
class Finder final : public InstructionObserver {
 public:
  explicit Finder(size_t target) : target_(target) {}
  void after_instruction(size_t instruction, Span<EValue* const> args) override {
    if (instruction != target_) return;
    for (size_t i = 0; i + 1 < args.size(); ++i) {  // the last argument is the output
      if (args[i] == nullptr || !args[i]->is_tensor()) continue;
      const Tensor& t = args[i]->to_tensor();
      if (t.scalar_type() == ScalarType::Float && t.nbytes() > bytes.size()) {
        bytes.assign(static_cast<const uint8_t*>(t.const_data_ptr()),
                     static_cast<const uint8_t*>(t.const_data_ptr()) + t.nbytes());
      }
    }
  }
  std::vector<uint8_t> bytes;

 private:
  size_t target_;
};

}  // namespace

int main(int argc, char** argv) {
  if (argc != 5) {
    fprintf(stderr, "usage: corrupt_weight IN.pte IN.ptdbg MODULE OUT.pte\n");
    return 2;
  }
  static FixedKernelRegistry<kDefaultKernelRegistryCapacity> kernels;
  static BackendRegistry backends;
  if (register_linked(kernels, backends) != Error::Ok) return die("registration");
  Result<DebugInfo> debug = DebugInfo::load(argv[2]);
  if (!debug.ok()) return die("sidecar");
  Module module(argv[1]);
  Module::Options options;
  options.method.kernels = &kernels;
  options.method.backends = &backends;
  module.set_options(options);
  if (module.load() != Error::Ok) return die("load");
  Result<const char*> name = module.program().get_method_name(0);
  if (!name.ok()) return die("method name");
  Result<Method*> method = module.load_method(*name);
  if (!method.ok()) return die("load_method");
  const MethodDebug* md = debug->method(*name);
  if (md == nullptr) return die("sidecar has no such method");
  std::vector<uint8_t> file;
  FILE* f = fopen(argv[1], "rb");
  if (f == nullptr) return die("read");
  for (int c; (c = fgetc(f)) != EOF;) file.push_back(uint8_t(c));
  fclose(f);
  RunnerInputs inputs;
  if (build_inputs(**method, {}, {}, &inputs) != Error::Ok) return die("inputs");
  for (size_t i = 0; i < md->instructions.size(); ++i) {
    if (md->instructions[i].origin.module != argv[3]) continue;
    Finder finder(i);
    (*method)->set_instruction_observer(&finder);
    if ((*method)->set_inputs(Span<const EValue>(inputs.values.data(), inputs.values.size())) != Error::Ok ||
        (*method)->execute() != Error::Ok) {
      return die("execute");
    }
    (*method)->set_instruction_observer(nullptr);
    if (finder.bytes.size() < 16) continue;  // no weight here (an activation-only op)
    size_t found = 0, at = 0;
    for (size_t p = 0; p + finder.bytes.size() <= file.size(); ++p) {
      if (memcmp(&file[p], finder.bytes.data(), finder.bytes.size()) == 0) {
        ++found;
        at = p;
      }
    }
    if (found != 1) {
      fprintf(stderr, "corrupt_weight: the weight of instruction %zu occurs %zu times in the file\n", i, found);
      return 1;
    }
    for (size_t k = 0; k + 4 <= finder.bytes.size(); k += 4) {
      float v;
      memcpy(&v, &file[at + k], 4);
      v = -v + 0.5f;
      memcpy(&file[at + k], &v, 4);
    }
    FILE* out = fopen(argv[4], "wb");
    if (out == nullptr || fwrite(file.data(), 1, file.size(), out) != file.size() || fclose(out) != 0) {
      return die("write");
    }
    printf("%s\n", md->instructions[i].origin.node.c_str());
    return 0;
  }
  fprintf(stderr, "corrupt_weight: no instruction of module '%s' has a float weight\n", argv[3]);
  return 1;
}
