// Programs written by our emitter load and run on Ember's runtime (Module,
// prim ops, the test-only add/mul kernels of //runtime/executor:test_kernels and a
// small test backend), with outputs computed by hand:
//   add of two float[2,2] with planned IO; constants (deduplicated, in the
//   constant segment behind the eh00 header); two methods; a delegate whose blob
//   is read from a segment; mutable initial data; and a three-op chain whose
//   memory plan comes from GreedyBySizePlanner (planner -> emitter -> runtime).
#include <gtest/gtest.h>

#include <cstring>
#include <memory>

#include "aot/emit/pte_writer.h"
#include "aot/emit/testing/test_programs.h"
#include "aot/planning/greedy_planner.h"
#include "runtime/backend/backend_registry.h"
#include "runtime/executor/testing/test_kernels.h"
#include "runtime/kernel/prim_ops/prim_ops.h"
#include "runtime/module/module.h"

namespace ember::aot {
namespace {

using namespace emit_test;
using runtime::Error;
using runtime::EValue;

// A float[2,2] runtime tensor over caller storage.
struct HostTensor {
  explicit HostTensor(std::vector<float> v) : values(std::move(v)) {
    tensor =
        runtime::Tensor(runtime::ScalarType::Float, 2, sizes, dim_order, strides, values.data());
  }
  std::vector<float> values;
  int32_t sizes[2] = {2, 2};
  uint8_t dim_order[2] = {0, 1};
  int32_t strides[2] = {2, 1};
  runtime::Tensor tensor;
};

std::vector<float> read_floats(const EValue& value) {
  const runtime::Tensor& t = value.to_tensor();
  const float* p = t.const_data_ptr<float>();
  return std::vector<float>(p, p + t.numel());
}

// Multiplies its one input by a float: the 4-byte delegate blob, or, when the
// one compile spec is "named_scale", the named data entry its value names.
class ScaleBackend final : public runtime::BackendInterface {
 public:
  bool is_available() const override { return true; }
  runtime::Result<runtime::DelegateHandle*> init(
      runtime::BackendInitContext& context, runtime::FreeableBuffer* processed,
      runtime::Span<const runtime::CompileSpec> specs) const override {
    if (specs.size() != 1) return Error::InvalidProgram;
    float* scale = static_cast<float*>(context.runtime_allocator()->allocate(sizeof(float)));
    if (scale == nullptr) return Error::MemoryAllocationFailed;
    if (std::strcmp(specs[0].key, "named_scale") == 0) {
      if (context.named_data_map() == nullptr) return Error::NotFound;
      std::string_view key(static_cast<const char*>(specs[0].value), specs[0].nbytes);
      auto data = context.named_data_map()->get_data(key);
      if (!data.ok()) return data.error();
      if (data->size() != sizeof(float)) return Error::InvalidExternalData;
      std::memcpy(scale, data->data(), sizeof(float));
    } else {
      if (processed->size() != sizeof(float)) return Error::InvalidProgram;
      std::memcpy(scale, processed->data(), sizeof(float));
    }
    return static_cast<runtime::DelegateHandle*>(scale);
  }
  Error execute(runtime::BackendExecutionContext&, runtime::DelegateHandle* handle,
                runtime::Span<EValue*> args) const override {
    float scale = *static_cast<float*>(handle);
    const runtime::Tensor& in = args[0]->to_tensor();
    runtime::Tensor& out = args[1]->to_tensor();
    for (size_t i = 0; i < in.numel(); ++i) {
      out.mutable_data_ptr<float>()[i] = in.const_data_ptr<float>()[i] * scale;
    }
    return Error::Ok;
  }
};

class EmitRunTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(runtime::register_prim_ops(kernels_), Error::Ok);
    ASSERT_EQ(ember::testing::register_test_kernels(kernels_), Error::Ok);
    ASSERT_EQ(backends_.register_backend("ScaleBackend", &scale_backend_), Error::Ok);
  }

  std::unique_ptr<runtime::Module> load(const EmitProgram& program) {
    Error s = write_pte(program, &bytes_);
    EXPECT_EQ(s, Error::Ok) << format_error(s);
    auto module = std::make_unique<runtime::Module>(bytes_.data(), bytes_.size());
    runtime::Module::Options options;
    options.method.kernels = &kernels_;
    options.method.backends = &backends_;
    module->set_options(options);
    EXPECT_EQ(module->load(), Error::Ok);
    return module;
  }

