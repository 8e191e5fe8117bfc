#include "runtime/loader/mmap_data_loader.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstring>

#include "runtime/core/diagnostics.h"
#include "runtime/loader/regular_file.h"

namespace ember::runtime {

Result<MmapDataLoader> MmapDataLoader::from(const char* path, MlockConfig mlock) {
  Result<RegularFile> file = open_regular_file(path);
  if (!file.ok()) return file.error();
  const int fd = file->fd;
  const size_t size = file->size;
  void* base = nullptr;
  if (size > 0) {
    base = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (base == MAP_FAILED) {
      ::close(fd);
      return fail(Error::AccessFailed, "cannot mmap '%s' (%zu bytes): %s", path, size,
                  std::strerror(errno));
    }
  }
  ::close(fd);
  return MmapDataLoader(base, size, mlock);
}

MmapDataLoader::MmapDataLoader(MmapDataLoader&& other) noexcept
    : base_(other.base_), size_(other.size_), mlock_(other.mlock_) {
  other.base_ = nullptr;
  other.size_ = 0;
}

MmapDataLoader::~MmapDataLoader() {
  if (base_ != nullptr) ::munmap(base_, size_);
}

Result<FreeableBuffer> MmapDataLoader::load(size_t offset, size_t size, const SegmentInfo&) const {
  if (!range_fits(offset, size, size_)) {
    return fail(Error::InvalidArgument, "mmap loader: [%zu, +%zu) is past the end (%zu bytes)",
                offset, size, size_);
  }
  const uint8_t* data = static_cast<const uint8_t*>(base_) + offset;
  if (size > 0 && mlock_ != MlockConfig::NoMlock) {
    if (::mlock(data, size) != 0 && mlock_ == MlockConfig::UseMlock) {
      return fail(Error::AccessFailed, "mlock of [%zu, +%zu) failed: %s", offset, size,
                  std::strerror(errno));
    }
  }
  return FreeableBuffer(size == 0 ? nullptr : data, size);
}

Error MmapDataLoader::load_into(size_t offset, size_t size, const SegmentInfo&, void* buffer) const {
  if (!range_fits(offset, size, size_)) {
    return fail(Error::InvalidArgument, "mmap loader: [%zu, +%zu) is past the end (%zu bytes)",
                offset, size, size_);
  }
  if (size == 0) return Error::Ok;
  const uint8_t* data = static_cast<const uint8_t*>(base_) + offset;
  std::memcpy(buffer, data, size);
  if (mlock_ != MlockConfig::NoMlock) return Error::Ok;  // the caller wants the file resident
  const long page_size = ::sysconf(_SC_PAGESIZE);
  if (page_size <= 0) return Error::Ok;
  const uintptr_t page = uintptr_t(page_size);
  const uintptr_t begin = (uintptr_t(data) + page - 1) / page * page;
  const uintptr_t end = (uintptr_t(data) + size) / page * page;
  // Advice on a private read-only file mapping: the pages are unmapped, the bytes stay the file's.
  if (end > begin) (void)::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_DONTNEED);
  return Error::Ok;
}

}  // namespace ember::runtime
