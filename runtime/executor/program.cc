// Program::load: header, FlatBuffer verification, constants (pte-format.md 2.3).
#include "runtime/executor/program.h"

#include <cstring>

#include "runtime/core/diagnostics.h"
#include "runtime/executor/extended_header.h"
#include "runtime/executor/flatbuffer_access.h"

namespace ember::runtime {

using internal::as_program;
using internal::size_of;
namespace fb = internal::fb;

namespace {

constexpr size_t kMinimumAlignment = alignof(std::max_align_t);

// Reads the optional extended header; fills program_size / segment base.
Error read_layout(DataLoader* loader, size_t file_size, size_t* program_size,
                  size_t* segment_base, bool* has_segments) {
  const size_t head_size =
      file_size < ExtendedHeader::kNumHeadBytes ? file_size : ExtendedHeader::kNumHeadBytes;
  if (head_size < 8) {
    return fail(Error::InvalidProgram, "file is %zu bytes, too short for a program", file_size);
  }
  Result<FreeableBuffer> head = loader->load(0, head_size, SegmentInfo{});
  if (!head.ok()) return annotate(head.error(), "reading the program header");
  Result<ExtendedHeader> header = ExtendedHeader::parse(head->data(), head->size());
  if (header.error() == Error::NotFound) {
    *program_size = file_size;
    *segment_base = 0;
    *has_segments = false;
    return Error::Ok;
  }
  if (!header.ok()) return header.error();
  const ExtendedHeader& h = *header;
  if (h.program_size < ExtendedHeader::kOffset + h.length || h.program_size > file_size) {
    return fail(Error::InvalidProgram, "extended header: program_size %llu outside [%zu, %zu]",
                static_cast<unsigned long long>(h.program_size),
                size_t(ExtendedHeader::kOffset + h.length), file_size);
  }
  if (h.segment_base_offset != 0) {
    if (h.segment_base_offset < h.program_size || h.segment_base_offset > file_size) {
      return fail(Error::InvalidProgram,
                  "extended header: segment_base_offset %llu outside [program_size %llu, file "
                  "size %zu]",
                  static_cast<unsigned long long>(h.segment_base_offset),
                  static_cast<unsigned long long>(h.program_size), file_size);
    }
    if (h.segment_data_size > file_size - h.segment_base_offset) {
      return fail(Error::InvalidProgram,
                  "file truncated: segments need %llu bytes from offset %llu, file has %zu",
                  static_cast<unsigned long long>(h.segment_data_size),
                  static_cast<unsigned long long>(h.segment_base_offset), file_size);
    }
  }
  *program_size = size_t(h.program_size);
  *segment_base = size_t(h.segment_base_offset);
  *has_segments = h.segment_base_offset != 0;
  return Error::Ok;
}

Error verify(const uint8_t* data, size_t size, Program::Verification verification) {
  if (std::memcmp(data + 4, fb::ProgramIdentifier(), 4) != 0) {
    char id[5] = {};
    for (int i = 0; i < 4; ++i) {
      const char c = static_cast<char>(data[4 + i]);
      id[i] = (c >= 32 && c < 127) ? c : '?';
    }
    return fail(Error::InvalidProgram, "bad file identifier '%s', expected '%s'", id,
                fb::ProgramIdentifier());
  }
  if (verification == Program::Verification::Minimal) {
    uint32_t root = 0;
    std::memcpy(&root, data, 4);
    if (root < 8 || root > size - 4) {
      return fail(Error::InvalidProgram, "root offset %u outside the %zu-byte program", root, size);
    }
    return Error::Ok;
  }
  flatbuffers::Verifier verifier(data, size, /*max_depth=*/64, /*max_tables=*/10000000);
  if (!fb::VerifyProgramBuffer(verifier)) {
    return fail(Error::InvalidProgram, "the program FlatBuffer (%zu bytes) failed verification",
                size);
  }
  return Error::Ok;
}

}  // namespace

Result<Program> Program::load(DataLoader* loader, Verification verification) {
  if (loader == nullptr) return fail(Error::InvalidArgument, "Program::load: null loader");
  Result<size_t> file_size = loader->size();
  if (!file_size.ok()) return annotate(file_size.error(), "reading the program size");
  Program program;
  program.loader_ = loader;
  program.file_size_ = *file_size;
  size_t program_size = 0;
  EMBER_TRY(read_layout(loader, *file_size, &program_size, &program.segment_base_offset_,
                        &program.has_segments_));
  Result<FreeableBuffer> data = loader->load(0, program_size, SegmentInfo{});
  if (!data.ok()) return annotate(data.error(), "reading the %zu-byte program", program_size);
  program.program_data_ = std::move(*data);
  const uint8_t* bytes = static_cast<const uint8_t*>(program.program_data_.data());
  if (program.program_data_.size() < 8 || bytes == nullptr) {
    return fail(Error::InvalidProgram, "program is %zu bytes, too short", program_size);
  }
  if (reinterpret_cast<uintptr_t>(bytes) % kMinimumAlignment != 0) {
    return fail(Error::InvalidArgument, "program data at %p is not aligned to %zu bytes",
                static_cast<const void*>(bytes), kMinimumAlignment);
  }
  EMBER_TRY(verify(bytes, program_size, verification));
  const fb::Program* root = fb::GetProgram(bytes);
  if (root->execution_plan() == nullptr) {
    return fail(Error::InvalidProgram, "program has no execution_plan table");
  }
  program.root_ = root;
  EMBER_TRY(program.load_constants());
  program.named_data_ = PteDataMap(loader, root->named_data(), root->segments(),
                                   program.segment_base_offset_, program.has_segments_);
  return program;
}

Error Program::load_constants() {
  const fb::Program* root = as_program(root_);
  const fb::SubsegmentOffsets* cs = root->constant_segment();
  if (cs == nullptr || size_of(cs->offsets()) <= 1) return Error::Ok;  // none, or deprecated path
  if (size_of(root->constant_buffer()) != 0) {
    return fail(Error::InvalidProgram,
                "program has both a constant_segment (%zu offsets) and a constant_buffer (%zu)",
                size_of(cs->offsets()), size_of(root->constant_buffer()));
  }
  SegmentInfo info{SegmentInfo::Type::Constant, cs->segment_index(), nullptr};
  Result<FreeableBuffer> data = load_program_segment(
      loader_, root->segments(), segment_base_offset_, has_segments_, cs->segment_index(), info);
  if (!data.ok()) return annotate(data.error(), "loading the constant segment");
  constant_segment_ = std::move(*data);
  return Error::Ok;
}

Program::HeaderStatus Program::check_header(const void* data, size_t size) {
  if (size < ExtendedHeader::kNumHeadBytes) return HeaderStatus::ShortData;
  const char* id = static_cast<const char*>(data) + 4;
  if (std::memcmp(id, fb::ProgramIdentifier(), 4) == 0) return HeaderStatus::CompatibleVersion;
  const bool digits = id[2] >= '0' && id[2] <= '9' && id[3] >= '0' && id[3] <= '9';
  if (id[0] == 'E' && id[1] == 'T' && digits) return HeaderStatus::IncompatibleVersion;
  return HeaderStatus::NotPresent;
}

size_t Program::num_methods() const { return size_of(as_program(root_)->execution_plan()); }

Result<const char*> Program::get_method_name(size_t i) const {
  if (i >= num_methods()) {
    return fail(Error::InvalidArgument, "method index %zu out of range (program has %zu)", i,
                num_methods());
  }
  const auto* plan = as_program(root_)->execution_plan()->Get(flatbuffers::uoffset_t(i));
  if (plan->name() == nullptr) return fail(Error::InvalidProgram, "method %zu has no name", i);
  return plan->name()->c_str();
}

Result<MethodMeta> Program::method_meta(const char* name) const {
  const auto* plans = as_program(root_)->execution_plan();
  for (size_t i = 0; i < plans->size(); ++i) {
    const fb::ExecutionPlan* plan = plans->Get(flatbuffers::uoffset_t(i));
    if (plan->name() == nullptr || plan->name()->string_view() != std::string_view(name)) continue;
    // Upstream also requires inputs, outputs and non_const_buffer_sizes; an
    // absent one is read here as empty (writers may omit empty vectors).
    if (plan->values() == nullptr || plan->chains() == nullptr) {
      return fail(Error::InvalidProgram, "method '%s' lacks a required table (values or chains)", name);
    }
    return MethodMeta(plan);
  }
  return fail(Error::NotFound, "program has no method '%s'", name);
}

Result<const void*> Program::get_constant_data(size_t index, size_t nbytes) const {
  const fb::Program* root = as_program(root_);
  const fb::SubsegmentOffsets* cs = root->constant_segment();
  if (cs != nullptr && size_of(cs->offsets()) > 1) {
    if (index >= cs->offsets()->size()) {
      return fail(Error::InvalidProgram, "constant index %zu out of range (%u constants)", index,
                  cs->offsets()->size());
    }
    const uint64_t offset = internal::load_element(cs->offsets(), index);
    if (!range_fits(size_t(offset), nbytes, constant_segment_.size()) || offset > SIZE_MAX) {
      return fail(Error::InvalidProgram,
                  "constant %zu: [%llu, +%zu) exceeds the %zu-byte constant segment", index,
                  static_cast<unsigned long long>(offset), nbytes, constant_segment_.size());
    }
    return static_cast<const void*>(static_cast<const uint8_t*>(constant_segment_.data()) +
                                    offset);
  }
  const auto* buffers = root->constant_buffer();
  if (index >= size_of(buffers)) {
    return fail(Error::InvalidProgram, "constant index %zu out of range (%zu constant buffers)",
                index, size_of(buffers));
  }
  const auto* storage = buffers->Get(flatbuffers::uoffset_t(index))->storage();
  if (size_of(storage) < nbytes) {
    return fail(Error::InvalidProgram, "constant buffer %zu holds %zu bytes, tensor needs %zu",
                index, size_of(storage), nbytes);
  }
  return static_cast<const void*>(storage->data());
}

Result<FreeableBuffer> Program::load_segment(size_t index, const SegmentInfo& info) const {
  return load_program_segment(loader_, as_program(root_)->segments(), segment_base_offset_,
                              has_segments_, index, info);
}

Error Program::load_segment_into(size_t index, size_t offset, size_t size, void* buffer) const {
  const auto* segs = as_program(root_)->segments();
  if (index >= size_of(segs)) {
    return fail(Error::InvalidProgram, "segment index %zu out of range (program has %zu)", index,
                size_of(segs));
  }
  const fb::DataSegment* seg = segs->Get(flatbuffers::uoffset_t(index));
  if (seg->size() > SIZE_MAX || !range_fits(offset, size, size_t(seg->size()))) {
    return fail(Error::InvalidProgram, "segment %zu: [%zu, +%zu) exceeds its %llu bytes", index,
                offset, size, static_cast<unsigned long long>(seg->size()));
  }
  if (size == 0) return Error::Ok;
  if (!has_segments_ || seg->offset() > SIZE_MAX - segment_base_offset_ - offset) {
    return fail(Error::InvalidProgram, "segment %zu is not addressable in this file", index);
  }
  SegmentInfo info{SegmentInfo::Type::Mutable, index, nullptr};
  return loader_->load_into(segment_base_offset_ + size_t(seg->offset()) + offset, size, info,
                            buffer);
}

}  // namespace ember::runtime