  std::vector<float> run(runtime::Module& module, const std::string& method,
                         std::vector<HostTensor*> inputs, size_t output = 0) {
    std::vector<EValue> values;
    for (HostTensor* t : inputs) values.emplace_back(&t->tensor);
    auto outputs = module.execute(method, values);
    EXPECT_TRUE(outputs.ok()) << runtime::error_name(outputs.error());
    if (!outputs.ok() || outputs->size() <= output) return {};
    return read_floats((*outputs)[output]);
  }

  runtime::FixedKernelRegistry<128> kernels_;
  runtime::BackendRegistry backends_;
  ScaleBackend scale_backend_;
  std::vector<uint8_t> bytes_;
};

TEST_F(EmitRunTest, AddWithPlannedIo) {
  EmitProgram program;
  program.methods = {add_method()};
  auto module = load(program);
  HostTensor a({1, 2, 3, 4}), b({10, 20, 30, 40});
  EXPECT_EQ(run(*module, "forward", {&a, &b}), (std::vector<float>{11, 22, 33, 44}));
}

// forward(x) = x * w + w2, w = [2,2,2,2] (twice in `constants`, deduplicated),
// w2 = [0.5, 1, 1.5, 2]; "plus_w" (second method) = x + w.
TEST_F(EmitRunTest, ConstantsAndTwoMethods) {
  EmitProgram program;
  program.constants = {float_bytes({2, 2, 2, 2}), float_bytes({0.5f, 1, 1.5f, 2}),
                       float_bytes({2, 2, 2, 2})};
  EmitTensor w = float_2x2(-1), w2 = float_2x2(-1), w_again = float_2x2(-1);
  w.constant_index = 0;
  w2.constant_index = 1;
  w_again.constant_index = 2;
  EmitMethod forward;
  forward.name = "forward";
  forward.values = {EmitValue::of_tensor(float_2x2(0)),
                    EmitValue::of_tensor(w),
                    EmitValue::of_tensor(float_2x2(16)),
                    EmitValue::of_tensor(w2),
                    EmitValue::of_int(1),
                    EmitValue::of_tensor(float_2x2(32))};
  forward.inputs = {0};
  forward.outputs = {5};
  forward.operators = {{"aten::mul", "out"}, {"aten::add", "out"}};
  forward.instructions = {EmitInstruction::kernel(0, {0, 1, 2, 2}),
                          EmitInstruction::kernel(1, {2, 3, 4, 5, 5})};
  forward.non_const_buffer_sizes = {0, 48};
  EmitMethod plus_w = add_method("plus_w");
  plus_w.values[1] = EmitValue::of_tensor(w_again);
  plus_w.inputs = {0};
  program.methods = {forward, plus_w};
  auto module = load(program);
  HostTensor x({1, 2, 3, 4});
  EXPECT_EQ(run(*module, "forward", {&x}), (std::vector<float>{2.5f, 5, 7.5f, 10}));
  EXPECT_EQ(run(*module, "plus_w", {&x}), (std::vector<float>{3, 4, 5, 6}));
}

// The blob (float 3.0) goes to a segment; DelegateCall args = [input, output].
TEST_F(EmitRunTest, DelegateBlobFromSegment) {
  EmitProgram program;
  EmitMethod m;
  m.name = "forward";
  m.values = {EmitValue::of_tensor(float_2x2(0)), EmitValue::of_tensor(float_2x2(16))};
  m.inputs = {0};
  m.outputs = {1};
  m.delegates = {{"ScaleBackend", float_bytes({3}), {{"unused", {0}}}}};
  m.instructions = {EmitInstruction::delegate(0, {0, 1})};
  m.non_const_buffer_sizes = {0, 32};
  program.methods = {m};
  auto module = load(program);
  HostTensor x({1, -2, 0.5f, 4});
  EXPECT_EQ(run(*module, "forward", {&x}), (std::vector<float>{3, -6, 1.5f, 12}));
}

