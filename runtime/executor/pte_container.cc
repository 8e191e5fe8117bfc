// PteContainer and friends; see pte_container.h (and pte-format.md 2.1, 2.3).
#include "runtime/executor/pte_container.h"

#include <cstring>

#include "runtime/core/diagnostics.h"
#include "runtime/executor/flatbuffer_access.h"

namespace ember::runtime {
namespace {

namespace fb = internal::fb;
using internal::as_program;
using internal::size_of;

uint32_t read_u32(const uint8_t* p) {
  return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
}

uint64_t read_u64(const uint8_t* p) {
  return uint64_t(read_u32(p)) | uint64_t(read_u32(p + 4)) << 32;
}

unsigned long long ull(uint64_t v) { return static_cast<unsigned long long>(v); }

// Checks the parsed header against the file; fills the layout's derived fields.
Error check_header(const PteExtendedHeader& h, PteLayout* layout) {
  const uint64_t file_size = layout->file_size;
  const uint64_t min_program = PteExtendedHeader::kOffset + uint64_t{h.length};
  if (h.program_size < min_program || h.program_size > file_size) {
    return fail(Error::InvalidProgram, "extended header: program_size %llu outside [%llu, %llu]",
                ull(h.program_size), ull(min_program), ull(file_size));
  }
  if (h.segment_base_offset != 0) {
    if (h.segment_base_offset < h.program_size || h.segment_base_offset > file_size) {
      return fail(Error::InvalidProgram,
                  "extended header: segment_base_offset %llu outside [program_size %llu, file "
                  "size %llu]",
                  ull(h.segment_base_offset), ull(h.program_size), ull(file_size));
    }
    if (h.segment_data_size > file_size - h.segment_base_offset) {
      return fail(Error::InvalidProgram,
                  "file truncated: segments need %llu bytes from offset %llu, file has %llu",
                  ull(h.segment_data_size), ull(h.segment_base_offset), ull(file_size));
    }
  }
  layout->has_extended_header = true;
  layout->header = h;
  layout->program_size = h.program_size;
  layout->segment_base_offset = h.segment_base_offset;
  return Error::Ok;
}

}  // namespace

bool PteContainer::has_program_identifier(const void* file, size_t size) {
  return size >= 8 && std::memcmp(static_cast<const uint8_t*>(file) + 4, fb::ProgramIdentifier(), 4) == 0;
}

Error PteContainer::check_identifier(const void* program, size_t size) {
  if (size < 8) {
    return fail(Error::InvalidProgram, "no file identifier: %zu-byte program, need at least 8",
                size);
  }
  if (has_program_identifier(program, size)) return Error::Ok;
  const uint8_t* data = static_cast<const uint8_t*>(program);
  char id[5] = {};
  for (int i = 0; i < 4; ++i) {
    const char c = static_cast<char>(data[4 + i]);
    id[i] = (c >= 32 && c < 127) ? c : '?';
  }
  if (std::memcmp(id, "BP08", 4) == 0) {  // every door (C API, Java, Module) says what it is
    return fail(Error::InvalidProgram,
                "bad file identifier 'BP08', expected '%s': this is a bundled program (.bpte), a program "
                "plus test cases; run it with executor_runner --bundled, or take the program out with "
                "runtime/bundled's BundledProgram",
                fb::ProgramIdentifier());
  }
  return fail(Error::InvalidProgram, "bad file identifier '%s', expected '%s'", id,
              fb::ProgramIdentifier());
}

namespace {

Error verify(const uint8_t* data, size_t size, PteVerification verification) {
  EMBER_TRY(PteContainer::check_identifier(data, size));
  if (verification == PteVerification::Minimal) {
    const uint32_t root = read_u32(data);
    if (root < 8 || root > size - 4) {
      return fail(Error::InvalidProgram, "root offset %u outside the %zu-byte program", root, size);
    }
    return Error::Ok;
  }
#if defined(EMBER_NO_FLATBUFFER_VERIFIER)
  // A build for trusted programs only (pte_container.h): verification was asked for and this
  // build cannot do it, so the program is refused rather than loaded unverified.
  return fail(Error::NotSupported,
              "this runtime was built without the FlatBuffers verifier (EMBER_NO_FLATBUFFER_VERIFIER): "
              "load trusted programs with PteVerification::Minimal");
#else
  flatbuffers::Verifier verifier(data, size, /*max_depth=*/64, /*max_tables=*/10000000);
  if (!fb::VerifyProgramBuffer(verifier)) {
    return fail(Error::InvalidProgram, "the program FlatBuffer (%zu bytes) failed verification",
                size);
  }
  return Error::Ok;
#endif
}

}  // namespace

Result<PteExtendedHeader> PteExtendedHeader::parse(const void* data, size_t size) {
  const uint8_t* bytes = static_cast<const uint8_t*>(data);
  if (bytes == nullptr || size < kOffset + 4 || std::memcmp(bytes + kOffset, "eh00", 4) != 0) {
    return Error::NotFound;
  }
  if (size < kOffset + kMinLength) {
    return fail(Error::InvalidProgram, "extended header truncated: %zu bytes, need %zu", size,
                kOffset + kMinLength);
  }
  PteExtendedHeader header;
  header.length = read_u32(bytes + kOffset + 4);
  if (header.length < kMinLength) {
    return fail(Error::InvalidProgram, "extended header length %u is below the minimum %zu",
                header.length, kMinLength);
  }
  header.program_size = read_u64(bytes + kOffset + 8);
  header.segment_base_offset = read_u64(bytes + kOffset + 16);
  if (header.length >= 32) {
    if (size < kOffset + 32) {
      return fail(Error::InvalidProgram, "extended header of length %u truncated at %zu bytes",
                  header.length, size);
    }
    header.segment_data_size = read_u64(bytes + kOffset + 24);
  }
  return header;
}

Result<PteLayout> PteLayout::parse(const void* head, size_t head_size, uint64_t file_size) {
  if (file_size < 8 || head_size < 8 || head == nullptr) {
    return fail(Error::InvalidProgram, "file is %llu bytes, too short for a program",
                ull(file_size));
  }
  PteLayout layout;
  layout.file_size = file_size;
  layout.program_size = file_size;
  Result<PteExtendedHeader> header =
      PteExtendedHeader::parse(head, head_size < file_size ? head_size : size_t(file_size));
  if (header.error() == Error::NotFound) return layout;
  if (!header.ok()) return header.error();
  EMBER_TRY(check_header(*header, &layout));
  return layout;
}

Result<PteContainer> PteContainer::open(const void* file, size_t file_size,
                                        PteVerification verification) {
  Result<PteLayout> layout = PteLayout::parse(file, file_size, file_size);
  if (!layout.ok()) return layout.error();
  Result<PteContainer> container = open_program(*layout, file, file_size, verification);
  if (!container.ok()) return container.error();
  container->file_ = static_cast<const uint8_t*>(file);
  return container;
}

Result<PteContainer> PteContainer::open_program(const PteLayout& layout, const void* program,
                                                size_t size, PteVerification verification) {
  if (program == nullptr || layout.program_size < 8) {
    return fail(Error::InvalidProgram, "program is %llu bytes, too short",
                ull(layout.program_size));
  }
  if (size < layout.program_size) {
    return fail(Error::InvalidArgument, "open_program: %zu bytes given, the program has %llu", size,
                ull(layout.program_size));
  }
  const uint8_t* bytes = static_cast<const uint8_t*>(program);
  EMBER_TRY(verify(bytes, size_t(layout.program_size), verification));
  PteContainer container;
  container.layout_ = layout;
  container.program_ = bytes;
  container.root_ = fb::GetProgram(bytes);
  return container;
}

size_t PteContainer::num_segments() const {
  return root_ == nullptr ? 0 : size_of(as_program(root_)->segments());
}

Result<PteRange> PteContainer::segment(size_t index) const {
  if (index >= num_segments()) {
    return fail(Error::InvalidProgram, "segment index %zu out of range (program has %zu)", index,
                num_segments());
  }
  const fb::DataSegment* seg = as_program(root_)->segments()->Get(flatbuffers::uoffset_t(index));
  const uint64_t offset = seg->offset();
  const uint64_t size = seg->size();
  if (size == 0) return PteRange{};
  if (!layout_.has_segments()) {
    return fail(Error::InvalidProgram,
                "segment %zu has %llu bytes but the file has no extended header", index, ull(size));
  }
  if (offset > UINT64_MAX - layout_.segment_base_offset) {
    return fail(Error::InvalidProgram, "segment %zu offset %llu overflows", index, ull(offset));
  }
  const uint64_t start = layout_.segment_base_offset + offset;
  if (start > layout_.file_size || size > layout_.file_size - start) {
    return fail(Error::InvalidProgram,
                "segment %zu (offset %llu, %llu bytes) ends past the %llu-byte file", index,
                ull(offset), ull(size), ull(layout_.file_size));
  }
  return PteRange{start, size};
}

Result<Span<const uint8_t>> PteContainer::segment_data(size_t index) const {
  if (file_ == nullptr) {
    return fail(Error::InvalidState,
                "segment %zu: the container holds only the program (load its segment() range)",
                index);
  }
  Result<PteRange> range = segment(index);
  if (!range.ok()) return range.error();
  if (range->size == 0) return Span<const uint8_t>();
  return Span<const uint8_t>(file_ + range->offset, size_t(range->size));
}

size_t PteContainer::num_named_data() const {
  return root_ == nullptr ? 0 : size_of(as_program(root_)->named_data());
}

Result<std::string_view> PteContainer::named_data_key(size_t i) const {
  if (i >= num_named_data()) {
    return fail(Error::InvalidArgument, "named data index %zu out of range (%zu keys)", i,
                num_named_data());
  }
  const auto* key = as_program(root_)->named_data()->Get(flatbuffers::uoffset_t(i))->key();
  return key == nullptr ? std::string_view() : key->string_view();
}

Result<size_t> PteContainer::named_data_segment(std::string_view key) const {
  for (size_t i = 0; i < num_named_data(); ++i) {
    const fb::NamedData* entry = as_program(root_)->named_data()->Get(flatbuffers::uoffset_t(i));
    if (entry->key() != nullptr && entry->key()->string_view() == key) {
      return size_t(entry->segment_index());
    }
  }
  return fail(Error::NotFound, "named data key '%.*s' not found in the program", int(key.size()),
              key.data());
}

}  // namespace ember::runtime
