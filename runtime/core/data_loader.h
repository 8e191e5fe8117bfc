// DataLoader: how the runtime reads a program file. Program::load reads the
// header and the FlatBuffer through it; segments (constants, delegate blobs,
// named data, mutable state) are read on demand. Implementations live in
// runtime/loader (buffer, file, mmap). A loader must outlive every Program that
// uses it. Offsets and sizes come from untrusted files: load() checks
// offset + size against size() (with overflow) and returns InvalidArgument
// instead of reading past the end.
#pragma once

#include <cstddef>

#include "runtime/core/error.h"
#include "runtime/core/freeable_buffer.h"
#include "runtime/core/result.h"

namespace ember::runtime {

// Why a range is being loaded (lets a loader place or cache data per kind).
struct SegmentInfo {
  enum class Type : uint8_t { Program, Constant, Backend, Mutable, External };
  Type segment_type = Type::Program;
  size_t segment_index = 0;
  const char* descriptor = nullptr;  // backend id for Backend segments
};

class DataLoader {
 public:
  virtual ~DataLoader() = default;

  // The bytes [offset, offset + size). The returned buffer may own memory.
  virtual Result<FreeableBuffer> load(size_t offset, size_t size, const SegmentInfo& info) const = 0;

  // Copies [offset, offset + size) into `buffer` (caller memory, >= size bytes).
  // The default loads and copies. Defined inline so that DataLoader has no key function: its
  // type information is then emitted wherever a subclass compiled with RTTI needs it (tests,
  // tools), while the runtime itself is compiled with -fno-rtti (docs/decisions.md).
  virtual Error load_into(size_t offset, size_t size, const SegmentInfo& info, void* buffer) const {
    return load_and_copy(*this, offset, size, info, buffer);
  }

  // Total size of the data in bytes.
  virtual Result<size_t> size() const = 0;

 protected:
  // load_into's default: load(), then copy.
  static Error load_and_copy(const DataLoader& loader, size_t offset, size_t size,
                             const SegmentInfo& info, void* buffer);
};

// True when [offset, offset + size) lies inside [0, total) without overflow.
inline bool range_fits(size_t offset, size_t size, size_t total) {
  return offset <= total && size <= total - offset;
}

}  // namespace ember::runtime
