// run_program (see interpreter.h): argument binding, then one loop per op class whose
// op-specific part is a small function.
#include "backends/demo/runtime/interpreter.h"

#include <cmath>

#include "runtime/core/diagnostics.h"
#include "runtime/platform/log.h"

namespace ember::backends::demo {
namespace {

using runtime::Error;
using runtime::EValue;
using runtime::fail;
using runtime::Tensor;

bool shape_matches(const Tensor& t, const DemoSlot& slot) {
  if (t.dim() != slot.rank) return false;
  for (size_t d = 0; d < slot.rank; ++d) {
    if (t.size(d) != slot.sizes[d]) return false;
  }
  return true;
}

Error bind(const DemoProgram& program, size_t i, EValue* value) {
  const DemoSlot& slot = program.slots[i];
  const bool output = slot.kind == SlotKind::Output;
  if (value == nullptr || !value->is_tensor()) {
    return fail(Error::InvalidType, "DemoBackend: argument %zu is %s, expected a float32 tensor",
                i, value == nullptr ? "null" : runtime::tag_name(value->tag()));
  }
  Tensor& t = value->to_tensor();
  if (t.scalar_type() != runtime::ScalarType::Float) {
    return fail(Error::InvalidType, "DemoBackend: argument %zu has dtype code %d, expected float32",
                i, static_cast<int>(t.scalar_type()));
  }
  if (!shape_matches(t, slot)) {
    if (output) {
      const Error e = t.resize({slot.sizes, slot.rank});
      if (e != Error::Ok) return runtime::annotate(e, "DemoBackend: resizing output argument %zu", i);
    } else {
      char have[96];
      char want[96];
      return fail(Error::InvalidArgument, "DemoBackend: input %zu is %s, the bytecode expects %s",
                  i, runtime::describe(t, have, sizeof(have)),
                  runtime::describe_shape(runtime::ScalarType::Float, {slot.sizes, slot.rank},
                                          want, sizeof(want)));
    }
  }
  if (!t.is_contiguous_dim_order()) {
    return fail(Error::InvalidArgument, "DemoBackend: argument %zu is not contiguous", i);
  }
  program.data[i] = t.mutable_data_ptr<float>();
  return Error::Ok;
}

float apply_binary(uint8_t op, float x, float y) {
  switch (static_cast<OpCode>(op)) {
    case OpCode::Add: return x + y;
    case OpCode::Sub: return x - y;
    case OpCode::Mul: return x * y;
    case OpCode::Div: return x / y;
    case OpCode::Maximum: return (std::isnan(x) || x > y) ? x : y;
    case OpCode::Minimum: return (std::isnan(x) || x < y) ? x : y;
    default: return 0.f;  // unreachable: verified at load
  }
}

float apply_unary(uint8_t op, float x) {
  switch (static_cast<OpCode>(op)) {
    case OpCode::Copy: return x;
    case OpCode::Neg: return -x;
    case OpCode::Relu: return x > 0.f ? x : (std::isnan(x) ? x : 0.f);
    case OpCode::Sigmoid: return 1.f / (1.f + std::exp(-x));
    case OpCode::Sin: return std::sin(x);
    case OpCode::Cos: return std::cos(x);
    case OpCode::Tanh: return std::tanh(x);
    case OpCode::Exp: return std::exp(x);
    default: return 0.f;  // unreachable: verified at load
  }
}

void run_binary(const DemoProgram& p, const DemoInstruction& in) {
  const size_t n = p.slots[in.dst].numel;
  const float* a = p.data[in.a];
  const float* b = p.data[in.b];
  const size_t sa = p.slots[in.a].numel == 1 ? 0 : 1;
  const size_t sb = p.slots[in.b].numel == 1 ? 0 : 1;
  float* out = p.data[in.dst];
  for (size_t i = 0; i < n; ++i) out[i] = apply_binary(in.op, a[i * sa], b[i * sb]);
}

void run_unary(const DemoProgram& p, const DemoInstruction& in) {
  const size_t n = p.slots[in.dst].numel;
  const float* a = p.data[in.a];
  float* out = p.data[in.dst];
  for (size_t i = 0; i < n; ++i) out[i] = apply_unary(in.op, a[i]);
}

void run_mm(const DemoProgram& p, const DemoInstruction& in) {
  const size_t m = static_cast<size_t>(p.slots[in.a].sizes[0]);
  const size_t k = static_cast<size_t>(p.slots[in.a].sizes[1]);
  const size_t n = static_cast<size_t>(p.slots[in.b].sizes[1]);
  const float* a = p.data[in.a];
  const float* b = p.data[in.b];
  float* out = p.data[in.dst];
  for (size_t i = 0; i < m; ++i) {
    for (size_t j = 0; j < n; ++j) {
      float acc = 0.f;
      for (size_t q = 0; q < k; ++q) acc += a[i * k + q] * b[q * n + j];
      out[i * n + j] = acc;
    }
  }
}

}  // namespace

Error run_program(const DemoProgram& program, runtime::Span<EValue*> args, runtime::DelegateProfiler* profiler,
                  size_t instruction) {
  const size_t io = size_t{program.num_inputs} + program.num_outputs;
  if (args.size() != io) {
    return fail(Error::InvalidArgument,
                "DemoBackend: %zu arguments, the bytecode has %u inputs + %u outputs",
                args.size(), program.num_inputs, program.num_outputs);
  }
  for (size_t i = 0; i < io; ++i) EMBER_TRY(bind(program, i, args[i]));
  for (size_t k = 0; k < program.num_instructions; ++k) {
    const DemoInstruction& in = program.instructions[k];
    const uint64_t start = profiler != nullptr ? ember_pal_now_ns() : 0;
    switch (op_class(in.op)) {
      case OpClass::Binary: run_binary(program, in); break;
      case OpClass::Matmul: run_mm(program, in); break;
      case OpClass::Unary: run_unary(program, in); break;
      case OpClass::Invalid: return fail(Error::Internal, "DemoBackend: unverified op code");
    }
    if (profiler != nullptr) {
      profiler->record(instruction, uint32_t(k), op_name(in.op), start, ember_pal_now_ns());
    }
  }
  return Error::Ok;
}

}  // namespace ember::backends::demo
