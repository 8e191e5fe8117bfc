// Program::load_method: checks the caller's memory against the method's plan,
// then builds the method in order: values, input guards, delegates, instructions.
#include <cstring>

#include "runtime/executor/method_state.h"

namespace ember::runtime {

using namespace internal;  // NOLINT

namespace {

Error check_planned_memory(const MethodMeta& meta, const MemoryManager* memory) {
  const size_t needed = meta.num_memory_planned_buffers();
  const HierarchicalAllocator* planned = memory->planned_memory();
  const size_t given = planned == nullptr ? 0 : planned->num_buffers();
  for (size_t i = 0; i < needed; ++i) {
    Result<int64_t> size = meta.memory_planned_buffer_size(i);
    if (!size.ok()) return size.error();
    if (*size == 0) continue;
    if (i >= given) {
      return fail(Error::InvalidArgument, "method '%s' plans %zu buffer(s), %zu given", meta.name(),
                  needed, given);
    }
    if (planned->buffer(i).size() < uint64_t(*size)) {
      return fail(Error::MemoryAllocationFailed,
                  "method '%s': planned buffer %zu is %zu bytes, the program needs %lld", meta.name(),
                  i, planned->buffer(i).size(), static_cast<long long>(*size));
    }
  }
  return Error::Ok;
}

}  // namespace

Result<Method> Program::load_method(const char* name, MemoryManager* memory,
                                    const MethodLoadOptions& options) const {
  if (memory == nullptr || memory->method_allocator() == nullptr) {
    return fail(Error::InvalidArgument, "load_method('%s'): a method allocator is required", name);
  }
  if (memory->method_allocator() == memory->temp_allocator()) {
    return fail(Error::InvalidArgument, "load_method('%s'): method and temp allocators must differ", name);
  }
  Result<MethodMeta> meta = method_meta(name);
  if (!meta.ok()) return meta.error();
  EMBER_TRY(check_planned_memory(*meta, memory));
  MemoryAllocator* alloc = memory->method_allocator();
  MethodState* state = alloc->allocate_instance<MethodState>();
  if (state == nullptr) {
    return fail(Error::MemoryAllocationFailed, "load_method('%s'): method allocator exhausted", name);
  }
  const fb::ExecutionPlan* plan = as_program(flatbuffer_root())->execution_plan()->Get(0);
  for (const fb::ExecutionPlan* p : *as_program(flatbuffer_root())->execution_plan()) {
    if (p->name() != nullptr && p->name()->string_view() == std::string_view(name)) {
      plan = p;
      break;
    }
  }
  state->plan = plan;
  state->name = plan_name(plan);
  state->temp_allocator = memory->temp_allocator();
  state->thread_pool = options.thread_pool;
  Method method(state);  // cleans up delegates if a later step fails
  LoadContext ctx{*this,
                  plan,
                  memory,
                  options.kernels ? options.kernels : &default_kernel_registry(),
                  options.backends ? options.backends : &default_backend_registry(),
                  options.external_data,
                  state};
  Error err = parse_values(ctx);
  if (err == Error::Ok) err = load_input_guards(ctx);
  if (err == Error::Ok) err = init_delegates(ctx);
  if (err == Error::Ok) err = resolve_instructions(ctx);
  if (err != Error::Ok) return annotate(err, "loading method '%s'", name);
  return method;
}

}  // namespace ember::runtime
