#include "tests/baremetal/model_check.h"

#include "runtime/core/hierarchical_allocator.h"
#include "runtime/core/memory_allocator.h"
#include "runtime/core/memory_manager.h"
#include "runtime/executor/program.h"
#include "runtime/loader/buffer_data_loader.h"

namespace ember::baremetal {

namespace {

using runtime::Error;

constexpr size_t kMaxPlannedBuffers = 4;
constexpr size_t kMaxDims = 8;
constexpr size_t kTempBytes = 4096;

float magnitude(float x) { return x < 0 ? -x : x; }

}  // namespace

CheckResult run_model_check(const ModelCheck& model, runtime::KernelRegistry& kernels,
                            runtime::Span<uint8_t> arena) {
  using namespace runtime;
  CheckResult r;
  BufferDataLoader loader(model.pte, model.pte_size);
  Result<Program> program = Program::load(&loader);
  if (!program.ok()) return r.error = program.error(), r;
  Result<MethodMeta> meta = program->method_meta("forward");
  if (!meta.ok()) return r.error = meta.error(), r;

  MemoryAllocator pool(arena.data(), arena.size());
  Span<uint8_t> planned_spans[kMaxPlannedBuffers];
  const size_t n_planned = meta->num_memory_planned_buffers();
  if (n_planned > kMaxPlannedBuffers) return r.error = Error::NotSupported, r;
  for (size_t i = 0; i < n_planned; ++i) {
    const size_t size = static_cast<size_t>(*meta->memory_planned_buffer_size(i));
    void* p = pool.allocate(size, 16);
    if (p == nullptr) return r.error = Error::MemoryAllocationFailed, r;
    planned_spans[i] = {static_cast<uint8_t*>(p), size};
    r.planned_bytes += size;
  }
  void* temp_base = pool.allocate(kTempBytes, 16);
  if (temp_base == nullptr) return r.error = Error::MemoryAllocationFailed, r;
  MemoryAllocator temp(temp_base, kTempBytes);
  HierarchicalAllocator planned({planned_spans, n_planned});
  MemoryManager memory(&pool, &planned, &temp);
  MethodLoadOptions options;
  options.kernels = &kernels;
  Result<Method> method = program->load_method("forward", &memory, options);
  if (!method.ok()) return r.error = method.error(), r;

  Result<TensorInfo> info = meta->input_tensor_meta(0);
  if (!info.ok()) return r.error = info.error(), r;
  if (info->nbytes() != model.input_size || info->sizes().size() > kMaxDims) {
    return r.error = Error::InvalidArgument, r;
  }
  int32_t sizes[kMaxDims];
  uint8_t order[kMaxDims];
  int32_t strides[kMaxDims];
  for (size_t d = 0; d < info->sizes().size(); ++d) {
    sizes[d] = info->sizes()[d];
    order[d] = info->dim_order()[d];
  }
  Tensor in(info->scalar_type(), info->sizes().size(), sizes, order, strides,
            const_cast<uint8_t*>(model.input));
  Error e = method->set_input(EValue(&in), 0);
  if (e == Error::Ok) e = method->execute();
  if (e != Error::Ok) return r.error = e, r;
  r.arena_used = static_cast<size_t>(pool.used());

  const Tensor& out = method->get_output(0).to_tensor();
  r.elements = out.numel();
  if (out.nbytes() != model.expected_size || out.scalar_type() != ScalarType::Float) {
    r.mismatches = r.elements;
    return r;
  }
  const float* got = out.const_data_ptr<float>();
  const float* want = reinterpret_cast<const float*>(model.expected);
  for (size_t i = 0; i < r.elements; ++i) {
    const float err = magnitude(got[i] - want[i]);
    if (!(err <= model.atol + model.rtol * magnitude(want[i]))) ++r.mismatches;
    if (err > r.max_abs_error) r.max_abs_error = err;
  }
  return r;
}

}  // namespace ember::baremetal
