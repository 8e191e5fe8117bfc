// The training IR end to end (issue #13), external fixtures: torchvision classifiers and
// segmentation models at 64x64 and tiny configurations of the transformer-family torchvision
// models (swin, swin v2, maxvit, vit, convnext), written to ../large_fixtures/pt2 by
// refgen/fixtures/generate_pt2.py --large-out (README there), both torch versions, both
// recipes. Skips when none is present. Manual: several minutes on 2 cores.
#include <gtest/gtest.h>

#include <cstdio>

#include "tests/xnnpack_aot/training_ir_check.h"

namespace ember::testing {
namespace {

TEST(TrainingIrLargeTest, ExternalFixturesLowerRunAndMatchWithBothRecipes) {
  std::vector<Fixture> fixtures = training_ir_fixtures(/*external=*/true);
  if (fixtures.empty()) GTEST_SKIP() << "no external training_ir fixtures (refgen/fixtures/README.md)";
  const char* only = std::getenv("EMBER_TRAINING_IR_ONLY");  // a substring of the ids to run
  std::string table;
  for (const Fixture& f : fixtures) {
    if (only != nullptr && f.id.find(only) == std::string::npos) continue;
    for (const char* recipe : {"portable", "xnnpack"}) {
      table += check_training_ir_fixture(f, recipe);
      std::fflush(stdout);
    }
  }
  std::printf("%s", table.c_str());
}

}  // namespace
}  // namespace ember::testing
