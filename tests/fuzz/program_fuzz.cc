// libFuzzer target: an arbitrary byte string as a .pte, through Program::load,
// load_method for every method (planned memory sized from the file up to a
// bound, so "caller memory too small" is exercised too), set_input with zeroed
// tensors of the declared shapes, and execute. Any crash, leak, timeout or
// sanitizer report is a bug: bad files must produce errors.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "runtime/core/diagnostics.h"
#include "runtime/executor/program.h"
#include "runtime/executor/testing/test_kernels.h"
#include "runtime/kernel/prim_ops/prim_ops.h"
#include "runtime/loader/buffer_data_loader.h"
#include "runtime/platform/log.h"

namespace {

using namespace ember::runtime;  // NOLINT

constexpr size_t kMaxPlannedBytes = 1 << 20;
constexpr size_t kMaxInputBytes = 1 << 16;
constexpr size_t kMaxMethods = 4;

alignas(16) uint8_t g_method_pool[1 << 20];
alignas(16) uint8_t g_temp_pool[1 << 16];

const KernelRegistry& kernels() {
  static FixedKernelRegistry<64> registry;
  static bool initialized = false;
  if (!initialized) {
    initialized = true;
    set_min_log_level(LogLevel::Fatal);
    (void)register_prim_ops(registry);
    (void)ember::testing::register_test_kernels(registry);
  }
  return registry;
}

void set_inputs(Method& method, std::vector<std::vector<uint8_t>>* storage,
                std::vector<Tensor>* tensors) {
  MethodMeta meta = method.method_meta();
  tensors->reserve(method.inputs_size());
  for (size_t i = 0; i < method.inputs_size(); ++i) {
    const EValue& current = method.get_input(i);
    if (!current.is_tensor()) {
      (void)method.set_input(current, i);
      continue;
    }
    Result<TensorInfo> info = meta.input_tensor_meta(i);
    if (!info.ok() || info->nbytes() > kMaxInputBytes) continue;
    storage->emplace_back(info->nbytes() + 16, 0);
    const Tensor& declared = current.to_tensor();
    tensors->emplace_back(declared.scalar_type(), declared.dim(),
                          const_cast<SizesType*>(declared.sizes().data()),
                          const_cast<DimOrderType*>(declared.dim_order().data()), nullptr,
                          storage->back().data());
    (void)method.set_input(EValue(&tensors->back()), i);
  }
}

void run_method(const Program& program, const char* name) {
  Result<MethodMeta> meta = program.method_meta(name);
  if (!meta.ok()) return;
  std::vector<std::vector<uint8_t>> buffers;
  std::vector<Span<uint8_t>> spans;
  for (size_t i = 0; i < meta->num_memory_planned_buffers() && i < 8; ++i) {
    Result<int64_t> size = meta->memory_planned_buffer_size(i);
    const size_t bytes = size.ok() ? size_t(*size) : 0;
    buffers.emplace_back(bytes < kMaxPlannedBytes ? bytes : kMaxPlannedBytes);
  }
  for (auto& b : buffers) spans.emplace_back(b.data(), b.size());
  HierarchicalAllocator planned(Span<Span<uint8_t>>(spans.data(), spans.size()));
  MemoryAllocator method_allocator(g_method_pool, sizeof(g_method_pool));
  MemoryAllocator temp_allocator(g_temp_pool, sizeof(g_temp_pool));
  MemoryManager memory(&method_allocator, &planned, &temp_allocator);
  static BackendRegistry backends;
  MethodLoadOptions options;
  options.kernels = &kernels();
  options.backends = &backends;
  Result<Method> method = program.load_method(name, &memory, options);
  if (!method.ok()) return;
  std::vector<std::vector<uint8_t>> storage;
  std::vector<Tensor> tensors;
  set_inputs(*method, &storage, &tensors);
  (void)method->execute();
  for (size_t i = 0; i < method->outputs_size(); ++i) (void)method->get_output(i).tag();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  (void)kernels();
  std::vector<std::max_align_t> aligned(size / sizeof(std::max_align_t) + 1);
  if (size > 0) std::memcpy(aligned.data(), data, size);
  BufferDataLoader loader(aligned.data(), size);
  Result<Program> program = Program::load(&loader);
  if (!program.ok()) return 0;
  for (size_t i = 0; i < program->num_methods() && i < kMaxMethods; ++i) {
    Result<const char*> name = program->get_method_name(i);
    if (name.ok()) run_method(*program, *name);
  }
  return 0;
}
