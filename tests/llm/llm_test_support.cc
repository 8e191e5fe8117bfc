#include "tests/llm/llm_test_support.h"

#include <gtest/gtest.h>

#include <cstring>

#include "apps/executor_runner/registration.h"
#include "runtime/kernel/kernel_registry.h"

namespace ember::testing {

runtime::Module::Options registered() {
  static runtime::FixedKernelRegistry<runtime::kDefaultKernelRegistryCapacity> kernels;
  static runtime::BackendRegistry backends;
  static const runtime::Error once = runtime::register_linked(kernels, backends);
  EXPECT_EQ(once, runtime::Error::Ok);
  runtime::Module::Options options;
  options.method.kernels = &kernels;
  options.method.backends = &backends;
  return options;
}

std::vector<int32_t> prompt_of(const Fixture& f) {
  aot::HostTensor ids;
  EXPECT_TRUE(read_fixture_tensor(f.cases[0].inputs[0], &ids));
  std::vector<int32_t> prompt(ids.numel());
  for (size_t i = 0; i < prompt.size(); ++i) {
    int64_t v;
    std::memcpy(&v, ids.bytes.data() + 8 * i, 8);
    prompt[i] = static_cast<int32_t>(v);
  }
  return prompt;
}

}  // namespace ember::testing
