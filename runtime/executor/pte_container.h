// The one reader of the .pte container (pte-format.md section 2): the FlatBuffer's
// 8-byte preamble with its "ET12" identifier, the optional "eh00" extended header,
// the verified FlatBuffer root, the segments after it, and the program's named data.
// The runtime's Program reads files through it, and so should every tool and test
// that opens a .pte: one set of checks, one set of messages.
//
// Rules: nothing here allocates, throws or aborts. Every offset and size taken
// from the file is checked (bounds and overflow) before use. Errors are Error
// values (InvalidProgram for a malformed file) with a message recorded by fail()
// (read it with last_error_message() right after the call). Nothing is owned: a
// PteContainer and every pointer, span or range it returns point into the
// caller's bytes, which must outlive them. All types are small values; copy them.
//
// Two ways in:
//  - The whole file in memory (tools, tests):
//      Result<PteContainer> c = PteContainer::open(bytes, size);
//      auto* program = static_cast<const executorch_flatbuffer::Program*>(c->program_root());
//      Result<Span<const uint8_t>> blob = c->segment_data(3);
//  - Through a DataLoader (the runtime's Program::load): read the first
//    min(file size, PteLayout::kHeadBytes) bytes, PteLayout::parse() them, load
//    [0, layout.program_size), PteContainer::open_program() it, then load each
//    segment at the file range segment() returns.
// This header does not include the generated schema: program_root() is an
// executorch_flatbuffer::Program (schema/program.fbs); cast it where the schema is
// included.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "runtime/core/result.h"
#include "runtime/core/span.h"

namespace ember::runtime {

// How much of the FlatBuffer open_program() checks. A runtime built with
// -DEMBER_NO_FLATBUFFER_VERIFIER (for trusted programs only, like ExecuTorch's Minimal default;
// docs/footprint.md) leaves the verifier's code out: InternalConsistency, still the default,
// then fails with NotSupported instead of loading the program unverified.
enum class PteVerification : uint8_t {
  // The identifier and the root offset only (for trusted, pre-verified data).
  Minimal,
  // The FlatBuffers verifier over the whole program (the default).
  InternalConsistency,
};

// The "eh00" extended header exactly as written at byte 8 (pte-format.md 2.1),
// before any check against the file.
struct PteExtendedHeader {
  static constexpr size_t kOffset = 8;      // bytes before the magic
  static constexpr size_t kMinLength = 24;  // magic + length + 2 x u64

  uint32_t length = 0;               // header_length (32 today, 24 before Sep 2025)
  uint64_t program_size = 0;         // FlatBuffer bytes from offset 0
  uint64_t segment_base_offset = 0;  // file offset of the segment region, 0 = none
  uint64_t segment_data_size = 0;    // 0 when the header is only 24 bytes long

  // Reads the header from the first `size` bytes of a file. NotFound (without a
  // message) when there is no "eh00" at byte 8: a plain FlatBuffer. InvalidProgram
  // when the magic is there but the header is truncated or its length is below 24.
  static Result<PteExtendedHeader> parse(const void* data, size_t size);
};

// Where the parts of a file are, from its first bytes and its size, checked
// against each other: the FlatBuffer is [0, program_size); segments are at
// segment_base_offset + DataSegment.offset when has_segments().
struct PteLayout {
  static constexpr size_t kHeadBytes = 64;  // what a loader reads first

  uint64_t file_size = 0;
  bool has_extended_header = false;
  PteExtendedHeader header;          // all zero when there is none
  uint64_t program_size = 0;         // header.program_size, or file_size without a header
  uint64_t segment_base_offset = 0;  // 0 = the file has no segment region

  bool has_segments() const { return segment_base_offset != 0; }

  // `head` = the first min(file_size, kHeadBytes) bytes of a file of `file_size`
  // bytes. InvalidProgram when the file is under 8 bytes, the header is
  // malformed, program_size is outside [8 + header length, file_size],
  // segment_base_offset is inside the program or past the file, or the segment
  // region (segment_data_size) runs past the file.
  static Result<PteLayout> parse(const void* head, size_t head_size, uint64_t file_size);
};

// A byte range of the file: [offset, offset + size), offset from byte 0.
struct PteRange {
  uint64_t offset = 0;
  uint64_t size = 0;
};

class PteContainer final {
 public:
  PteContainer() = default;

  // Opens a whole file held in memory: PteLayout::parse, then open_program on
  // its first program_size bytes. segment_data() works on the result.
  static Result<PteContainer> open(
      const void* file, size_t file_size,
      PteVerification verification = PteVerification::InternalConsistency);

  // Opens the FlatBuffer of a file described by `layout`: `program` holds at
  // least layout.program_size bytes (the start of the file). Checks the "ET12"
  // identifier, then verifies as asked. InvalidProgram for a short program, a
  // bad identifier, a root offset outside the program or a failed verifier;
  // InvalidArgument when fewer than layout.program_size bytes are given.
  static Result<PteContainer> open_program(
      const PteLayout& layout, const void* program, size_t size,
      PteVerification verification = PteVerification::InternalConsistency);

  // The "ET12" file identifier at bytes 4..8 of a program of `size` bytes: Ok, or
  // InvalidProgram naming what is there instead (also for fewer than 8 bytes).
  // open_program() checks it first; tools use it to tell a foreign file from a
  // corrupt program.
  static Error check_identifier(const void* program, size_t size);

  // True when `size` >= 8 and bytes 4..8 are the "ET12" file identifier: the one test
  // tools use to tell a program from another file (no error message is set).
  static bool has_program_identifier(const void* file, size_t size);

  const PteLayout& layout() const { return layout_; }
  // The verified root: an executorch_flatbuffer::Program (null if default-constructed).
  const void* program_root() const { return root_; }
  // The FlatBuffer bytes [0, layout().program_size).
  Span<const uint8_t> program_data() const {
    return Span<const uint8_t>(program_, size_t(layout_.program_size));
  }
  // True when opened with open(): segment bytes are reachable in memory.
  bool has_file_data() const { return file_ != nullptr; }

  // Program.segments.
  size_t num_segments() const;
  // The file range of segment `index`, checked: index in range, a segment
  // region present, no overflow, inside the file. An empty segment is {0, 0}
  // (valid with or without a segment region). InvalidProgram otherwise.
  Result<PteRange> segment(size_t index) const;
  // The bytes of segment `index` (as segment()); InvalidState when the
  // container was made by open_program() (load segment() through a loader).
  Result<Span<const uint8_t>> segment_data(size_t index) const;

  // Program.named_data: keys in file order.
  size_t num_named_data() const;
  // Key i ("" when the entry has none); InvalidArgument when i is out of range.
  Result<std::string_view> named_data_key(size_t i) const;
  // The segment index of the first entry named `key`; NotFound when there is
  // none. The segment itself is checked by segment() / segment_data().
  Result<size_t> named_data_segment(std::string_view key) const;

 private:
  PteLayout layout_;
  const uint8_t* program_ = nullptr;
  const uint8_t* file_ = nullptr;  // the whole file, when opened with open()
  const void* root_ = nullptr;
};

}  // namespace ember::runtime
