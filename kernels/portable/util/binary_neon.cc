// util/binary_neon.h: float32 add/sub/mul/div with broadcasting, NEON, eight floats a step.
#include "kernels/portable/util/binary_neon.h"

#if defined(__aarch64__) && defined(__ARM_NEON)
#include <arm_neon.h>

#include "kernels/portable/util/neon_paths.h"
#include "kernels/portable/util/tensor_util.h"

namespace ember::kernels::portable {

namespace {

using runtime::ScalarType;
using runtime::Tensor;

// How an operand lines up with out (both row-major): out viewed as [outer, mid, inner]
// with the operand's element for (o, m, i) at m. Out's dims of size 1 belong anywhere;
// the others split into leading dims the operand broadcasts (outer), dims it has (mid)
// and trailing dims it broadcasts (inner). False when the operand does not fit that form.
bool line_up(const Tensor& t, const Tensor& out, int64_t* outer, int64_t* mid, int64_t* inner) {
  if (t.dim() > out.dim()) return false;
  const size_t off = out.dim() - t.dim();
  int phase = 0;  // 0: outer, 1: mid, 2: inner
  *outer = *mid = *inner = 1;
  for (size_t d = 0; d < out.dim(); ++d) {
    const int64_t os = out.size(d);
    const int64_t ts = d >= off ? t.size(d - off) : 1;
    if (os == 1) continue;
    if (ts == os) {
      if (phase == 2) return false;
      phase = 1;
      *mid *= os;
    } else if (ts == 1) {
      if (phase == 0) {
        *outer *= os;
      } else {
        phase = 2;
        *inner *= os;
      }
    } else {
      return false;
    }
  }
  if (phase == 0) {  // a single element: one run over everything
    *inner = *outer;
    *outer = 1;
  }
  return true;
}

template <BinaryF32Op Op>
inline float32x4_t vop(float32x4_t x, float32x4_t y, float32x4_t al) {
  if (Op == BinaryF32Op::Add) return vaddq_f32(x, vmulq_f32(al, y));
  if (Op == BinaryF32Op::Sub) return vsubq_f32(x, vmulq_f32(al, y));
  if (Op == BinaryF32Op::Mul) return vmulq_f32(x, y);
  return vdivq_f32(x, y);
}

template <BinaryF32Op Op>
inline float sop(float x, float y, float al) {
  if (Op == BinaryF32Op::Add) return x + al * y;
  if (Op == BinaryF32Op::Sub) return x - al * y;
  if (Op == BinaryF32Op::Mul) return x * y;
  return x / y;
}

// o[i] = op(x[i], y[i]); a stride of 0 repeats element 0 (a broadcast scalar).
template <BinaryF32Op Op, int XStep, int YStep>
void run(const float* x, const float* y, float* o, int64_t n, float al) {
  const float32x4_t alv = vdupq_n_f32(al);
  const float32x4_t xs = vdupq_n_f32(x[0]), ys = vdupq_n_f32(y[0]);
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const float32x4_t x0 = XStep ? vld1q_f32(x + i) : xs, x1 = XStep ? vld1q_f32(x + i + 4) : xs;
    const float32x4_t y0 = YStep ? vld1q_f32(y + i) : ys, y1 = YStep ? vld1q_f32(y + i + 4) : ys;
    vst1q_f32(o + i, vop<Op>(x0, y0, alv));
    vst1q_f32(o + i + 4, vop<Op>(x1, y1, alv));
  }
  for (; i + 4 <= n; i += 4) {
    vst1q_f32(o + i, vop<Op>(XStep ? vld1q_f32(x + i) : xs, YStep ? vld1q_f32(y + i) : ys, alv));
  }
  for (; i < n; ++i) o[i] = sop<Op>(x[XStep * i], y[YStep * i], al);
}

// out = op(a, b) where `full` (a when !swapped) has out's shape and the other operand
// lines up as [outer, mid, inner].
template <BinaryF32Op Op>
void apply(const float* full, const float* part, float* o, int64_t outer, int64_t mid,
           int64_t inner, bool swapped, float al) {
  if (inner == 1) {
    for (int64_t q = 0; q < outer; ++q) {
      const float* f = full + q * mid;
      if (swapped) {
        run<Op, 1, 1>(part, f, o + q * mid, mid, al);
      } else {
        run<Op, 1, 1>(f, part, o + q * mid, mid, al);
      }
    }
    return;
  }
  for (int64_t q = 0; q < outer * mid; ++q) {
    const float* f = full + q * inner;
    const float* p = part + q % mid;
    if (swapped) {
      run<Op, 0, 1>(p, f, o + q * inner, inner, al);
    } else {
      run<Op, 1, 0>(f, p, o + q * inner, inner, al);
    }
  }
}

}  // namespace

bool binary_f32_neon(BinaryF32Op op, float alpha, const Tensor& a, const Tensor& b,
                     Tensor& out) {
  if (a.scalar_type() != ScalarType::Float || b.scalar_type() != ScalarType::Float ||
      out.scalar_type() != ScalarType::Float || !is_row_major(a) || !is_row_major(b) ||
      !is_row_major(out)) {
    return false;
  }
  const int64_t n = int64_t(out.numel());
  if (n == 0) return false;
  int64_t ao, am, ai, bo, bm, bi;
  if (!line_up(a, out, &ao, &am, &ai) || !line_up(b, out, &bo, &bm, &bi)) return false;
  const bool a_full = am == n, b_full = bm == n;
  if (!a_full && !b_full) return false;  // both broadcast: the generic loops
  const bool swapped = !a_full;
  const float* full = (swapped ? b : a).const_data_ptr<float>();
  const float* part = (swapped ? a : b).const_data_ptr<float>();
  const int64_t outer = swapped ? ao : bo, mid = swapped ? am : bm, inner = swapped ? ai : bi;
  float* o = out.mutable_data_ptr<float>();
  switch (op) {
    case BinaryF32Op::Add:
      apply<BinaryF32Op::Add>(full, part, o, outer, mid, inner, swapped, alpha);
      break;
    case BinaryF32Op::Sub:
      apply<BinaryF32Op::Sub>(full, part, o, outer, mid, inner, swapped, alpha);
      break;
    case BinaryF32Op::Mul:
      apply<BinaryF32Op::Mul>(full, part, o, outer, mid, inner, swapped, alpha);
      break;
    case BinaryF32Op::Div:
      apply<BinaryF32Op::Div>(full, part, o, outer, mid, inner, swapped, alpha);
      break;
  }
  count_neon_path(NeonPath::Binary);
  return true;
}

}  // namespace ember::kernels::portable
#endif
