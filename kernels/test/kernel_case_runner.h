// The shared kernel test harness: runs one PyTorch-generated case (case_file.h)
// against whatever kernel a KernelRegistry holds under the case's op key, so
// every kernel library (portable, optimized, backends) is checked by the same
// cases. It boxes the case's arguments as the .pte would ([schema args...,
// out, return slot], the return slot repeating out or a TensorList of outs),
// calls the kernel with a temp allocator, and compares the outs with the
// case's tolerance (NaN matches NaN, an infinity only itself; integers and
// bools exactly), or checks that the kernel failed when PyTorch raised.
#pragma once

#include <string>
#include <vector>

#include "kernels/test/case_file.h"
#include "runtime/kernel/kernel_registry.h"

namespace ember::kernels::testing {

struct CaseOutcome {
  bool passed = false;
  std::string message;  // why it failed ("" when passed)
};

// Runs `c` of op `op_key` with the kernel found in `registry` (OperatorMissing
// is a failure). `thread_pool` may be null.
CaseOutcome run_case(const runtime::KernelRegistry& registry, const std::string& op_key,
                     const Case& c, runtime::ThreadPool* thread_pool = nullptr);

// Summary of one case file.
struct FileOutcome {
  std::string op_key;
  bool registered = false;
  size_t cases = 0;
  size_t passed = 0;
  std::vector<std::string> failures;  // "<case name>: <message>"
};

// Runs every case of `file`.
FileOutcome run_case_file(const runtime::KernelRegistry& registry, const CaseFile& file,
                          runtime::ThreadPool* thread_pool = nullptr);

// Paths of the *.case files in `dir`, sorted.
std::vector<std::string> list_case_files(const std::string& dir);

}  // namespace ember::kernels::testing
