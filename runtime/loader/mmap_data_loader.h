// MmapDataLoader: a DataLoader that maps the whole file read-only once and
// returns views into the mapping (no copies, no per-load allocation). The
// mapping lives until the loader is destroyed. Optional mlock of loaded ranges.
#pragma once

#include "runtime/core/data_loader.h"

namespace ember::runtime {

class MmapDataLoader final : public DataLoader {
 public:
  enum class MlockConfig { NoMlock, UseMlock, UseMlockIgnoreErrors };

  static Result<MmapDataLoader> from(const char* path, MlockConfig mlock = MlockConfig::NoMlock);

  MmapDataLoader(MmapDataLoader&& other) noexcept;
  MmapDataLoader& operator=(MmapDataLoader&&) = delete;
  MmapDataLoader(const MmapDataLoader&) = delete;
  ~MmapDataLoader() override;

  Result<FreeableBuffer> load(size_t offset, size_t size, const SegmentInfo& info) const override;
  Result<size_t> size() const override { return size_; }

 private:
  MmapDataLoader(void* base, size_t size, MlockConfig mlock)
      : base_(base), size_(size), mlock_(mlock) {}

  void* base_;
  size_t size_;
  MlockConfig mlock_;
};

}  // namespace ember::runtime
