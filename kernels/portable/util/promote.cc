// Type promotion rules; see promote.h.
#include "kernels/portable/util/promote.h"

namespace ember::kernels::portable {

namespace {

bool is_float(ScalarType t) { return runtime::is_floating_point(t); }

int int_rank(ScalarType t) {
  switch (t) {
    case ScalarType::Char: return 1;
    case ScalarType::Short: return 2;
    case ScalarType::Int: return 3;
    case ScalarType::Long: return 4;
    default: return 0;
  }
}

ScalarType signed_of_rank(int r) {
  switch (r) {
    case 1: return ScalarType::Char;
    case 2: return ScalarType::Short;
    case 3: return ScalarType::Int;
    default: return ScalarType::Long;
  }
}

// Running state of result_type over several operands.
struct State {
  ScalarType dim = ScalarType::Bool;
  bool has_dim = false;
  ScalarType zero = ScalarType::Bool;
  bool has_zero = false;
  ScalarType wrapped = ScalarType::Bool;
  bool has_wrapped = false;

  void add(const Tensor& t) {
    if (t.dim() > 0) {
      dim = has_dim ? promote_types(dim, t.scalar_type()) : t.scalar_type();
      has_dim = true;
    } else {
      zero = has_zero ? promote_types(zero, t.scalar_type()) : t.scalar_type();
      has_zero = true;
    }
  }
  void add(const Scalar& s) {
    wrapped = has_wrapped ? promote_types(wrapped, scalar_dtype(s)) : scalar_dtype(s);
    has_wrapped = true;
  }
};

// ATen's combine rule: keep `higher` unless `lower` has a higher category.
ScalarType combine(bool has_higher, ScalarType higher, bool has_lower, ScalarType lower,
                   bool* has_out) {
  *has_out = has_higher || has_lower;
  if (!has_higher) return lower;
  if (!has_lower) return higher;
  if (is_float(higher)) return higher;
  if (higher == ScalarType::Bool || is_float(lower)) return promote_types(higher, lower);
  return higher;
}

ScalarType finish(const State& s) {
  bool has_low = false, has_all = false;
  const ScalarType low = combine(s.has_zero, s.zero, s.has_wrapped, s.wrapped, &has_low);
  return combine(s.has_dim, s.dim, has_low, low, &has_all);
}

}  // namespace

int category(ScalarType t) {
  if (t == ScalarType::Bool) return 0;
  return is_float(t) ? 2 : 1;
}

ScalarType promote_types(ScalarType a, ScalarType b) {
  if (a == b) return a;
  if (a == ScalarType::Bool) return b;
  if (b == ScalarType::Bool) return a;
  const bool fa = is_float(a), fb = is_float(b);
  if (fa && fb) {
    if (a == ScalarType::Double || b == ScalarType::Double) return ScalarType::Double;
    return ScalarType::Float;  // float with half/bfloat16, or half with bfloat16
  }
  if (fa) return a;
  if (fb) return b;
  // Both integral.
  if (a == ScalarType::Byte || b == ScalarType::Byte) {
    const ScalarType other = a == ScalarType::Byte ? b : a;
    if (other == ScalarType::Char) return ScalarType::Short;
    return other;
  }
  return signed_of_rank(int_rank(a) > int_rank(b) ? int_rank(a) : int_rank(b));
}

ScalarType scalar_dtype(const Scalar& s) {
  if (s.is_boolean()) return ScalarType::Bool;
  return s.is_integral() ? ScalarType::Long : ScalarType::Float;
}

ScalarType result_type_general(const Tensor& a, const Tensor& b) {
  State s;
  s.add(a);
  s.add(b);
  return finish(s);
}

ScalarType result_type_general(const Tensor& a, const Scalar& b) {
  State s;
  s.add(a);
  s.add(b);
  return finish(s);
}

ScalarType result_type(const Tensor& a, const Scalar& b, const Scalar& c) {
  State s;
  s.add(a);
  s.add(b);
  s.add(c);
  return finish(s);
}

ScalarType result_type(const Tensor& a, const Tensor& b, const Tensor& c) {
  State s;
  s.add(a);
  s.add(b);
  s.add(c);
  return finish(s);
}

bool can_cast(ScalarType from, ScalarType to) {
  if (is_float(from) && runtime::is_integral(to, true)) return false;
  if (from != ScalarType::Bool && to == ScalarType::Bool) return false;
  return true;
}

}  // namespace ember::kernels::portable
