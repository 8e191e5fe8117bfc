// Executor overhead per instruction: a method that is a chain of N tiny
// instructions, timed per execute() and reported as ns per instruction.
//  - BM_ExecutorNoopChain: a kernel that does nothing (pure dispatch cost:
//    context, span, failure check, temp reset).
//  - BM_ExecutorAddChain: aten::add.out on float[1] tensors (the tests' tiny kernel).
//  - BM_ExecutorPortableAddChain: the same with the portable library's add.out.
//  - BM_ExecutorPrimChain: executorch_prim::add.Scalar on Int values.
//  - ...Profiled / ...Observed: the same chains with Method::set_profile (executor_runner
//    --profile) or a no-op InstructionObserver (the hook --dump_intermediates uses) set: the
//    cost of the hooks when on. With both off the chains above take execute()'s fast path;
//    comparing them with main's build of this file is the off-cost (docs/profiling.md).
// Run: bazel run -c opt //benchmarks:executor_benchmark
#include <benchmark/benchmark.h>

#include <vector>

#include "kernels/portable/register_kernels.h"
#include "runtime/executor/program.h"
#include "runtime/executor/testing/program_builder.h"
#include "runtime/executor/testing/test_kernels.h"
#include "runtime/kernel/prim_ops/prim_ops.h"
#include "runtime/loader/buffer_data_loader.h"

