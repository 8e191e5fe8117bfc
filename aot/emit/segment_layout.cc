// Segment layout for the .pte writer (see segment_layout.h and pte_writer.h).
#include "aot/emit/segment_layout.h"

#include <map>
#include <numeric>

#include "aot/emit/pte_writer.h"
#include "aot/emit/sha256.h"

namespace ember::aot {
namespace {

uint64_t align_up(uint64_t value, uint64_t alignment) {
  return (value + alignment - 1) / alignment * alignment;
}

bool is_power_of_two(uint64_t v) { return v != 0 && (v & (v - 1)) == 0; }

// Appends one segment of `bytes` to the layout at the next offset aligned to
// `alignment`; returns its index.
uint32_t append_segment(SegmentLayout* layout, const std::vector<uint8_t>& bytes,
                        uint64_t alignment) {
  uint64_t offset = 0;
  if (!layout->segments.empty()) {
    const LaidOutSegment& prev = layout->segments.back();
    offset = align_up(prev.offset + prev.size, alignment);
  }
  layout->region.resize(offset, 0);
  layout->region.insert(layout->region.end(), bytes.begin(), bytes.end());
  layout->segments.push_back({offset, bytes.size()});
  return static_cast<uint32_t>(layout->segments.size() - 1);
}

void lay_out_constants(const EmitProgram& program, uint64_t tensor_alignment, SegmentLayout* layout,
                       std::vector<uint8_t>* blob) {
  std::map<Sha256Digest, uint32_t> seen;
  layout->constant_offsets = {0};
  for (const std::vector<uint8_t>& bytes : program.constants) {
    Sha256Digest digest = sha256(bytes);
    auto it = seen.find(digest);
    if (it != seen.end()) {
      layout->constant_buffer_idx.push_back(it->second);
      continue;
    }
    // Pad the previous tensor (never the last one) up to the tensor alignment.
    blob->resize(align_up(blob->size(), tensor_alignment), 0);
    layout->constant_offsets.push_back(blob->size());
    blob->insert(blob->end(), bytes.begin(), bytes.end());
    uint32_t idx = static_cast<uint32_t>(layout->constant_offsets.size() - 1);
    seen.emplace(digest, idx);
    layout->constant_buffer_idx.push_back(idx);
  }
}

void lay_out_mutable(const EmitProgram& program, uint64_t segment_alignment,
                     SegmentLayout* layout) {
  if (program.mutable_data.empty()) return;
  std::vector<uint8_t> blob;
  layout->has_mutable = true;
  layout->mutable_offsets = {0};
  for (const std::vector<uint8_t>& bytes : program.mutable_data) {
    layout->mutable_offsets.push_back(blob.size());
    layout->mutable_buffer_idx.push_back(static_cast<uint32_t>(layout->mutable_offsets.size() - 1));
    blob.insert(blob.end(), bytes.begin(), bytes.end());
  }
  layout->mutable_segment_index = append_segment(layout, blob, segment_alignment);
}

void lay_out_delegates(const EmitProgram& program, const EmitOptions& options,
                       SegmentLayout* layout) {
  std::map<Sha256Digest, DelegateRef> seen;
  for (const EmitMethod& method : program.methods) {
    std::vector<DelegateRef> refs;
    for (const EmitDelegate& delegate : method.delegates) {
      Sha256Digest digest = sha256(delegate.processed);
      auto it = seen.find(digest);
      if (it == seen.end()) {
        DelegateRef ref;
        if (options.extract_delegate_segments && !delegate.processed.empty()) {
          ref.in_segment = true;
          ref.index = append_segment(layout, delegate.processed, options.segment_alignment);
        } else {
          ref.index = static_cast<uint32_t>(layout->inline_blobs.size());
          layout->inline_blobs.push_back(&delegate.processed);
        }
        it = seen.emplace(digest, ref).first;
      }
      refs.push_back(it->second);
    }
    layout->delegate_refs.push_back(std::move(refs));
  }
}

Error lay_out_named_data(const EmitProgram& program, uint64_t segment_alignment,
                          SegmentLayout* layout) {
  // Unique buffers in first-appearance order, each with the largest alignment asked.
  struct Unique {
    const std::vector<uint8_t>* bytes;
    uint64_t alignment;
  };
  std::vector<Unique> uniques;
  std::map<Sha256Digest, size_t> by_digest;
  std::map<std::string, Sha256Digest> by_key;
  std::vector<std::pair<std::string, size_t>> entries;
  for (const NamedData& item : program.named_data) {
    if (!is_power_of_two(item.alignment)) {
      return invalid_argument("named data '" + item.key + "': alignment " +
                              std::to_string(item.alignment) + " is not a power of two");
    }
    Sha256Digest digest = sha256(item.data);
    auto key_it = by_key.find(item.key);
    if (key_it != by_key.end()) {
      if (key_it->second != digest) {
        return invalid_program("named data key '" + item.key +
                               "' is used twice with different bytes");
      }
      continue;
    }
    by_key.emplace(item.key, digest);
    auto it = by_digest.find(digest);
    if (it == by_digest.end()) {
      it = by_digest.emplace(digest, uniques.size()).first;
      uniques.push_back({&item.data, item.alignment});
    } else {
      uint64_t& a = uniques[it->second].alignment;
      a = std::max<uint64_t>(a, item.alignment);
    }
    entries.emplace_back(item.key, it->second);
  }
  std::vector<uint32_t> segment_of_unique;
  for (const Unique& u : uniques) {
    uint64_t alignment = std::lcm(segment_alignment, u.alignment);
    segment_of_unique.push_back(append_segment(layout, *u.bytes, alignment));
  }
  for (const auto& [key, unique] : entries) {
    layout->named_data.push_back({key, segment_of_unique[unique]});
  }
  return Error::Ok;
}

void number_external_tensors(const EmitProgram& program, SegmentLayout* layout) {
  for (const EmitMethod& method : program.methods) {
    for (const EmitValue& value : method.values) {
      if (value.kind != EmitValueKind::Tensor || !value.tensor.external) continue;
      uint32_t next = static_cast<uint32_t>(layout->external_index.size());
      layout->external_index.emplace(value.tensor.fully_qualified_name, next);
    }
  }
}

}  // namespace

Error lay_out_segments(const EmitProgram& program, const EmitOptions& options,
                        SegmentLayout* layout) {
  if (!is_power_of_two(options.segment_alignment) ||
      !is_power_of_two(options.constant_tensor_alignment)) {
    return invalid_argument("segment_alignment " + std::to_string(options.segment_alignment) +
                            " and constant_tensor_alignment " +
                            std::to_string(options.constant_tensor_alignment) +
                            " must be powers of two");
  }
  *layout = SegmentLayout();
  std::vector<uint8_t> constant_blob;
  lay_out_constants(program, options.constant_tensor_alignment, layout, &constant_blob);
  layout->constant_segment_index = append_segment(layout, constant_blob, options.segment_alignment);
  lay_out_mutable(program, options.segment_alignment, layout);
  lay_out_delegates(program, options, layout);
  number_external_tensors(program, layout);
  return lay_out_named_data(program, options.segment_alignment, layout);
}

}  // namespace ember::aot
