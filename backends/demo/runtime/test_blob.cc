// TestBlob and HeapTensor (see test_blob.h). Offsets follow FORMAT.md literally.
#include "backends/demo/runtime/test_blob.h"

#include <cstring>

namespace ember::backends::demo::testing {

uint32_t test_fnv1a(const uint8_t* data, size_t size) {
  uint32_t h = 0x811C9DC5u;
  for (size_t i = 0; i < size; ++i) h = (h ^ data[i]) * 0x01000193u;
  return h;
}

void put_u16(std::vector<uint8_t>* out, size_t at, uint16_t v) {
  (*out)[at] = static_cast<uint8_t>(v);
  (*out)[at + 1] = static_cast<uint8_t>(v >> 8);
}

void put_u32(std::vector<uint8_t>* out, size_t at, uint32_t v) {
  for (int i = 0; i < 4; ++i) (*out)[at + i] = static_cast<uint8_t>(v >> (8 * i));
}

void fix_checksum(std::vector<uint8_t>* blob) {
  put_u32(blob, 12, test_fnv1a(blob->data() + 32, blob->size() - 32));
}

uint16_t TestBlob::slot(uint8_t kind, std::vector<uint32_t> sizes, uint8_t dtype,
                        uint32_t constant_offset) {
  std::vector<uint8_t> rec(32, 0);
  rec[0] = kind;
  rec[1] = dtype;
  rec[2] = static_cast<uint8_t>(sizes.size());
  for (size_t d = 0; d < sizes.size() && d < 6; ++d) put_u32(&rec, 4 + 4 * d, sizes[d]);
  put_u32(&rec, 28, constant_offset);
  slots_.insert(slots_.end(), rec.begin(), rec.end());
  if (kind == 0) ++inputs_seen_;
  if (kind == 1) ++outputs_seen_;
  return num_slots_++;
}

uint16_t TestBlob::constant(std::vector<uint32_t> sizes, const std::vector<float>& values) {
  const uint32_t offset = static_cast<uint32_t>(constants_.size());
  constants_.insert(constants_.end(), values.begin(), values.end());
  return slot(3, std::move(sizes), 6, offset);
}

void TestBlob::op(uint8_t code, uint16_t dst, uint16_t a, uint16_t b, uint8_t flags) {
  std::vector<uint8_t> rec(8, 0);
  rec[0] = code;
  rec[1] = flags;
  put_u16(&rec, 2, dst);
  put_u16(&rec, 4, a);
  put_u16(&rec, 6, b);
  code_.insert(code_.end(), rec.begin(), rec.end());
  ++num_instructions_;
}

std::vector<uint8_t> TestBlob::bytes() const {
  std::vector<uint8_t> out(32, 0);
  std::memcpy(out.data(), "EDMO", 4);
  put_u16(&out, 4, version);
  put_u16(&out, 6, 32);
  put_u16(&out, 16, static_cast<uint16_t>(num_inputs >= 0 ? num_inputs : inputs_seen_));
  put_u16(&out, 18, static_cast<uint16_t>(num_outputs >= 0 ? num_outputs : outputs_seen_));
  put_u16(&out, 20, num_slots_);
  put_u16(&out, 22, num_instructions_);
  put_u32(&out, 24, static_cast<uint32_t>(constants_.size()));
  out.insert(out.end(), slots_.begin(), slots_.end());
  out.insert(out.end(), code_.begin(), code_.end());
  for (float f : constants_) {
    uint32_t bits;
    std::memcpy(&bits, &f, 4);
    for (int i = 0; i < 4; ++i) out.push_back(static_cast<uint8_t>(bits >> (8 * i)));
  }
  put_u32(&out, 8, static_cast<uint32_t>(out.size()));
  fix_checksum(&out);
  return out;
}

HeapTensor::HeapTensor(std::vector<int32_t> s, std::vector<float> values,
                       runtime::ShapeDynamism dynamism)
    : sizes(std::move(s)), dim_order(sizes.size()), strides(sizes.size()) {
  size_t numel = 1;
  for (size_t d = 0; d < sizes.size(); ++d) {
    dim_order[d] = static_cast<uint8_t>(d);
    numel *= static_cast<size_t>(sizes[d]);
  }
  data = values.empty() ? std::vector<float>(numel, -777.f) : std::move(values);
  tensor = runtime::Tensor(runtime::ScalarType::Float, sizes.size(), sizes.data(),
                           dim_order.data(), strides.data(), data.data(), dynamism);
  value = runtime::EValue(&tensor);
}

}  // namespace ember::backends::demo::testing
