// Scalar prim ops: every one reads Int/Double/Bool arguments and writes its
// result into the return slot with the slot's kind.
#include "runtime/kernel/prim_ops/prim_ops.h"

#include <cmath>

#include "runtime/kernel/prim_ops/prim_tensor_ops.h"

namespace ember::runtime {
namespace {

// Checks arity and that args[0..inputs) are scalars and the last is a scalar or None.
bool scalar_args(KernelRuntimeContext& ctx, Span<EValue*> args, size_t inputs, const char* op) {
  if (args.size() != inputs + 1) {
    ctx.fail(Error::InvalidProgram, "%s takes %zu args, got %zu", op, inputs + 1, args.size());
    return false;
  }
  for (size_t i = 0; i < inputs; ++i) {
    if (!args[i]->is_scalar()) {
      ctx.fail(Error::InvalidType, "%s: arg %zu is a %s, not a scalar", op, i, tag_name(args[i]->tag()));
      return false;
    }
  }
  const EValue& out = *args[inputs];
  if (!out.is_scalar() && !out.is_none()) {
    ctx.fail(Error::InvalidType, "%s: return slot is a %s", op, tag_name(out.tag()));
    return false;
  }
  return true;
}

// Stores `v` into `out`, keeping out's kind (None takes v's kind).
void store(EValue* out, Scalar v) {
  switch (out->tag()) {
    case Tag::Int: *out = EValue(v.to_int()); return;
    case Tag::Double: *out = EValue(v.to_double()); return;
    case Tag::Bool: *out = EValue(v.to_bool()); return;
    default:
      *out = v.is_floating_point() ? EValue(v.to_double())
             : v.is_boolean()      ? EValue(v.to_bool())
                                   : EValue(v.to_int());
  }
}

bool both_int(const EValue& a, const EValue& b) { return !a.is_double() && !b.is_double(); }

template <typename IntOp, typename DoubleOp>
void binary(KernelRuntimeContext& ctx, Span<EValue*> args, const char* name, IntOp int_op,
            DoubleOp double_op) {
  if (!scalar_args(ctx, args, 2, name)) return;
  const Scalar a = args[0]->to_scalar(), b = args[1]->to_scalar();
  if (both_int(*args[0], *args[1])) {
    store(args[2], Scalar(int_op(a.to_int(), b.to_int())));
  } else {
    store(args[2], Scalar(double_op(a.to_double(), b.to_double())));
  }
}

template <typename Cmp>
void compare(KernelRuntimeContext& ctx, Span<EValue*> args, const char* name, Cmp cmp) {
  if (!scalar_args(ctx, args, 2, name)) return;
  const Scalar a = args[0]->to_scalar(), b = args[1]->to_scalar();
  const bool r = both_int(*args[0], *args[1]) ? cmp(a.to_int(), b.to_int())
                                              : cmp(a.to_double(), b.to_double());
  store(args[2], Scalar(r));
}

int64_t floor_div(KernelRuntimeContext& ctx, int64_t a, int64_t b) {
  if (b == 0) {
    ctx.fail(Error::InvalidArgument, "integer division by zero");
    return 0;
  }
  if (a == INT64_MIN && b == -1) return INT64_MIN;
  const int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

int64_t py_mod(KernelRuntimeContext& ctx, int64_t a, int64_t b) {
  if (b == 0) {
    ctx.fail(Error::InvalidArgument, "integer modulo by zero");
    return 0;
  }
  if (b == -1) return 0;
  const int64_t r = a % b;
  return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r;
}

void add(KernelRuntimeContext& c, Span<EValue*> a) {
  binary(c, a, "add.Scalar", [](int64_t x, int64_t y) { return int64_t(uint64_t(x) + uint64_t(y)); },
         [](double x, double y) { return x + y; });
}
void sub(KernelRuntimeContext& c, Span<EValue*> a) {
  binary(c, a, "sub.Scalar", [](int64_t x, int64_t y) { return int64_t(uint64_t(x) - uint64_t(y)); },
         [](double x, double y) { return x - y; });
}
void mul(KernelRuntimeContext& c, Span<EValue*> a) {
  binary(c, a, "mul.Scalar", [](int64_t x, int64_t y) { return int64_t(uint64_t(x) * uint64_t(y)); },
         [](double x, double y) { return x * y; });
}
void floordiv(KernelRuntimeContext& c, Span<EValue*> a) {
  binary(c, a, "floordiv", [&c](int64_t x, int64_t y) { return floor_div(c, x, y); },
         [](double x, double y) { return std::floor(x / y); });
}
void truediv(KernelRuntimeContext& c, Span<EValue*> a) {
  if (!scalar_args(c, a, 2, "truediv.Scalar")) return;
  store(a[2], Scalar(a[0]->to_scalar().to_double() / a[1]->to_scalar().to_double()));
}
void mod(KernelRuntimeContext& c, Span<EValue*> a) {
  binary(c, a, "mod", [&c](int64_t x, int64_t y) { return py_mod(c, x, y); },
         [](double x, double y) {
           const double r = std::fmod(x, y);
           return (r != 0 && ((r < 0) != (y < 0))) ? r + y : r;
         });
}
void sym_max(KernelRuntimeContext& c, Span<EValue*> a) {
  binary(c, a, "sym_max", [](int64_t x, int64_t y) { return x > y ? x : y; },
         [](double x, double y) { return std::fmax(x, y); });
}
void sym_min(KernelRuntimeContext& c, Span<EValue*> a) {
  binary(c, a, "sym_min", [](int64_t x, int64_t y) { return x < y ? x : y; },
         [](double x, double y) { return std::fmin(x, y); });
}
void eq(KernelRuntimeContext& c, Span<EValue*> a) { compare(c, a, "eq", [](auto x, auto y) { return x == y; }); }
void gt(KernelRuntimeContext& c, Span<EValue*> a) { compare(c, a, "gt", [](auto x, auto y) { return x > y; }); }
void lt(KernelRuntimeContext& c, Span<EValue*> a) { compare(c, a, "lt", [](auto x, auto y) { return x < y; }); }
void ge(KernelRuntimeContext& c, Span<EValue*> a) { compare(c, a, "ge", [](auto x, auto y) { return x >= y; }); }
void le(KernelRuntimeContext& c, Span<EValue*> a) { compare(c, a, "le", [](auto x, auto y) { return x <= y; }); }

template <typename IntOp, typename DoubleOp>
void unary(KernelRuntimeContext& ctx, Span<EValue*> args, const char* name, IntOp int_op,
           DoubleOp double_op) {
  if (!scalar_args(ctx, args, 1, name)) return;
  const Scalar v = args[0]->to_scalar();
  if (args[0]->is_double()) {
    store(args[1], double_op(v.to_double()));
  } else {
    store(args[1], int_op(v.to_int()));
  }
}

void neg(KernelRuntimeContext& c, Span<EValue*> a) {
  unary(c, a, "neg", [](int64_t x) { return Scalar(int64_t(0 - uint64_t(x))); }, [](double x) { return Scalar(-x); });
}
void sym_float(KernelRuntimeContext& c, Span<EValue*> a) {
  unary(c, a, "sym_float", [](int64_t x) { return Scalar(double(x)); }, [](double x) { return Scalar(x); });
}
void sym_int(KernelRuntimeContext& c, Span<EValue*> a) {
  unary(c, a, "sym_int", [](int64_t x) { return Scalar(x); }, [](double x) { return Scalar(int64_t(std::trunc(x))); });
}
void sym_not(KernelRuntimeContext& c, Span<EValue*> a) {
  if (!scalar_args(c, a, 1, "sym_not")) return;
  store(a[1], Scalar(!a[0]->to_scalar().to_bool()));
}
void ceil_op(KernelRuntimeContext& c, Span<EValue*> a) {
  unary(c, a, "ceil", [](int64_t x) { return Scalar(x); }, [](double x) { return Scalar(int64_t(std::ceil(x))); });
}
void round_op(KernelRuntimeContext& c, Span<EValue*> a) {
  unary(c, a, "round", [](int64_t x) { return Scalar(x); },
        [](double x) { return Scalar(int64_t(std::nearbyint(x))); });
}
void trunc_op(KernelRuntimeContext& c, Span<EValue*> a) {
  unary(c, a, "trunc", [](int64_t x) { return Scalar(x); }, [](double x) { return Scalar(int64_t(std::trunc(x))); });
}
void sym_ite(KernelRuntimeContext& c, Span<EValue*> a) {
  if (!scalar_args(c, a, 3, "sym_ite")) return;
  store(a[3], a[0]->to_scalar().to_bool() ? a[1]->to_scalar() : a[2]->to_scalar());
}

const Kernel kPrimKernels[] = {
    {"aten::sym_size.int", sym_size},
    {"aten::sym_numel", sym_numel},
    {"aten::_local_scalar_dense", local_scalar_dense},
    {"executorch_prim::sym_max.Scalar", sym_max},
    {"executorch_prim::sym_min.Scalar", sym_min},
    {"executorch_prim::sym_float.Scalar", sym_float},
    {"executorch_prim::sym_int.Scalar", sym_int},
    {"executorch_prim::sym_not.Scalar", sym_not},
    {"executorch_prim::sym_ite.Scalar", sym_ite},
    {"executorch_prim::add.Scalar", add},
    {"executorch_prim::sub.Scalar", sub},
    {"executorch_prim::mul.Scalar", mul},
    {"executorch_prim::floordiv.Scalar", floordiv},
    {"executorch_prim::truediv.Scalar", truediv},
    {"executorch_prim::neg.Scalar", neg},
    {"executorch_prim::floordiv.int", floordiv},
    {"executorch_prim::mod.int", mod},
    {"executorch_prim::mod.Scalar", mod},
    {"executorch_prim::eq.Scalar", eq},
    {"executorch_prim::gt.Scalar", gt},
    {"executorch_prim::lt.Scalar", lt},
    {"executorch_prim::ge.Scalar", ge},
    {"executorch_prim::le.Scalar", le},
    {"executorch_prim::ceil.Scalar", ceil_op},
    {"executorch_prim::round.Scalar", round_op},
    {"executorch_prim::trunc.Scalar", trunc_op},
    {"executorch_prim::et_copy_index.tensor", et_copy_index},
    {"executorch_prim::et_view.default", et_view},
};

}  // namespace

Span<const Kernel> prim_kernels() { return {kPrimKernels, sizeof(kPrimKernels) / sizeof(kPrimKernels[0])}; }

Error register_prim_ops(KernelRegistry& registry) { return registry.register_kernels(prim_kernels()); }

}  // namespace ember::runtime
