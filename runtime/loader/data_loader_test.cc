// Tests for the buffer, file and mmap data loaders: same bytes, bounds checks.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
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

// True when the page holding `p` is mapped into this process (/proc/self/pagemap bit 63).
bool page_present(const void* p) {
  FILE* f = fopen("/proc/self/pagemap", "rb");
  if (f == nullptr) return true;
  const long page = sysconf(_SC_PAGESIZE);
  uint64_t entry = 0;
  const bool ok = fseek(f, long(uintptr_t(p) / uintptr_t(page) * sizeof(entry)), SEEK_SET) == 0 &&
                  fread(&entry, sizeof(entry), 1, f) == 1;
  fclose(f);
  return !ok || (entry >> 63) != 0;
}

TEST(DataLoaderTest, MmapLoadIntoReleasesTheCopiedPages) {
  // Four pages of a pattern: load_into copies pages 1..2 (plus a byte on either side) and then
  // unmaps the whole pages it copied; the mapping still reads the same bytes afterwards.
  if (FILE* f = fopen("/proc/self/pagemap", "rb")) {
    fclose(f);
  } else {
    GTEST_SKIP() << "no /proc/self/pagemap to see which pages are mapped";
  }
  const size_t page = size_t(sysconf(_SC_PAGESIZE));
  std::string bytes(4 * page, '\0');
  for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = char(i * 7 + 3);
  const std::string path = write_temp(bytes.data(), bytes.size());
  Result<MmapDataLoader> loader = MmapDataLoader::from(path.c_str());
  ASSERT_TRUE(loader.ok());
  Result<FreeableBuffer> view = loader->load(0, bytes.size(), SegmentInfo{});
  ASSERT_TRUE(view.ok());
  const auto* base = static_cast<const volatile char*>(view->data());
  char sum = 0;
  for (size_t i = 0; i < bytes.size(); i += page) sum = char(sum + base[i]);  // fault every page in
  (void)sum;
  ASSERT_TRUE(page_present(const_cast<const char*>(base) + page));
  std::string out(2 * page + 2, '\0');
  ASSERT_EQ(loader->load_into(page - 1, out.size(), SegmentInfo{}, out.data()), Error::Ok);
  EXPECT_EQ(out, bytes.substr(page - 1, out.size()));
  EXPECT_FALSE(page_present(const_cast<const char*>(base) + page));
  EXPECT_FALSE(page_present(const_cast<const char*>(base) + 2 * page));
  EXPECT_TRUE(page_present(const_cast<const char*>(base)));  // partly outside the range: kept
  EXPECT_EQ(std::memcmp(view->data(), bytes.data(), bytes.size()), 0);  // faulted back in
  EXPECT_EQ(loader->load_into(3 * page, 2 * page, SegmentInfo{}, out.data()), Error::InvalidArgument);
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
