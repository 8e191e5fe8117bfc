// run_pte_method: runs one method of a .pte held in memory on Ember's runtime, with the
// portable kernels and prim ops (plus any extra kernels/backends the caller registers),
// and returns copies of the outputs. Used by ExportSession::run_method, the e2e tests
// and the lower tool's --check. Allocates freely (AoT side); the runtime itself loads and
// executes without heap allocation as usual.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "aot/ir/error.h"
#include "aot/ir/host_tensor.h"

namespace ember::runtime {
class BackendRegistry;
}

namespace ember::aot {

struct RunOptions {
  // Backends for DelegateCall instructions (nullptr: the process-wide default registry).
  const runtime::BackendRegistry* backends = nullptr;
};

// A loaded program whose methods keep their state (mutable buffers) between runs.
class PteRunner {
 public:
  // Copies `pte`; loading errors come back as Error (runtime error name and code).
  static Result<std::unique_ptr<PteRunner>> load(const std::vector<uint8_t>& pte,
                                                   const RunOptions& options = {});
  ~PteRunner();
  // Runs `method` (loaded on first use, then reused) with `inputs`; copies the outputs.
  Result<std::vector<HostTensor>> run(const std::string& method,
                                        const std::vector<HostTensor>& inputs);

 private:
  struct Impl;
  explicit PteRunner(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// The lowering's self-check (issue #16): loads `pte` with Ember's runtime and loads every
// method, so a file the loader would reject is never written. Kernels are the portable ones
// plus prim ops; delegates bind to stand-in backends that accept any payload (the payload is
// the backend's own AoT half's business). A method that calls an operator with no portable
// kernel (a custom op, say) cannot be checked here and is skipped. Any other load failure
// comes back as the runtime's error, naming the method and calling it a lowering bug.
Error check_pte_loads(const std::vector<uint8_t>& pte);

// Loads `pte` (fresh state), runs `method` with `inputs` (tensor inputs in order), returns its tensor
// outputs. Runtime errors come back as Error with the runtime error's name and code.
Result<std::vector<HostTensor>> run_pte_method(const std::vector<uint8_t>& pte,
                                                 const std::string& method,
                                                 const std::vector<HostTensor>& inputs,
                                                 const RunOptions& options = {});

// Kernel names ("aten::add.out") a program's methods use that the portable library and
// prim ops do not provide. Empty when everything resolves (or the program does not load).
std::vector<std::string> missing_kernels(const std::vector<uint8_t>& pte);

}  // namespace ember::aot
