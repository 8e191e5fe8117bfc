// The size gate's program (size_gate_test.sh): the runtime core with no kernels, loading a .pte
// from a file and executing its "forward" method, like an app's smallest use of the runtime.
// Memory is static; no kernel library is linked (a program that calls operators fails to load
// with OperatorMissing, which is still the load-and-execute path being measured).
//
//   minimal_runner FILE.pte    (exit 0 when the method loaded and ran)
#include <cstdint>

#include "runtime/core/hierarchical_allocator.h"
#include "runtime/core/memory_allocator.h"
#include "runtime/core/memory_manager.h"
#include "runtime/executor/program.h"
#include "runtime/kernel/kernel_registry.h"
#include "runtime/loader/file_data_loader.h"
#include "runtime/platform/log.h"

namespace {

using namespace ember::runtime;

alignas(16) uint8_t g_pool[256 * 1024];

Error run(const char* path) {
  Result<FileDataLoader> loader = FileDataLoader::from(path);
  if (!loader.ok()) return loader.error();
#if defined(EMBER_NO_FLATBUFFER_VERIFIER)
  // The trusted-programs build (no verifier): what ExecuTorch's size test does by default.
  Result<Program> program = Program::load(&*loader, Program::Verification::Minimal);
#else
  Result<Program> program = Program::load(&*loader);
#endif
  if (!program.ok()) return program.error();
  Result<MethodMeta> meta = program->method_meta("forward");
  if (!meta.ok()) return meta.error();
  MemoryAllocator pool(g_pool, sizeof(g_pool));
  Span<uint8_t> buffers[8];
  const size_t n = meta->num_memory_planned_buffers();
  if (n > 8) return Error::NotSupported;
  for (size_t i = 0; i < n; ++i) {
    const size_t size = static_cast<size_t>(*meta->memory_planned_buffer_size(i));
    void* p = pool.allocate(size, 16);
    if (p == nullptr) return Error::MemoryAllocationFailed;
    buffers[i] = {static_cast<uint8_t*>(p), size};
  }
  HierarchicalAllocator planned({buffers, n});
  MemoryManager memory(&pool, &planned);
  FixedKernelRegistry<1> no_kernels;
  MethodLoadOptions options;
  options.kernels = &no_kernels;
  Result<Method> method = program->load_method("forward", &memory, options);
  if (!method.ok()) return method.error();
  return method->execute();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) return 2;
  const Error e = run(argv[1]);
  EMBER_LOG(Info, "forward: %s", error_name(e));
  return e == Error::Ok ? 0 : 1;
}
