// PteView and lift_pte (see pte_view.h). Test-only; the container is opened (and
// the FlatBuffer verified) by runtime::PteContainer, and every index used here is
// bounds-checked.
#include "tests/emit/pte_view.h"

#include "aot/emit/element_size.h"

namespace ember::aot::emit_test {
namespace {

namespace fb = executorch_flatbuffer;

std::vector<uint8_t> slice(const std::vector<uint8_t>& bytes, uint64_t offset, uint64_t size) {
  if (offset > bytes.size() || size > bytes.size() - offset) return {};
  return std::vector<uint8_t>(bytes.begin() + offset, bytes.begin() + offset + size);
}

}  // namespace

uint64_t tensor_nbytes(const fb::Tensor* t) {
  uint64_t n = 0;
  if (t->sizes() == nullptr ||
      !pte_tensor_nbytes(static_cast<int>(t->scalar_type()), *t->sizes(), &n)) {
    return 0;
  }
  return n;
}

PteView::PteView(const std::vector<uint8_t>& bytes) {
  runtime::Result<runtime::PteContainer> container =
      runtime::PteContainer::open(bytes.data(), bytes.size());
  if (!container.ok()) return;
  container_ = *container;
  program_ = static_cast<const fb::Program*>(container_.program_root());
}

std::vector<uint8_t> PteView::segment_bytes(uint32_t index) const {
  runtime::Result<runtime::Span<const uint8_t>> data = container_.segment_data(index);
  if (!data.ok()) return {};
  return std::vector<uint8_t>(data->begin(), data->end());
}

std::vector<uint8_t> PteView::constant_bytes(const fb::Tensor* t) const {
  uint32_t idx = t->data_buffer_idx();
  if (idx == 0 || t->allocation_info() != nullptr) return {};
  const fb::SubsegmentOffsets* cs = program_->constant_segment();
  if (cs != nullptr && cs->offsets() != nullptr && cs->offsets()->size() > 1) {
    if (idx >= cs->offsets()->size()) return {};
    return slice(segment_bytes(cs->segment_index()), cs->offsets()->Get(idx), tensor_nbytes(t));
  }
  const auto* cb = program_->constant_buffer();
  if (cb == nullptr || idx >= cb->size() || cb->Get(idx)->storage() == nullptr) return {};
  const auto* storage = cb->Get(idx)->storage();
  return slice(std::vector<uint8_t>(storage->begin(), storage->end()), 0, tensor_nbytes(t));
}

std::vector<uint8_t> PteView::mutable_bytes(const fb::Tensor* t) const {
  uint32_t idx = t->data_buffer_idx();
  const auto* mds = program_->mutable_data_segments();
  if (idx == 0 || t->allocation_info() == nullptr || mds == nullptr || mds->size() == 0) return {};
  const fb::SubsegmentOffsets* m = mds->Get(0);
  if (m->offsets() == nullptr || idx >= m->offsets()->size()) return {};
  return slice(segment_bytes(m->segment_index()), m->offsets()->Get(idx), tensor_nbytes(t));
}

std::vector<uint8_t> PteView::delegate_blob(const fb::BackendDelegate* d) const {
  const fb::BackendDelegateDataReference* ref = d->processed();
  if (ref == nullptr) return {};
  if (ref->location() == fb::DataLocation::SEGMENT) return segment_bytes(ref->index());
  const auto* inline_data = program_->backend_delegate_data();
  if (inline_data == nullptr || ref->index() >= inline_data->size()) return {};
  const auto* data = inline_data->Get(ref->index())->data();
  return data ? std::vector<uint8_t>(data->begin(), data->end()) : std::vector<uint8_t>();
}

}  // namespace ember::aot::emit_test
