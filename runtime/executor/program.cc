// Program::load: the container (pte_container.h: header, FlatBuffer verification),
// then constants (pte-format.md 2.3); segments are loaded through the DataLoader.
#include "runtime/executor/program.h"

#include <cstring>

#include "runtime/core/diagnostics.h"
#include "runtime/executor/flatbuffer_access.h"

namespace ember::runtime {

using internal::as_program;
using internal::size_of;
namespace fb = internal::fb;

namespace {

constexpr size_t kMinimumAlignment = alignof(std::max_align_t);

// Reads the first bytes of the file and checks its layout (pte_container.h).
Result<PteLayout> read_layout(DataLoader* loader, size_t file_size) {
  const size_t head_size = file_size < PteLayout::kHeadBytes ? file_size : PteLayout::kHeadBytes;
  if (head_size < 8) {
    return fail(Error::InvalidProgram, "file is %zu bytes, too short for a program", file_size);
  }
  Result<FreeableBuffer> head = loader->load(0, head_size, SegmentInfo{});
  if (!head.ok()) return annotate(head.error(), "reading the program header");
  return PteLayout::parse(head->data(), head->size(), file_size);
}

}  // namespace

Result<Program> Program::load(DataLoader* loader, Verification verification) {
  if (loader == nullptr) return fail(Error::InvalidArgument, "Program::load: null loader");
  Result<size_t> file_size = loader->size();
  if (!file_size.ok()) return annotate(file_size.error(), "reading the program size");
  Program program;
  program.loader_ = loader;
  Result<PteLayout> layout = read_layout(loader, *file_size);
  if (!layout.ok()) return layout.error();
  const size_t program_size = size_t(layout->program_size);
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
  Result<PteContainer> container =
      PteContainer::open_program(*layout, bytes, program.program_data_.size(), verification);
  if (!container.ok()) return container.error();
  program.container_ = *container;
  if (as_program(program.flatbuffer_root())->execution_plan() == nullptr) {
    return fail(Error::InvalidProgram, "program has no execution_plan table");
  }
  EMBER_TRY(program.load_constants());
  program.named_data_ = PteDataMap(loader, program.container_);
  return program;
}

Error Program::load_constants() {
  const fb::Program* root = as_program(flatbuffer_root());
  const fb::SubsegmentOffsets* cs = root->constant_segment();
  if (cs == nullptr || size_of(cs->offsets()) <= 1) return Error::Ok;  // none, or deprecated path
  if (size_of(root->constant_buffer()) != 0) {
    return fail(Error::InvalidProgram,
                "program has both a constant_segment (%zu offsets) and a constant_buffer (%zu)",
                size_of(cs->offsets()), size_of(root->constant_buffer()));
  }
  SegmentInfo info{SegmentInfo::Type::Constant, cs->segment_index(), nullptr};
  Result<FreeableBuffer> data =
      load_program_segment(loader_, container_, cs->segment_index(), info);
  if (!data.ok()) return annotate(data.error(), "loading the constant segment");
  constant_segment_ = std::move(*data);
  return Error::Ok;
}

Program::HeaderStatus Program::check_header(const void* data, size_t size) {
  if (size < PteLayout::kHeadBytes) return HeaderStatus::ShortData;
  const char* id = static_cast<const char*>(data) + 4;
  if (std::memcmp(id, fb::ProgramIdentifier(), 4) == 0) return HeaderStatus::CompatibleVersion;
  const bool digits = id[2] >= '0' && id[2] <= '9' && id[3] >= '0' && id[3] <= '9';
  if (id[0] == 'E' && id[1] == 'T' && digits) return HeaderStatus::IncompatibleVersion;
  return HeaderStatus::NotPresent;
}

size_t Program::num_methods() const { return size_of(as_program(flatbuffer_root())->execution_plan()); }

Result<const char*> Program::get_method_name(size_t i) const {
  if (i >= num_methods()) {
    return fail(Error::InvalidArgument, "method index %zu out of range (program has %zu)", i,
                num_methods());
  }
  const auto* plan = as_program(flatbuffer_root())->execution_plan()->Get(flatbuffers::uoffset_t(i));
  if (plan->name() == nullptr) return fail(Error::InvalidProgram, "method %zu has no name", i);
  return plan->name()->c_str();
}

Result<MethodMeta> Program::method_meta(const char* name) const {
  const auto* plans = as_program(flatbuffer_root())->execution_plan();
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
  const fb::Program* root = as_program(flatbuffer_root());
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
  // An absent storage vector holds 0 bytes (only a 0-byte tensor gets here).
  return static_cast<const void*>(storage == nullptr ? nullptr : storage->data());
}

Result<FreeableBuffer> Program::load_segment(size_t index, const SegmentInfo& info) const {
  return load_program_segment(loader_, container_, index, info);
}

Error Program::load_segment_into(size_t index, size_t offset, size_t size, void* buffer) const {
  Result<PteRange> range = container_.segment(index);
  if (!range.ok()) return range.error();
  if (range->size > SIZE_MAX || !range_fits(offset, size, size_t(range->size))) {
    return fail(Error::InvalidProgram, "segment %zu: [%zu, +%zu) exceeds its %llu bytes", index,
                offset, size, static_cast<unsigned long long>(range->size));
  }
  if (size == 0) return Error::Ok;
  SegmentInfo info{SegmentInfo::Type::Mutable, index, nullptr};
  return loader_->load_into(size_t(range->offset) + offset, size, info, buffer);
}

}  // namespace ember::runtime
