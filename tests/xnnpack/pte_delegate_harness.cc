// PteDelegateHarness; see pte_delegate_harness.h.
#include "tests/xnnpack/pte_delegate_harness.h"

#include <cstring>

#include "backends/xnnpack/runtime/xnnpack_backend.h"
#include "runtime/core/diagnostics.h"
#include "schema/program_generated.h"
#include "tests/support/shared_fixtures.h"

namespace ember::testing {

using runtime::Error;
namespace fb = executorch_flatbuffer;

namespace {

const fb::ExecutionPlan* as_plan(const void* p) { return static_cast<const fb::ExecutionPlan*>(p); }

// The bytes of segment `index` of the loaded file (empty when it does not resolve).
runtime::Span<const uint8_t> segment_bytes(const runtime::PteContainer& container, size_t index) {
  runtime::Result<runtime::Span<const uint8_t>> data = container.segment_data(index);
  return data.ok() ? *data : runtime::Span<const uint8_t>();
}

}  // namespace

struct PteDelegateHarness::TensorSlot {
  std::vector<int32_t> sizes;
  std::vector<uint8_t> dim_order;
  std::vector<int32_t> strides;
  std::vector<uint8_t> data;
  runtime::Tensor tensor;
};

PteDelegateHarness::PteDelegateHarness() = default;

PteDelegateHarness::~PteDelegateHarness() {
  for (void* h : handles_) backends::xnnpack::backend_instance().destroy(h);
}

bool PteDelegateHarness::load(const std::string& path, std::string* error) {
  if (!read_file(path, &file_)) {
    *error = "cannot read " + path;
    return false;
  }
  runtime::Result<runtime::PteContainer> container =
      runtime::PteContainer::open(file_.data(), file_.size());
  if (!container.ok()) {
    *error = "not a valid ET12 program: " + path + ": " + runtime::last_error_message();
    return false;
  }
  container_ = *container;
  loader_ = std::make_unique<runtime::BufferDataLoader>(file_.data(), file_.size());
  named_ = std::make_unique<runtime::PteDataMap>(loader_.get(), container_);
  return true;
}

Error PteDelegateHarness::init_delegates(const std::string& method) {
  const auto* program = static_cast<const fb::Program*>(container_.program_root());
  const fb::ExecutionPlan* plan = nullptr;
  for (const auto* p : *program->execution_plan()) {
    if (p->name()->str() == method) plan = p;
  }
  if (plan == nullptr) return runtime::fail(Error::NotFound, "no method %s", method.c_str());
  plan_ = plan;
  // Tensors for every value: planned ones inside per-memory_id arenas (so views
  // alias like in a Method), constants from the constant segment, others on
  // the heap sized by their declared upper bounds.
  const size_t n = plan->values()->size();
  values_.assign(n, runtime::EValue());
  slots_.clear();
  planned_.clear();
  for (size_t b = 0; plan->non_const_buffer_sizes() != nullptr && b < plan->non_const_buffer_sizes()->size(); ++b) {
    planned_.emplace_back(size_t(plan->non_const_buffer_sizes()->Get(b)) + 64, 0);
  }
  for (size_t i = 0; i < n; ++i) {
    const auto* t = plan->values()->Get(i)->val_as_Tensor();
    if (t == nullptr) continue;
    auto slot = std::make_unique<TensorSlot>();
    slot->sizes.assign(t->sizes()->begin(), t->sizes()->end());
    slot->dim_order.assign(t->dim_order()->begin(), t->dim_order()->end());
    slot->strides.resize(slot->sizes.size());
    const auto st = static_cast<runtime::ScalarType>(t->scalar_type());
    size_t numel = 1;
    for (int32_t s : slot->sizes) numel *= size_t(s);
    const size_t nbytes = numel * runtime::element_size(st);
    void* data = nullptr;
    if (t->allocation_info() != nullptr) {
      const auto* a = t->allocation_info();
      const size_t off = size_t(a->memory_offset_low()) | (size_t(a->memory_offset_high()) << 32);
      data = planned_.at(a->memory_id()).data() + off;
    } else {
      slot->data.assign(nbytes + 64, 0);
      data = slot->data.data();
      if (t->data_buffer_idx() != 0 && program->constant_segment() != nullptr) {
        const auto* cs = program->constant_segment();
        const runtime::Span<const uint8_t> constants = segment_bytes(container_, cs->segment_index());
        std::memcpy(data, constants.data() + cs->offsets()->Get(t->data_buffer_idx()), nbytes);
      }
    }
    slot->tensor = runtime::Tensor(
        st, slot->sizes.size(), slot->sizes.data(), slot->dim_order.data(), slot->strides.data(),
        data, static_cast<runtime::ShapeDynamism>(t->shape_dynamism()));
    values_[i] = runtime::EValue(&slot->tensor);
    slots_.push_back(std::move(slot));
  }
  inputs_.assign(plan->inputs()->begin(), plan->inputs()->end());
  outputs_.assign(plan->outputs()->begin(), plan->outputs()->end());
  arena_.assign(8 << 20, 0);
  allocator_ = std::make_unique<runtime::MemoryAllocator>(arena_.data(), arena_.size());
  const auto& backend = backends::xnnpack::backend_instance();
  for (size_t d = 0; plan->delegates() != nullptr && d < plan->delegates()->size(); ++d) {
    const auto* del = plan->delegates()->Get(d);
    const auto* ref = del->processed();
    const uint8_t* data = nullptr;
    size_t size = 0;
    if (ref->location() == fb::DataLocation::SEGMENT) {
      const runtime::Span<const uint8_t> segment = segment_bytes(container_, ref->index());
      data = segment.data();
      size = segment.size();
    } else {
      const auto* inl = program->backend_delegate_data()->Get(ref->index())->data();
      data = inl->data();
      size = inl->size();
    }
    runtime::FreeableBuffer blob(data, size);
    runtime::BackendInitContext ctx(allocator_.get(), method.c_str(), named_.get());
    auto handle = backend.init(ctx, &blob, {});
    if (!handle.ok()) return runtime::annotate(handle.error(), "delegate %zu", d);
    handles_.push_back(handle.get());
  }
  only_delegates_ = true;
  for (const auto* ins : *plan->chains()->Get(0)->instructions()) {
    only_delegates_ &= ins->instr_args_type() == fb::InstructionArguments::DelegateCall;
  }
  return Error::Ok;
}

Error PteDelegateHarness::set_input(size_t i, const std::vector<int32_t>& shape,
                                    const std::vector<uint8_t>& bytes) {
  runtime::Tensor& t = values_[inputs_[i]].to_tensor();
  EMBER_TRY(t.resize(runtime::Span<const int32_t>(shape.data(), shape.size())));
  if (bytes.size() != t.nbytes()) return runtime::fail(Error::InvalidArgument, "input %zu size", i);
  std::memcpy(t.mutable_data_ptr(), bytes.data(), bytes.size());
  return Error::Ok;
}

Error PteDelegateHarness::execute() {
  const auto* plan = as_plan(plan_);
  std::vector<uint8_t> temp(1 << 16);
  runtime::MemoryAllocator temp_alloc(temp.data(), temp.size());
  for (const auto* ins : *plan->chains()->Get(0)->instructions()) {
    const auto* call = ins->instr_args_as_DelegateCall();
    if (call == nullptr) return runtime::fail(Error::NotSupported, "non-delegate instruction");
    std::vector<runtime::EValue*> args;
    for (int a : *call->args()) args.push_back(&values_[a]);
    runtime::BackendExecutionContext ctx(&temp_alloc, "forward", nullptr);
    EMBER_TRY(backends::xnnpack::backend_instance().execute(
        ctx, handles_[call->delegate_index()],
        runtime::Span<runtime::EValue*>(args.data(), args.size())));
  }
  return Error::Ok;
}

const runtime::Tensor& PteDelegateHarness::output(size_t i) const {
  return values_[outputs_[i]].to_tensor();
}

}  // namespace ember::testing
