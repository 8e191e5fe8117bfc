// Checks of one EValue: payload present, Tensor rules and where its data comes
// from (pte-format.md 1.4, 3.2-3.4), list items (section 0 item 7, 3.6).
#include "aot/emit/element_size.h"
#include "apps/pte_check/check_context.h"

namespace ember::aot::pte_check_internal {
namespace {

constexpr size_t kMaxRank = 16;

void check_constant_data(CheckContext* ctx, uint32_t idx, uint64_t nbytes,
                         const std::string& where) {
  const fb::SubsegmentOffsets* cs = ctx->program->constant_segment();
  if (cs != nullptr && cs->offsets() != nullptr && cs->offsets()->size() > 1) {
    if (idx >= cs->offsets()->size()) {
      ctx->error("value.constant_index", where,
                 "data_buffer_idx " + str(idx) + " >= " + str(cs->offsets()->size()) +
                     " constant_segment offsets");
      return;
    }
    const auto* segments = ctx->program->segments();
    if (segments == nullptr || cs->segment_index() >= segments->size()) return;  // reported
    uint64_t seg = segments->Get(cs->segment_index())->size();
    uint64_t offset = schema::load_element(cs->offsets(), idx);
    if (offset > seg || nbytes > seg - offset) {
      ctx->error("value.constant_bounds", where,
                 str(nbytes) + " bytes at constant offset " + str(offset) + " pass the segment's " +
                     str(seg) + " bytes");
    }
    return;
  }
  const auto* cb = ctx->program->constant_buffer();
  if (cb == nullptr || idx >= cb->size()) {
    ctx->error("value.constant_index", where,
               "data_buffer_idx " + str(idx) + " but the program has no such constant");
    return;
  }
  const auto* storage = cb->Get(idx)->storage();
  if (storage == nullptr || storage->size() < nbytes) {
    ctx->error("value.constant_bounds", where,
               "constant_buffer " + str(idx) + " holds fewer than the " + str(nbytes) +
                   " bytes the tensor needs");
  }
}

void check_mutable_data(CheckContext* ctx, uint32_t idx, uint64_t nbytes,
                        const std::string& where) {
  const auto* mds = ctx->program->mutable_data_segments();
  if (mds == nullptr || mds->size() == 0 || mds->Get(0)->offsets() == nullptr) {
    ctx->error(
        "value.mutable_index", where,
        "data_buffer_idx " + str(idx) + " on a planned tensor, but no mutable_data_segments");
    return;
  }
  const fb::SubsegmentOffsets* m = mds->Get(0);
  if (idx >= m->offsets()->size()) {
    ctx->error("value.mutable_index", where,
               "data_buffer_idx " + str(idx) + " >= " + str(m->offsets()->size()) + " offsets");
    return;
  }
  const auto* segments = ctx->program->segments();
  if (segments == nullptr || m->segment_index() >= segments->size()) return;  // reported
  uint64_t seg = segments->Get(m->segment_index())->size();
  uint64_t offset = schema::load_element(m->offsets(), idx);
  if (offset > seg || nbytes > seg - offset) {
    ctx->error("value.mutable_bounds", where,
               str(nbytes) + " bytes at offset " + str(offset) + " pass the segment's " + str(seg));
  }
}

void check_allocation(CheckContext* ctx, const fb::ExecutionPlan* plan,
                      const fb::AllocationDetails* a, uint64_t nbytes, const std::string& where) {
  const auto* buffers = plan->non_const_buffer_sizes();
  if (a->memory_id() == 0) {
    ctx->error("value.memory_id", where, "memory_id 0; ids are 1-based");
    return;
  }
  size_t planned = buffers && buffers->size() > 0 ? buffers->size() - 1 : 0;
  if (a->memory_id() > planned) {
    ctx->error("value.memory_id", where,
               "memory_id " + str(a->memory_id()) + " out of range, the plan has " + str(planned) +
                   " buffer(s)");
    return;
  }
  int64_t capacity = schema::load_element(buffers, a->memory_id());
  uint64_t offset = a->memory_offset_low() | (uint64_t{a->memory_offset_high()} << 32);
  if (capacity < 0 || offset > static_cast<uint64_t>(capacity) ||
      nbytes > static_cast<uint64_t>(capacity) - offset) {
    ctx->error("value.memory_bounds", where,
               str(nbytes) + " bytes at offset " + str(offset) + " pass buffer " +
                   str(a->memory_id()) + " of " + std::to_string(capacity) + " bytes");
  }
}

// Shape rules; returns false (after reporting) if nbytes cannot be computed.
bool check_shape(CheckContext* ctx, const fb::Tensor* t, const std::string& where,
                 uint64_t* nbytes) {
  if (t->sizes() == nullptr || t->dim_order() == nullptr) {
    ctx->error("value.tensor_fields", where, "sizes and dim_order are required");
    return false;
  }
  size_t rank = t->sizes()->size();
  if (rank > kMaxRank) ctx->error("value.rank", where, "rank " + str(rank) + " > 16");
  if (t->dim_order()->size() != rank) {
    ctx->error("value.dim_order", where,
               "dim_order has " + str(t->dim_order()->size()) + " entries, sizes has " + str(rank));
  } else {
    std::vector<bool> seen(rank, false);
    for (uint8_t d : *t->dim_order()) {
      if (d >= rank || seen[d]) {
        ctx->error("value.dim_order", where, "dim_order is not a permutation of [0, rank)");
        break;
      }
      seen[d] = true;
    }
  }
  if (t->storage_offset() != 0) {
    ctx->error("value.storage_offset", where,
               "storage_offset " + std::to_string(t->storage_offset()) + ", must be 0");
  }
  if (t->shape_dynamism() == fb::TensorShapeDynamism::DYNAMIC_UNBOUND) {
    ctx->error("value.dynamism", where, "DYNAMIC_UNBOUND is rejected (NotSupported)");
  }
  int dtype = static_cast<int>(t->scalar_type());
  if (pte_element_size(dtype) == 0) {
    ctx->error("value.scalar_type", where, "unknown scalar_type " + std::to_string(dtype));
    return false;
  }
  if (!pte_tensor_nbytes(dtype, *t->sizes(), nbytes)) {
    ctx->error("value.sizes", where, "negative sizes or byte size overflow");
    return false;
  }
  return true;
}

void check_tensor(CheckContext* ctx, const fb::ExecutionPlan* plan, const fb::Tensor* t,
                  const std::string& where) {
  uint64_t nbytes = 0;
  if (!check_shape(ctx, t, where, &nbytes)) return;
  const fb::ExtraTensorInfo* extra = t->extra_tensor_info();
  if (extra != nullptr && extra->location() == fb::TensorDataLocation::EXTERNAL) {
    if (extra->fully_qualified_name() == nullptr) {
      ctx->error("value.external_name", where, "EXTERNAL tensor without fully_qualified_name");
    }
    if (t->allocation_info() != nullptr)
      check_allocation(ctx, plan, t->allocation_info(), nbytes, where);
    return;
  }
  if (t->allocation_info() != nullptr) {
    check_allocation(ctx, plan, t->allocation_info(), nbytes, where);
    if (t->data_buffer_idx() > 0) check_mutable_data(ctx, t->data_buffer_idx(), nbytes, where);
  } else if (t->data_buffer_idx() > 0) {
    check_constant_data(ctx, t->data_buffer_idx(), nbytes, where);
  }
}

template <typename Items>
void check_items(CheckContext* ctx, const fb::ExecutionPlan* plan, size_t self, const Items* items,
                 fb::KernelTypes want, bool allow_none, bool must_precede,
                 const std::string& where) {
  if (items == nullptr) {
    ctx->error("value.list_items", where, "items are missing");
    return;
  }
  const auto* values = plan->values();
  for (size_t k = 0; k < items->size(); ++k) {
    int64_t idx = schema::load_element(items, k);
    if (allow_none && idx == -1) continue;
    std::string item = where + " item " + str(k);
    if (idx < 0 || static_cast<uint64_t>(idx) >= values->size()) {
      ctx->error(
          "value.list_items", item,
          "value index " + std::to_string(idx) + " out of range [0, " + str(values->size()) + ")");
      continue;
    }
    if (values->Get(idx)->val_type() != want) {
      ctx->error("value.list_items", item,
                 "value " + std::to_string(idx) + " is a " +
                     fb::EnumNameKernelTypes(values->Get(idx)->val_type()) + ", expected " +
                     fb::EnumNameKernelTypes(want));
    }
    if (static_cast<uint64_t>(idx) >= self) {
      std::string msg =
          "value " + std::to_string(idx) + " comes after the list (" + str(self) + ")";
      if (must_precede) {
        ctx->error("value.list_order", item,
                   msg + "; the runtime reads it while building the list");
      } else {
        ctx->warn("value.list_order", item, msg + "; writers emit list elements first");
      }
    }
  }
}

}  // namespace

void check_value(CheckContext* ctx, const fb::ExecutionPlan* plan, size_t index,
                 const std::string& where) {
  const fb::EValue* v = plan->values()->Get(index);
  using K = fb::KernelTypes;
  if (v->val_type() == K::NONE || v->val_type() > K::MAX) {
    ctx->error(
        "value.type", where,
        "val_type " + str(static_cast<unsigned>(v->val_type())) + " is not a KernelTypes member");
    return;
  }
  if (v->val_type() == K::Null) return;
  if (v->val() == nullptr) {
    ctx->error(
        "value.payload", where,
        "a " + std::string(fb::EnumNameKernelTypes(v->val_type())) + " value without its table");
    return;
  }
  switch (v->val_type()) {
    case K::Tensor:
      check_tensor(ctx, plan, v->val_as_Tensor(), where);
      break;
    case K::String:
      if (v->val_as_String()->string_val() == nullptr) {
        ctx->error("value.payload", where, "String without string_val");
      }
      break;
    case K::IntList:
      check_items(ctx, plan, index, v->val_as_IntList()->items(), K::Int, false, false, where);
      break;
    case K::TensorList:
      check_items(ctx, plan, index, v->val_as_TensorList()->items(), K::Tensor, false, true, where);
      break;
    case K::OptionalTensorList:
      check_items(ctx, plan, index, v->val_as_OptionalTensorList()->items(), K::Tensor, true, true,
                  where);
      break;
    case K::DoubleList:
      if (v->val_as_DoubleList()->items() == nullptr)
        ctx->error("value.list_items", where, "missing");
      break;
    case K::BoolList:
      if (v->val_as_BoolList()->items() == nullptr)
        ctx->error("value.list_items", where, "missing");
      break;
    default:
      break;
  }
}

}  // namespace ember::aot::pte_check_internal
