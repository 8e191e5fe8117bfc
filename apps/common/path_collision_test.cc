// check_path_collisions on issue #33's collisions, rebuilt in a scratch folder: "-o m.pte
// --debug_out ./m.pte", "inspect m.pt2 --dot m.pt2", "--output_file x" over the input
// x-0.bin, a batch's "same.pte" and "./same.pte" (neither exists yet), a symlink and a hard
// link to the input; and paths that differ. Messages written out by hand.
#include "apps/common/path_collision.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <string>

#include "runtime/core/diagnostics.h"

namespace ember::apps {
namespace {

using runtime::Error;

class PathCollisionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const char* tmp = std::getenv("TEST_TMPDIR");
    static int n = 0;
    dir_ = std::string(tmp ? tmp : "/tmp") + "/paths" + std::to_string(++n);
    ASSERT_EQ(mkdir(dir_.c_str(), 0755), 0);
    ASSERT_EQ(mkdir((dir_ + "/sub").c_str(), 0755), 0);
    std::ofstream(dir_ + "/m.pt2") << "pt2";
    std::ofstream(dir_ + "/m.pte") << "pte";
    std::ofstream(dir_ + "/x-0.bin") << "input";
  }
  std::string message() const { return runtime::last_error_message(); }
  std::string dir_;
};

TEST_F(PathCollisionTest, OutputsThatAreTheSameExistingFile) {
  EXPECT_EQ(check_path_collisions({{"model", dir_ + "/m.pt2"}},
                                  {{"-o", dir_ + "/m.pte"}, {"--debug_out", dir_ + "/./m.pte"}}),
            Error::InvalidArgument);
  EXPECT_EQ(message(), "-o '" + dir_ + "/m.pte' and --debug_out '" + dir_ +
                           "/./m.pte' are the same file: one output would overwrite the other; "
                           "give them different paths");
}

TEST_F(PathCollisionTest, OutputThatIsTheInput) {
  EXPECT_EQ(
      check_path_collisions({{"model", dir_ + "/m.pt2"}}, {{"--dot", dir_ + "/sub/../m.pt2"}}),
      Error::InvalidArgument);
  EXPECT_EQ(message(), "--dot '" + dir_ + "/sub/../m.pt2' is the input model '" + dir_ +
                           "/m.pt2': writing it would destroy the input; choose another output "
                           "path");
  // --output_file x writes x-0.bin: the caller lists the files it will write.
  EXPECT_EQ(check_path_collisions({{"--inputs", dir_ + "/x-0.bin"}},
                                  {{"--output_file", dir_ + "/x-0.bin"}}),
            Error::InvalidArgument);
}

TEST_F(PathCollisionTest, LinksToTheInputAreTheInput) {
  ASSERT_EQ(symlink((dir_ + "/m.pt2").c_str(), (dir_ + "/sym.pt2").c_str()), 0);
  ASSERT_EQ(link((dir_ + "/m.pt2").c_str(), (dir_ + "/hard.pt2").c_str()), 0);
  EXPECT_EQ(check_path_collisions({{"model", dir_ + "/m.pt2"}}, {{"-o", dir_ + "/sym.pt2"}}),
            Error::InvalidArgument);
  EXPECT_EQ(check_path_collisions({{"model", dir_ + "/m.pt2"}}, {{"-o", dir_ + "/hard.pt2"}}),
            Error::InvalidArgument);
}

TEST_F(PathCollisionTest, OutputsThatDoNotExistYetCompareByNormalisedPath) {
  ASSERT_EQ(chdir(dir_.c_str()), 0);
  EXPECT_EQ(check_path_collisions(
                {}, {{"batch entry 0 -o", "same.pte"}, {"batch entry 1 -o", "./same.pte"}}),
            Error::InvalidArgument);
  EXPECT_EQ(check_path_collisions({}, {{"a", "sub/new.pte"}, {"b", dir_ + "//sub/./new.pte"}}),
            Error::InvalidArgument);
  EXPECT_EQ(normalised_path("sub/../gone/./a.pte"), dir_ + "/gone/a.pte");
}

TEST_F(PathCollisionTest, DifferentFilesPass) {
  EXPECT_EQ(check_path_collisions({{"model", dir_ + "/m.pt2"}, {"--inputs", dir_ + "/x-0.bin"}},
                                  {{"-o", dir_ + "/m.pte"},
                                   {"--debug_out", dir_ + "/m.ptdbg"},
                                   {"--trace", dir_ + "/sub/t.json"}}),
            Error::Ok);
}

}  // namespace
}  // namespace ember::apps
