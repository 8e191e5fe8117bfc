// Tests for the buffer, file and mmap data loaders: same bytes, bounds checks.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <string>

#include "runtime/loader/buffer_data_loader.h"
#include "runtime/loader/file_data_loader.h"
#include "runtime/loader/mmap_data_loader.h"

namespace ember::runtime {
namespace {

std::string write_temp(const char* bytes, size_t n) {
  const char* dir = getenv("TEST_TMPDIR");
  std::string path = std::string(dir ? dir : "/tmp") + "/loader_test.bin";
  FILE* f = fopen(path.c_str(), "wb");
  fwrite(bytes, 1, n, f);
  fclose(f);
  return path;
}

void expect_loader(const DataLoader& loader) {
  ASSERT_EQ(*loader.size(), 10u);
  Result<FreeableBuffer> b = loader.load(2, 5, SegmentInfo{});
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(std::memcmp(b->data(), "23456", 5), 0);
  char out[3];
  ASSERT_EQ(loader.load_into(7, 3, SegmentInfo{}, out), Error::Ok);
  EXPECT_EQ(std::memcmp(out, "789", 3), 0);
  EXPECT_EQ(loader.load(8, 3, SegmentInfo{}).error(), Error::InvalidArgument);
  EXPECT_EQ(loader.load(SIZE_MAX, 2, SegmentInfo{}).error(), Error::InvalidArgument);
  EXPECT_EQ(loader.load(1, SIZE_MAX, SegmentInfo{}).error(), Error::InvalidArgument);
}

TEST(DataLoaderTest, Buffer) {
  const char bytes[] = "0123456789";
  BufferDataLoader loader(bytes, 10);
  expect_loader(loader);
}

TEST(DataLoaderTest, File) {
  const std::string path = write_temp("0123456789", 10);
  Result<FileDataLoader> loader = FileDataLoader::from(path.c_str());
  ASSERT_TRUE(loader.ok());
  expect_loader(*loader);
  EXPECT_EQ(FileDataLoader::from("/nonexistent/x.pte").error(), Error::NotFound);
}

TEST(DataLoaderTest, Mmap) {
  const std::string path = write_temp("0123456789", 10);
  Result<MmapDataLoader> loader = MmapDataLoader::from(path.c_str());
  ASSERT_TRUE(loader.ok());
  expect_loader(*loader);
  EXPECT_EQ(MmapDataLoader::from("/nonexistent/x.pte").error(), Error::NotFound);
}

}  // namespace
}  // namespace ember::runtime