// An empty blob stays INLINE; the scale (-2) comes from named data "scale_w",
// found through the program's named_data segments.
TEST_F(EmitRunTest, DelegateReadsNamedData) {
  EmitProgram program;
  EmitMethod m;
  m.name = "forward";
  m.values = {EmitValue::of_tensor(float_2x2(0)), EmitValue::of_tensor(float_2x2(16))};
  m.inputs = {0};
  m.outputs = {1};
  m.delegates = {{"ScaleBackend", {}, {{"named_scale", {'s', 'c', 'a', 'l', 'e', '_', 'w'}}}}};
  m.instructions = {EmitInstruction::delegate(0, {0, 1})};
  m.non_const_buffer_sizes = {0, 32};
  program.methods = {m};
  program.named_data = {{"other", float_bytes({7}), 16}, {"scale_w", float_bytes({-2}), 64}};
  auto module = load(program);
  HostTensor x({1, -2, 0.5f, 4});
  EXPECT_EQ(run(*module, "forward", {&x}), (std::vector<float>{-2, 4, -1, -8}));
}

// state (planned, initial [100, 200, 300, 400] from mutable_data); out = x + state.
TEST_F(EmitRunTest, MutableInitialData) {
  EmitProgram program;
  program.mutable_data = {float_bytes({100, 200, 300, 400})};
  EmitMethod m = add_method();
  m.values[1].tensor.mutable_data_index = 0;
  m.values[1].tensor.fully_qualified_name = "state";
  m.inputs = {0};
  program.methods = {m};
  auto module = load(program);
  HostTensor x({1, 2, 3, 4});
  EXPECT_EQ(run(*module, "forward", {&x}), (std::vector<float>{101, 202, 303, 404}));
}

// t1 = a + b (instr 0); t2 = t1 * a (instr 1); out = t2 + b (instr 2).
// Lifetimes: a [0,1], b [0,2], t1 [0,1], t2 [1,2], out [2,2]. Greedy (all 16 B,
// ties by first_use): a@0, b@16, t1@32, t2@48; out meets only b and t2, so it
// takes the lowest 16-byte hole: a's bytes at 0. Expected for a = [1,2,3,4], b = [1,1,1,1]:
// t1 = [2,3,4,5], t2 = [2,6,12,20], out = [3,7,13,21].
TEST_F(EmitRunTest, ChainPlannedByGreedyPlanner) {
  std::vector<PlanTensor> tensors(5);
  const int32_t lifetimes[5][2] = {{0, 1}, {0, 2}, {0, 1}, {1, 2}, {2, 2}};
  for (size_t i = 0; i < 5; ++i) {
    tensors[i].size_bytes = 16;
    tensors[i].first_use = lifetimes[i][0];
    tensors[i].last_use = lifetimes[i][1];
  }
  tensors[0].is_input = tensors[1].is_input = true;
  tensors[4].is_output = true;
  auto plan = GreedyBySizePlanner().plan(tensors, PlanOptions());
  ASSERT_TRUE(plan.ok()) << format_error(plan.error());
  EXPECT_EQ(plan->arena_size, 64u);  // a, b, t1 and t2 overlap at instruction 1
  EXPECT_EQ(plan->lower_bound, 64u);
  EXPECT_EQ(plan->placements[3].offset, 48u);
  EXPECT_EQ(plan->placements[4].offset, 0u);
  EmitMethod m;
  m.name = "forward";
  std::vector<int32_t> tensor_value{0, 1, 3, 4, 5};
  for (size_t i = 0; i < 5; ++i) {
    if (i == 2) m.values.push_back(EmitValue::of_int(1));  // alpha, value 2
    m.values.push_back(EmitValue::of_tensor(float_2x2(int64_t(plan->placements[i].offset))));
  }
  m.inputs = {0, 1};
  m.outputs = {5};
  m.operators = {{"aten::add", "out"}, {"aten::mul", "out"}};
  m.instructions = {EmitInstruction::kernel(0, {0, 1, 2, 3, 3}),
                    EmitInstruction::kernel(1, {3, 0, 4, 4}),
                    EmitInstruction::kernel(0, {4, 1, 2, 5, 5})};
  m.non_const_buffer_sizes = plan->buffer_sizes;
  EmitProgram program;
  program.methods = {m};
  auto module = load(program);
  HostTensor a({1, 2, 3, 4}), b({1, 1, 1, 1});
  EXPECT_EQ(run(*module, "forward", {&a, &b}), (std::vector<float>{3, 7, 13, 21}));
}

}  // namespace
}  // namespace ember::aot
