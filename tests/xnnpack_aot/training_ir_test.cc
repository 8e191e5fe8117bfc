// The training IR end to end (issue #13), committed fixtures: every fixture model's
// torch.export.export output, saved without run_decompositions(), from torch 2.6 and 2.14,
// lowered with both recipes (portable, xnnpack), run on Ember's runtime and compared with
// PyTorch (training_ir_check.h). The external ones (torchvision classifiers and
// segmentation models, refgen/fixtures/README.md) run in training_ir_large_test.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <set>

#include <nlohmann/json.hpp>

#include "tests/xnnpack_aot/training_ir_check.h"

namespace ember::testing {
namespace {

std::string manifest_path() {
  const char* srcdir = std::getenv("TEST_SRCDIR");
  const char* ws = std::getenv("TEST_WORKSPACE");
  std::string root = srcdir != nullptr && ws != nullptr ? std::string(srcdir) + "/" + ws + "/" : "";
  return root + "tests/fixtures/pt2/manifest.json";
}

TEST(TrainingIrTest, CommittedFixturesLowerRunAndMatchWithBothRecipes) {
  std::string table;
  int ran = 0;
  for (const Fixture& f : training_ir_fixtures(/*external=*/false)) {
    for (const char* recipe : {"portable", "xnnpack"}) {
      table += check_training_ir_fixture(f, recipe);
      ++ran;
    }
  }
  std::printf("%s%d lowerings\n", table.c_str(), ran);
  EXPECT_GE(ran, 2 * 30);  // 15+ models x 2 torch versions x 2 recipes
}

// The manifest lists a training-IR export beside every core-ATen one (same model, same torch
// version), so the test above (or the large one) covers every fixture model.
TEST(TrainingIrTest, EveryFixtureModelHasTrainingIrExports) {
  std::ifstream in(manifest_path());
  ASSERT_TRUE(in) << manifest_path();
  nlohmann::json manifest = nlohmann::json::parse(in);
  std::set<std::string> training;  // "<model>@<torch tag>"
  std::map<std::string, std::string> core;
  for (const auto& [id, entry] : manifest["models"].items()) {
    const std::string key = entry["model"].get<std::string>() + "@" +
                            entry["torch_tag"].get<std::string>();
    if (entry["dialect"] == "training_ir") training.insert(key);
    if (entry["dialect"] == "core_aten") core[key] = id;
  }
  // The same network as mobilenet_v2 at 224x224 (a benchmark input size): no new operator.
  const std::set<std::string> same_ops_as_another = {"mobilenet_v2_224"};
  for (const auto& [key, id] : core) {
    if (same_ops_as_another.count(key.substr(0, key.find('@'))) != 0) continue;
    EXPECT_EQ(training.count(key), 1u) << id << " has no training_ir twin";
  }
}

}  // namespace
}  // namespace ember::testing
