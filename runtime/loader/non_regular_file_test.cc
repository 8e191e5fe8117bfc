// Issue #33: the file and mmap loaders refuse what is not a regular file before open() can
// block. A FIFO with no writer used to hang executor_runner, pte_check, lower and inspect
// forever in open(); now it is AccessFailed naming the path and what it is. alarm() turns a
// regression (a blocking open) into a failed test instead of a hang until Bazel's timeout.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <string>

#include "runtime/core/diagnostics.h"
#include "runtime/loader/file_data_loader.h"
#include "runtime/loader/mmap_data_loader.h"

namespace ember::runtime {
namespace {

std::string temp_path(const char* name) {
  const char* dir = getenv("TEST_TMPDIR");
  return std::string(dir ? dir : "/tmp") + "/" + name;
}

template <typename Loader>
void expect_refused(const std::string& path, const std::string& message) {
  alarm(20);  // a blocking open() kills the test with SIGALRM instead of hanging
  Result<Loader> loader = Loader::from(path.c_str());
  alarm(0);
  ASSERT_FALSE(loader.ok()) << path;
  EXPECT_EQ(loader.error(), Error::AccessFailed);
  EXPECT_EQ(std::string(last_error_message()), message);
}

TEST(NonRegularFileTest, FifoWithoutWriterIsRefusedNotWaitedOn) {
  const std::string fifo = temp_path("model.pte");
  unlink(fifo.c_str());
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  const std::string want =
      "'" + fifo + "' is not a readable regular file (it is a FIFO (named pipe))";
  expect_refused<FileDataLoader>(fifo, want);
  expect_refused<MmapDataLoader>(fifo, want);
  unlink(fifo.c_str());
}

TEST(NonRegularFileTest, CharacterDeviceIsRefused) {
  const std::string want = "'/dev/zero' is not a readable regular file (it is a character device)";
  expect_refused<FileDataLoader>("/dev/zero", want);
  expect_refused<MmapDataLoader>("/dev/zero", want);
}

TEST(NonRegularFileTest, DirectoryIsRefused) {
  const std::string dir = temp_path("");
  expect_refused<FileDataLoader>(dir, "'" + dir + "' is a directory, not a file");
  expect_refused<MmapDataLoader>(dir, "'" + dir + "' is a directory, not a file");
}

TEST(NonRegularFileTest, RegularFileStillLoadsWithBlockingReads) {
  const std::string path = temp_path("ok.bin");
  FILE* f = fopen(path.c_str(), "wb");
  ASSERT_NE(f, nullptr);
  ASSERT_EQ(fwrite("abcd", 1, 4, f), 4u);
  ASSERT_EQ(fclose(f), 0);
  Result<FileDataLoader> loader = FileDataLoader::from(path.c_str());
  ASSERT_TRUE(loader.ok());
  char out[4];
  ASSERT_EQ(loader->load_into(0, 4, SegmentInfo{}, out), Error::Ok);
  EXPECT_EQ(std::string(out, 4), "abcd");
}

}  // namespace
}  // namespace ember::runtime
