// Upstream ExecuTorch programs (../shared/fixtures/executorch-pte, via shared_dir()) carry
// no __ember_guards__ methods: every one still loads as before the guard tables existed.
// Each method that loads on Ember (portable kernels, prim ops, XNNPACK) has no input
// guards, Module::method_names lists every method of the file, and no load failure is
// about a guard table. dynamic.pte and add.pte must load.
#include <gtest/gtest.h>

#include <dirent.h>

#include <algorithm>
#include <string>
#include <vector>

#include "kernels/portable/register_kernels.h"
#include "runtime/core/diagnostics.h"
#include "runtime/kernel/prim_ops/prim_ops.h"
#include "runtime/module/module.h"
#include "tests/dynamic/dynamic_util.h"
#include "tests/support/shared_fixtures.h"

namespace ember::testing {
namespace {

std::vector<std::string> upstream_programs(const std::string& dir) {
  std::vector<std::string> out;
  DIR* d = opendir(dir.c_str());
  if (d == nullptr) return out;
  while (dirent* e = readdir(d)) {
    const std::string name = e->d_name;
    if (name.size() > 4 && name.compare(name.size() - 4, 4, ".pte") == 0) out.push_back(name);
  }
  closedir(d);
  std::sort(out.begin(), out.end());
  return out;
}

TEST(UpstreamNoGuardsTest, EveryProgramLoadsWithoutGuards) {
  const std::string shared = shared_dir();
  if (shared.empty()) GTEST_SKIP() << "../shared not available";
  const std::string dir = shared + "/fixtures/executorch-pte/";
  static runtime::FixedKernelRegistry<runtime::kDefaultKernelRegistryCapacity> kernels;
  static const bool registered = runtime::register_prim_ops(kernels) == runtime::Error::Ok &&
                                 kernels::portable::register_kernels(kernels) == runtime::Error::Ok;
  ASSERT_TRUE(registered);
  size_t methods_loaded = 0;
  std::vector<std::string> must_load = {"corey-cole__executorch-numpy-runtime__dynamic.pte",
                                        "barakugav__executorch-rs__add.pte"};
  for (const std::string& file : upstream_programs(dir)) {
    runtime::Module module(dir + file);
    runtime::Module::Options options;
    options.method.kernels = &kernels;
    options.method.backends = &xnnpack_backends();
    module.set_options(options);
    if (module.load() != runtime::Error::Ok) continue;  // not every fixture is a valid program
    auto names = module.method_names();
    ASSERT_TRUE(names.ok()) << file;
    EXPECT_EQ(names->size(), module.program().num_methods()) << file;
    for (const std::string& name : *names) {
      EXPECT_FALSE(runtime::is_guard_method_name(name.c_str())) << file << ": " << name;
      runtime::clear_error_message();
      auto method = module.load_method(name);
      if (!method.ok()) {
        EXPECT_EQ(std::string(runtime::last_error_message()).find("guard table"), std::string::npos)
            << file << ": " << runtime::last_error_message();
        continue;
      }
      EXPECT_EQ((*method)->input_guards().size(), 0u) << file << ": " << name;
      ++methods_loaded;
      must_load.erase(std::remove(must_load.begin(), must_load.end(), file), must_load.end());
    }
  }
  EXPECT_TRUE(must_load.empty()) << must_load.front() << " did not load";
  EXPECT_GE(methods_loaded, 20u);
}

}  // namespace
}  // namespace ember::testing
