#include "runtime/loader/file_data_loader.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>

#include "runtime/core/diagnostics.h"
#include "runtime/loader/regular_file.h"

namespace ember::runtime {
namespace {

void free_aligned(void*, void* data, size_t) { std::free(data); }

}  // namespace

Result<FileDataLoader> FileDataLoader::from(const char* path, size_t alignment) {
  if (alignment == 0 || (alignment & (alignment - 1)) != 0) {
    return fail(Error::InvalidArgument, "file loader: alignment %zu is not a power of two",
                alignment);
  }
  Result<RegularFile> file = open_regular_file(path);
  if (!file.ok()) return file.error();
  const int fd = file->fd;
  return FileDataLoader(fd, file->size, alignment);
}

FileDataLoader::FileDataLoader(FileDataLoader&& other) noexcept
    : fd_(other.fd_), size_(other.size_), alignment_(other.alignment_) {
  other.fd_ = -1;
}

FileDataLoader::~FileDataLoader() {
  if (fd_ >= 0) ::close(fd_);
}

Error FileDataLoader::load_into(size_t offset, size_t size, const SegmentInfo&,
                                void* buffer) const {
  if (!range_fits(offset, size, size_)) {
    return fail(Error::InvalidArgument, "file loader: [%zu, +%zu) is past the end (%zu bytes)",
                offset, size, size_);
  }
  uint8_t* out = static_cast<uint8_t*>(buffer);
  size_t done = 0;
  while (done < size) {
    const ssize_t n = ::pread(fd_, out + done, size - done, static_cast<off_t>(offset + done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      return fail(Error::AccessFailed, "file loader: read of [%zu, +%zu) failed after %zu bytes",
                  offset, size, done);
    }
    done += static_cast<size_t>(n);
  }
  return Error::Ok;
}

Result<FreeableBuffer> FileDataLoader::load(size_t offset, size_t size,
                                            const SegmentInfo& info) const {
  if (!range_fits(offset, size, size_)) {
    return fail(Error::InvalidArgument, "file loader: [%zu, +%zu) is past the end (%zu bytes)",
                offset, size, size_);
  }
  if (size == 0) return FreeableBuffer(nullptr, 0);
  const size_t rounded = (size + alignment_ - 1) / alignment_ * alignment_;
  void* data = std::aligned_alloc(alignment_ < sizeof(void*) ? sizeof(void*) : alignment_, rounded);
  if (data == nullptr) {
    return fail(Error::MemoryAllocationFailed, "file loader: cannot allocate %zu bytes", size);
  }
  const Error err = load_into(offset, size, info, data);
  if (err != Error::Ok) {
    std::free(data);
    return err;
  }
  return FreeableBuffer(data, size, free_aligned, nullptr);
}

}  // namespace ember::runtime