namespace {

using namespace ember;           // NOLINT
using namespace ember::runtime;  // NOLINT
namespace fbs = ember::testing::fbs;

void noop(KernelRuntimeContext&, Span<EValue*>) {}

std::unique_ptr<fbs::InstructionT> kernel_call(int op, std::vector<int32_t> args) {
  fbs::KernelCallT call;
  call.op_index = op;
  call.args = std::move(args);
  auto instruction = std::make_unique<fbs::InstructionT>();
  instruction->instr_args.Set(std::move(call));
  return instruction;
}

// kind 0: noop chain; 1: add.out chain over float[1]; 2: prim add.Scalar chain.
std::vector<uint8_t> chain_program(int kind, int n) {
  auto program = testing::make_add_program();
  auto& plan = *program->execution_plan[0];
  plan.values.clear();
  plan.operators.clear();
  plan.chains[0]->instructions.clear();
  auto op = std::make_unique<fbs::OperatorT>();
  const bool add = kind == 1 || kind == 3;
  op->name = kind == 0 ? "bench::noop" : add ? "aten::add" : "executorch_prim::add";
  op->overload = kind == 0 ? "" : add ? "out" : "Scalar";
  plan.operators.push_back(std::move(op));
  if (add) {
    plan.values.push_back(testing::make_int_value(1));  // alpha
    for (int i = 0; i <= n; ++i) plan.values.push_back(testing::make_tensor_value({1}, 1, uint32_t(16 * (i % 2))));
    for (int i = 0; i < n; ++i) {
      plan.chains[0]->instructions.push_back(kernel_call(0, {i + 1, i + 1, 0, i + 2, i + 2}));
    }
    plan.inputs = {1};
    plan.outputs = {n + 1};
    plan.non_const_buffer_sizes = {0, 32};
  } else {
    plan.values.push_back(testing::make_int_value(1));
    plan.values.push_back(testing::make_int_value(0));
    plan.values.push_back(testing::make_int_value(7));  // the (unused) input
    for (int i = 0; i < n; ++i) plan.chains[0]->instructions.push_back(kernel_call(0, {1, 0, 1}));
    plan.inputs = {2};
    plan.outputs = {1};
    plan.non_const_buffer_sizes = {0};
  }
  return testing::serialize(*program);
}

enum class Hook { None, Profile, Observer };

class NoopObserver final : public InstructionObserver {
 public:
  void after_instruction(size_t instruction, Span<EValue* const>) override {
    benchmark::DoNotOptimize(instruction);
  }
};

void run_chain(benchmark::State& state, int kind, Hook hook = Hook::None) {
  const int n = int(state.range(0));
  static FixedKernelRegistry<64> kernels;
  static bool registered = false;
  if (!registered) {
    registered = true;
    (void)register_prim_ops(kernels);
    (void)testing::register_test_kernels(kernels);
    (void)kernels.register_kernel(Kernel{"bench::noop", noop});
  }
  static FixedKernelRegistry<1024> portable;
  if (portable.size() == 0) (void)kernels::portable::register_kernels(portable);
  static BackendRegistry backends;
  const testing::AlignedBytes bytes(chain_program(kind, n));
  BufferDataLoader loader(bytes.data(), bytes.size());
  Result<Program> program = Program::load(&loader);
  if (!program.ok()) return state.SkipWithError("program load failed");
  std::vector<uint8_t> method_pool(size_t(n) * 256 + (64 << 10)), arena(64), temp(1024);
  Span<uint8_t> spans[1] = {Span<uint8_t>(arena.data(), arena.size())};
  HierarchicalAllocator planned(Span<Span<uint8_t>>(spans, 1));
  MemoryAllocator method_allocator(method_pool.data(), method_pool.size());
  MemoryAllocator temp_allocator(temp.data(), temp.size());
  MemoryManager memory(&method_allocator, &planned, &temp_allocator);
  MethodLoadOptions options;
  options.kernels = kind == 3 ? static_cast<const KernelRegistry*>(&portable) : &kernels;
  options.backends = &backends;
  Result<Method> method = program->load_method("forward", &memory, options);
  if (!method.ok()) return state.SkipWithError("method load failed");
  float x = 1.0f;
  int32_t sizes[1] = {1};
  uint8_t order[1] = {0};
  int32_t strides[1];
  Tensor input(ScalarType::Float, 1, sizes, order, strides, &x);
  const EValue in = kind == 1 || kind == 3 ? EValue(&input) : EValue(int64_t(7));
  if (method->set_input(in, 0) != Error::Ok) return state.SkipWithError("set_input");
  std::vector<InstructionProfile> profile(method->num_instructions());
  NoopObserver observer;
  if (hook == Hook::Profile) method->set_profile(profile.data());
  if (hook == Hook::Observer) method->set_instruction_observer(&observer);
  for (auto _ : state) {
    if (method->execute() != Error::Ok) return state.SkipWithError("execute failed");
  }
  state.counters["ns_per_instruction"] =
      benchmark::Counter(double(state.iterations()) * n, benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

void BM_ExecutorNoopChain(benchmark::State& state) { run_chain(state, 0); }
void BM_ExecutorAddChain(benchmark::State& state) { run_chain(state, 1); }
void BM_ExecutorPrimChain(benchmark::State& state) { run_chain(state, 2); }
void BM_ExecutorPortableAddChain(benchmark::State& state) { run_chain(state, 3); }
void BM_ExecutorNoopChainProfiled(benchmark::State& state) { run_chain(state, 0, Hook::Profile); }
void BM_ExecutorNoopChainObserved(benchmark::State& state) { run_chain(state, 0, Hook::Observer); }
void BM_ExecutorPortableAddChainProfiled(benchmark::State& state) { run_chain(state, 3, Hook::Profile); }
void BM_ExecutorPortableAddChainObserved(benchmark::State& state) { run_chain(state, 3, Hook::Observer); }

BENCHMARK(BM_ExecutorNoopChain)->Arg(100)->Arg(1000);
BENCHMARK(BM_ExecutorAddChain)->Arg(100)->Arg(1000);
BENCHMARK(BM_ExecutorPrimChain)->Arg(100)->Arg(1000);
BENCHMARK(BM_ExecutorPortableAddChain)->Arg(100)->Arg(1000);
BENCHMARK(BM_ExecutorNoopChainProfiled)->Arg(1000);
BENCHMARK(BM_ExecutorNoopChainObserved)->Arg(1000);
BENCHMARK(BM_ExecutorPortableAddChainProfiled)->Arg(1000);
BENCHMARK(BM_ExecutorPortableAddChainObserved)->Arg(1000);

}  // namespace

BENCHMARK_MAIN();
