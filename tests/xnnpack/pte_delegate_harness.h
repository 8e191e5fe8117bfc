// Test-only harness that runs the XNNPACK delegates of an upstream .pte directly
// (without a runtime Method): it opens the file with runtime::PteContainer (header,
// verified FlatBuffer, segments), reads the plan with //schema:program, builds
// each delegate's processed blob from its segment or inline data, exposes the
// program's named_data through the runtime's PteDataMap, creates one heap Tensor
// per tensor value, and runs the method's DelegateCalls in order. Methods that
// also contain KernelCalls can only be initialised, not run, here.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "runtime/core/evalue.h"
#include "runtime/core/memory_allocator.h"
#include "runtime/core/named_data_map.h"
#include "runtime/executor/pte_container.h"
#include "runtime/executor/pte_data_map.h"
#include "runtime/loader/buffer_data_loader.h"

namespace ember::testing {

class PteDelegateHarness {
 public:
  PteDelegateHarness();
  ~PteDelegateHarness();

  // Loads `path`; false (with *error) if it is not a readable program.
  bool load(const std::string& path, std::string* error);

  // Initialises every delegate of `method`. Returns Ok or the first init error
  // (message in runtime::last_error_message()).
  runtime::Error init_delegates(const std::string& method);
  // True when the method has only DelegateCall instructions (runnable here).
  bool only_delegate_calls() const { return only_delegates_; }
  size_t num_delegates() const { return handles_.size(); }

  size_t num_inputs() const { return inputs_.size(); }
  size_t num_outputs() const { return outputs_.size(); }
  // Sets input i to `shape` and copies `bytes` into it.
  runtime::Error set_input(size_t i, const std::vector<int32_t>& shape,
                           const std::vector<uint8_t>& bytes);
  runtime::Error execute();
  const runtime::Tensor& output(size_t i) const;

 private:
  struct TensorSlot;
  std::vector<uint8_t> file_;
  runtime::PteContainer container_;
  const void* plan_ = nullptr;
  std::unique_ptr<runtime::BufferDataLoader> loader_;
  std::unique_ptr<runtime::PteDataMap> named_;
  std::vector<uint8_t> arena_;
  std::vector<std::vector<uint8_t>> planned_;
  std::unique_ptr<runtime::MemoryAllocator> allocator_;
  std::vector<std::unique_ptr<TensorSlot>> slots_;
  std::vector<runtime::EValue> values_;
  std::vector<int> inputs_, outputs_;
  std::vector<void*> handles_;
  bool only_delegates_ = true;
};

}  // namespace ember::testing
