// Builds one Tensor value from the file: shape checks, then its data pointer
// (pte-format.md 3.3): constant, planned (optionally initialised from the
// mutable segment), external named data, or null until set_input.
#include <cstring>

#include "runtime/executor/method_state.h"

namespace ember::runtime::internal {
namespace {

Error check_shape(size_t index, const fb::Tensor* t) {
  if (t->sizes() == nullptr || t->dim_order() == nullptr) {
    return fail(Error::InvalidProgram, "value %zu: tensor lacks sizes or dim_order", index);
  }
  const size_t rank = t->sizes()->size();
  if (rank > kMaxTensorDims || t->dim_order()->size() != rank) {
    return fail(Error::InvalidProgram,
                "value %zu: rank %zu with %u dim_order entries (max rank %zu, lengths must match)",
                index, rank, t->dim_order()->size(), kMaxTensorDims);
  }
  const ScalarType type = static_cast<ScalarType>(t->scalar_type());
  if (!is_valid(type) || element_size(type) == 0) {
    return fail(Error::InvalidProgram, "value %zu: invalid scalar type %d", index,
                int(t->scalar_type()));
  }
  if (t->storage_offset() != 0) {
    return fail(Error::InvalidProgram, "value %zu: storage_offset %d, must be 0", index,
                t->storage_offset());
  }
  if (t->shape_dynamism() == fb::TensorShapeDynamism::DYNAMIC_UNBOUND) {
    return fail(Error::NotSupported, "value %zu: DYNAMIC_UNBOUND tensors are not supported", index);
  }
  // Strides are int32: every partial product of the sizes (zeros count as 1)
  // must fit, or stride computation would overflow.
  uint64_t span = 1;
  for (size_t d = 0; d < rank; ++d) {
    const int32_t size = t->sizes()->Get(flatbuffers::uoffset_t(d));
    span *= size > 1 ? uint64_t(size) : 1;
    if (span > uint64_t(INT32_MAX)) {
      return fail(Error::InvalidProgram, "value %zu: tensor of more than %d elements (dims overflow int32 strides)",
                  index, INT32_MAX);
    }
  }
  uint32_t seen = 0;
  for (size_t d = 0; d < rank; ++d) {
    const uint8_t o = t->dim_order()->Get(flatbuffers::uoffset_t(d));
    if (o >= rank || (seen & (1u << o)) != 0) {
      return fail(Error::InvalidProgram, "value %zu: dim_order is not a permutation of 0..%zu",
                  index, rank - 1);
    }
    seen |= 1u << o;
    if (t->sizes()->Get(flatbuffers::uoffset_t(d)) < 0) {
      return fail(Error::InvalidProgram, "value %zu: negative size %d in dim %zu", index,
                  t->sizes()->Get(flatbuffers::uoffset_t(d)), d);
    }
  }
  return Error::Ok;
}

Result<void*> planned_address(LoadContext& ctx, size_t index, const fb::AllocationDetails* a,
                              size_t nbytes) {
  HierarchicalAllocator* planned = ctx.memory->planned_memory();
  const size_t num_planned = size_of(ctx.plan->non_const_buffer_sizes());
  if (a->memory_id() == 0 || a->memory_id() >= num_planned) {
    return fail(Error::InvalidProgram, "value %zu: memory_id %u out of range (method plans %zu buffer(s))",
                index, a->memory_id(), num_planned == 0 ? 0 : num_planned - 1);
  }
  if (planned == nullptr) {
    return fail(Error::InvalidArgument, "value %zu is memory-planned but no planned memory was given",
                index);
  }
  const uint64_t offset = uint64_t(a->memory_offset_low()) | uint64_t(a->memory_offset_high()) << 32;
  Result<void*> p = planned->get_offset_address(a->memory_id() - 1, offset, nbytes);
  if (!p.ok()) return annotate(p.error(), "value %zu", index);
  return p;
}

Error load_mutable_initial(LoadContext& ctx, size_t index, uint32_t data_index, void* dst,
                           size_t nbytes) {
  const auto* mutable_segments = as_program(ctx.program.flatbuffer_root())->mutable_data_segments();
  if (size_of(mutable_segments) == 0) {
    return fail(Error::InvalidProgram, "value %zu: data_buffer_idx %u but no mutable_data_segments",
                index, data_index);
  }
  const fb::SubsegmentOffsets* seg = mutable_segments->Get(0);
  if (data_index >= size_of(seg->offsets())) {
    return fail(Error::InvalidProgram, "value %zu: mutable data index %u out of range (%zu entries)",
                index, data_index, size_of(seg->offsets()));
  }
  const uint64_t offset = load_element(seg->offsets(), data_index);
  if (offset > SIZE_MAX) return fail(Error::InvalidProgram, "value %zu: mutable offset overflows", index);
  const Error err = ctx.program.load_segment_into(seg->segment_index(), size_t(offset), nbytes, dst);
  return err == Error::Ok ? err : annotate(err, "value %zu: initial mutable data", index);
}

Error external_data(LoadContext& ctx, size_t index, const fb::Tensor* t, size_t nbytes,
                    void* planned, void** data, size_t* external_slot) {
  const auto* fqn = t->extra_tensor_info()->fully_qualified_name();
  if (fqn == nullptr) {
    return fail(Error::InvalidProgram, "value %zu: EXTERNAL tensor without a fully_qualified_name",
                index);
  }
  if (ctx.external_data == nullptr) {
    return fail(Error::InvalidState,
                "value %zu: tensor '%s' lives in external data, but no data map (.ptd) was given",
                index, fqn->c_str());
  }
  Result<FreeableBuffer> buffer = ctx.external_data->get_data(fqn->string_view());
  if (!buffer.ok()) return annotate(buffer.error(), "value %zu: external tensor '%s'", index, fqn->c_str());
  if (buffer->size() < nbytes) {
    return fail(Error::InvalidExternalData, "external tensor '%s' has %zu bytes, needs %zu",
                fqn->c_str(), buffer->size(), nbytes);
  }
  if (planned != nullptr) {
    if (nbytes > 0) std::memcpy(planned, buffer->data(), nbytes);
    *data = planned;
    return Error::Ok;
  }
  MethodState* s = ctx.state;
  if (*external_slot >= s->num_external_buffers) {
    return fail(Error::Internal, "value %zu: external buffer slots exhausted", index);
  }
  FreeableBuffer& slot = s->external_buffers[(*external_slot)++];
  slot = std::move(*buffer);
  *data = const_cast<void*>(slot.data());
  return Error::Ok;
}

}  // namespace

Error parse_tensor(LoadContext& ctx, size_t index, const fb::Tensor* t, Tensor** out,
                   size_t* external_slot) {
  EMBER_TRY(check_shape(index, t));
  MemoryAllocator* alloc = ctx.memory->method_allocator();
  const size_t rank = t->sizes()->size();
  SizesType* sizes = nullptr;
  DimOrderType* dim_order = nullptr;
  StridesType* strides = nullptr;
  EMBER_TRY(allocate_array(alloc, rank, "tensor sizes", &sizes));
  EMBER_TRY(allocate_array(alloc, rank, "tensor dim orders", &dim_order));
  EMBER_TRY(allocate_array(alloc, rank, "tensor strides", &strides));
  for (size_t d = 0; d < rank; ++d) {
    sizes[d] = t->sizes()->Get(flatbuffers::uoffset_t(d));
    dim_order[d] = t->dim_order()->Get(flatbuffers::uoffset_t(d));
  }
  const ScalarType type = static_cast<ScalarType>(t->scalar_type());
  size_t numel = 0;
  if (!Tensor::compute_numel(Span<const SizesType>(sizes, rank), &numel) ||
      numel > SIZE_MAX / element_size(type) || uint64_t(numel * element_size(type)) > (uint64_t(1) << 48)) {
    return fail(Error::InvalidProgram, "value %zu: tensor byte size overflows", index);
  }
  const size_t nbytes = numel * element_size(type);

  void* data = nullptr;
  void* planned = nullptr;
  if (t->allocation_info() != nullptr) {
    Result<void*> p = planned_address(ctx, index, t->allocation_info(), nbytes);
    if (!p.ok()) return p.error();
    planned = data = *p;
  }
  const bool external = t->extra_tensor_info() != nullptr &&
                        t->extra_tensor_info()->location() == fb::TensorDataLocation::EXTERNAL;
  if (external) {
    EMBER_TRY(external_data(ctx, index, t, nbytes, planned, &data, external_slot));
  } else if (t->data_buffer_idx() > 0 && planned != nullptr) {
    EMBER_TRY(load_mutable_initial(ctx, index, t->data_buffer_idx(), planned, nbytes));
  } else if (t->data_buffer_idx() > 0) {
    Result<const void*> c = ctx.program.get_constant_data(t->data_buffer_idx(), nbytes);
    if (!c.ok()) return annotate(c.error(), "value %zu", index);
    data = const_cast<void*>(*c);
  }
  const size_t alignment = element_size(type);  // a power of two: 1, 2, 4 or 8
  if (data != nullptr && reinterpret_cast<uintptr_t>(data) % alignment != 0) {
    return fail(Error::InvalidProgram,
                "value %zu: %s data is not aligned to its %zu-byte elements (misaligned %s)", index,
                scalar_type_name(type), alignment,
                planned != nullptr ? "planned offset or buffer" : external ? "external data" : "constant offset");
  }
  Tensor* tensor = alloc->allocate_instance<Tensor>();
  if (tensor == nullptr) {
    return fail(Error::MemoryAllocationFailed, "method allocator exhausted at tensor value %zu", index);
  }
  const ShapeDynamism dynamism = t->shape_dynamism() == fb::TensorShapeDynamism::DYNAMIC_BOUND
                                     ? ShapeDynamism::DynamicBound
                                     : ShapeDynamism::Static;
  *tensor = Tensor(type, rank, sizes, dim_order, strides, data, dynamism);
  *out = tensor;
  return Error::Ok;
}

}  // namespace ember::runtime::internal
