// FileDataLoader: a DataLoader that reads a file with pread(). Each load()
// reads into a fresh heap buffer aligned to `alignment` (freed when the
// returned FreeableBuffer is freed); load_into() reads straight into the
// caller's memory. Keeps the file descriptor open until destroyed. Use
// BufferDataLoader (or MmapDataLoader) where heap allocation is not allowed.
#pragma once

#include "runtime/core/data_loader.h"

namespace ember::runtime {

class FileDataLoader final : public DataLoader {
 public:
  // Opens `path`. NotFound/AccessFailed on failure; InvalidArgument for an
  // alignment that is not a power of two.
  static Result<FileDataLoader> from(const char* path,
                                     size_t alignment = alignof(std::max_align_t));

  FileDataLoader(FileDataLoader&& other) noexcept;
  FileDataLoader& operator=(FileDataLoader&&) = delete;
  FileDataLoader(const FileDataLoader&) = delete;
  ~FileDataLoader() override;

  Result<FreeableBuffer> load(size_t offset, size_t size, const SegmentInfo& info) const override;
  Error load_into(size_t offset, size_t size, const SegmentInfo& info, void* buffer) const override;
  Result<size_t> size() const override { return size_; }

 private:
  FileDataLoader(int fd, size_t size, size_t alignment)
      : fd_(fd), size_(size), alignment_(alignment) {}

  int fd_;
  size_t size_;
  size_t alignment_;
};

}  // namespace ember::runtime
