// Matrix products; see matmul.h.
#include "kernels/portable/ops/matmul.h"

#include "kernels/portable/util/binary.h"
#include "kernels/portable/util/copy.h"
#include "kernels/portable/util/gemm.h"
#include "kernels/portable/util/math.h"

namespace ember::kernels::portable {

namespace {

using runtime::Error;

// One [m, k] x [k, n] product into a [m, n] matrix, all given by strides.
struct MatView {
  const void* a;
  int64_t a_rs, a_cs;
  const void* b;
  int64_t b_rs, b_cs;
  void* c;
  int64_t c_rs, c_cs;
};

// Products up to this many multiply-adds take the plain loop below even in float: sgemm's
// packing and dispatch cost more than the arithmetic (upstream's xor.pte: 2x10x1).
constexpr int64_t kTinyProduct = 256;

// Float products of at most kTinyProduct multiply-adds (and strided-C ones sgemm doesn't take),
// every element of C summed over p in order from 0.0f like the plain loop. No packing, no
// scratch: for the few-element products of small models the set-up would cost more than the
// sums. Outer products (k == 1) are one multiply per element; kPlain (alpha 1, beta 0) with
// unit-stride rows of B and C at least 8 long accumulates straight into C's row (a loop the
// compiler vectorises); everything else is one dot product per element.
template <bool kPlain>
void store_tiny(float& dst, float acc, float alpha, float beta) {
  if (kPlain) {
    dst = acc;
  } else {
    float r = alpha * acc;
    if (beta != 0.0f) r += beta * dst;
    dst = r;
  }
}

template <bool kPlain>
void matmul_tiny_f32(int64_t m, int64_t n, int64_t k, const MatView& v, float alpha, float beta) {
  const float* a = static_cast<const float*>(v.a);
  const float* b = static_cast<const float*>(v.b);
  float* c = static_cast<float*>(v.c);
  if (k == 1) {
    for (int64_t i = 0; i < m; ++i) {
      const float av = a[i * v.a_rs];
      float* crow = c + i * v.c_rs;
      for (int64_t j = 0; j < n; ++j) {
        store_tiny<kPlain>(crow[j * v.c_cs], 0.0f + av * b[j * v.b_cs], alpha, beta);
      }
    }
    return;
  }
  if (kPlain && v.b_cs == 1 && v.c_cs == 1 && n >= 8 && k > 0) {
    for (int64_t i = 0; i < m; ++i) {
      const float* arow = a + i * v.a_rs;
      float* crow = c + i * v.c_rs;
      const float a0 = arow[0];
      for (int64_t j = 0; j < n; ++j) crow[j] = 0.0f + a0 * b[j];
      for (int64_t p = 1; p < k; ++p) {
        const float av = arow[p * v.a_cs];
        const float* brow = b + p * v.b_rs;
        for (int64_t j = 0; j < n; ++j) crow[j] += av * brow[j];
      }
    }
    return;
  }
  for (int64_t i = 0; i < m; ++i) {
    const float* arow = a + i * v.a_rs;
    float* crow = c + i * v.c_rs;
    for (int64_t j = 0; j < n; ++j) {
      const float* bcol = b + j * v.b_cs;
      float acc = 0.0f;
      for (int64_t p = 0; p < k; ++p) acc += arow[p * v.a_cs] * bcol[p * v.b_rs];
      store_tiny<kPlain>(crow[j * v.c_cs], acc, alpha, beta);
    }
  }
}

// c = alpha * a @ b + beta * c (beta == 0: c not read).
void matmul_one(runtime::ScalarType type, int64_t m, int64_t n, int64_t k, const MatView& v,
                double alpha, double beta, runtime::ThreadPool* pool) {
  if (type == runtime::ScalarType::Float && (v.c_cs == 1 || v.c_rs == 1) &&
      m * n * k > kTinyProduct) {
    GemmArgs g;
    const bool transposed = v.c_cs != 1;  // compute C^T = B^T A^T
    g.m = transposed ? n : m;
    g.n = transposed ? m : n;
    g.k = k;
    g.a = static_cast<const float*>(transposed ? v.b : v.a);
    g.a_rs = transposed ? v.b_cs : v.a_rs;
    g.a_cs = transposed ? v.b_rs : v.a_cs;
    g.b = static_cast<const float*>(transposed ? v.a : v.b);
    g.b_rs = transposed ? v.a_cs : v.b_rs;
    g.b_cs = transposed ? v.a_rs : v.b_cs;
    g.c = static_cast<float*>(v.c);
    g.c_rs = transposed ? v.c_cs : v.c_rs;
    g.alpha = float(alpha);
    g.beta = float(beta);
    sgemm(g, pool);
    return;
  }
  if (type == runtime::ScalarType::Float) {
    if (alpha == 1.0 && beta == 0.0) {
      matmul_tiny_f32<true>(m, n, k, v, 1.0f, 0.0f);
    } else {
      matmul_tiny_f32<false>(m, n, k, v, float(alpha), float(beta));
    }
    return;
  }
  dispatch<kReal>(type, [&](auto tag) {
    using S = typename decltype(tag)::type;
    using C = compute_t<S>;
    const S* a = static_cast<const S*>(v.a);
    const S* b = static_cast<const S*>(v.b);
    S* c = static_cast<S*>(v.c);
    const C al = C(alpha), be = C(beta);
    for (int64_t i = 0; i < m; ++i) {
      for (int64_t j = 0; j < n; ++j) {
        C acc = C(0);
        for (int64_t p = 0; p < k; ++p) {
          acc = add_wrap(acc, mul_wrap(cast<C>(a[i * v.a_rs + p * v.a_cs]),
                                       cast<C>(b[p * v.b_rs + j * v.b_cs])));
        }
        S& dst = c[i * v.c_rs + j * v.c_cs];
        C r = mul_wrap(al, acc);
        if (beta != 0) r = add_wrap(r, mul_wrap(be, cast<C>(dst)));
        dst = cast<S>(r);
      }
    }
  });
}

bool check_mm_types(KernelRuntimeContext& ctx, const Tensor& a, const Tensor& b, const Tensor& out,
                    const char* op) {
  if (a.scalar_type() != b.scalar_type() || out.scalar_type() != a.scalar_type()) {
    ctx.fail(Error::InvalidType, "%s: dtypes must match: %s, %s, out %s", op,
             runtime::scalar_type_name(a.scalar_type()), runtime::scalar_type_name(b.scalar_type()),
             runtime::scalar_type_name(out.scalar_type()));
    return false;
  }
  if (a.scalar_type() == runtime::ScalarType::Bool) {
    fail_dtype(ctx, a, op, "input");
    return false;
  }
  return true;
}

Tensor& mm_impl(KernelRuntimeContext& ctx, const Tensor& a, const Tensor& b, Tensor& out,
                double alpha, double beta, const char* op) {
  if (!check_rank(ctx, a, 2, op, "mat1") || !check_rank(ctx, b, 2, op, "mat2")) return out;
  if (a.size(1) != b.size(0)) {
    ctx.fail(Error::InvalidArgument, "%s: shapes [%d, %d] and [%d, %d] can't be multiplied", op,
             a.size(0), a.size(1), b.size(0), b.size(1));
    return out;
  }
  if (!check_mm_types(ctx, a, b, out, op)) return out;
  const SizesType shape[2] = {a.size(0), b.size(1)};
  if (beta == 0 && !resize_out(ctx, out, {shape, 2}, op)) return out;
  const MatView v{a.const_data_ptr(), a.strides()[0], a.strides()[1],
                  b.const_data_ptr(), b.strides()[0], b.strides()[1],
                  out.mutable_data_ptr(), out.strides()[0], out.strides()[1]};
  matmul_one(a.scalar_type(), a.size(0), b.size(1), a.size(1), v, alpha, beta,
             ctx.thread_pool());
  return out;
}

}  // namespace

Tensor& mm_out(KernelRuntimeContext& ctx, const Tensor& a, const Tensor& b, Tensor& out) {
  return mm_impl(ctx, a, b, out, 1.0, 0.0, "mm.out");
}

Tensor& bmm_out(KernelRuntimeContext& ctx, const Tensor& a, const Tensor& b, Tensor& out) {
  const char* op = "bmm.out";
  if (!check_rank(ctx, a, 3, op, "self") || !check_rank(ctx, b, 3, op, "mat2")) return out;
  if (a.size(0) != b.size(0) || a.size(2) != b.size(1)) {
    ctx.fail(Error::InvalidArgument, "%s: shapes [%d, %d, %d] and [%d, %d, %d] don't match", op,
             a.size(0), a.size(1), a.size(2), b.size(0), b.size(1), b.size(2));
    return out;
  }
  if (!check_mm_types(ctx, a, b, out, op)) return out;
  const SizesType shape[3] = {a.size(0), a.size(1), b.size(2)};
  if (!resize_out(ctx, out, {shape, 3}, op)) return out;
  const size_t es = a.element_size();
  for (int64_t i = 0; i < a.size(0); ++i) {
    const MatView v{static_cast<const char*>(a.const_data_ptr()) + i * a.strides()[0] * es,
                    a.strides()[1], a.strides()[2],
                    static_cast<const char*>(b.const_data_ptr()) + i * b.strides()[0] * es,
                    b.strides()[1], b.strides()[2],
                    static_cast<char*>(out.mutable_data_ptr()) + i * out.strides()[0] * es,
                    out.strides()[1], out.strides()[2]};
    matmul_one(a.scalar_type(), a.size(1), b.size(2), a.size(2), v, 1.0, 0.0, ctx.thread_pool());
  }
  return out;
}

Tensor& addmm_out(KernelRuntimeContext& ctx, const Tensor& self, const Tensor& a,
                  const Tensor& b, const Scalar& beta, const Scalar& alpha, Tensor& out) {
  const char* op = "addmm.out";
  if (!check_rank(ctx, a, 2, op, "mat1") || !check_rank(ctx, b, 2, op, "mat2")) return out;
  if (!check_mm_types(ctx, a, b, out, op)) return out;
  if (self.scalar_type() != a.scalar_type()) {
    fail_dtype(ctx, self, op, "self (must match mat1)");
    return out;
  }
  const SizesType shape[2] = {a.size(0), b.size(1)};
  Shape bshape;
  if (!broadcast_shape(ctx, self.sizes(), {shape, 2}, &bshape, op)) return out;
  if (bshape.dim != 2 || bshape.sizes[0] != shape[0] || bshape.sizes[1] != shape[1]) {
    ctx.fail(Error::InvalidArgument, "%s: self doesn't broadcast to [%d, %d]", op, shape[0],
             shape[1]);
    return out;
  }
  if (!resize_out(ctx, out, {shape, 2}, op)) return out;
  const double be = beta.to_double();
  if (be != 0) copy_into(self, out);  // out = self (broadcast), then out = beta*out + alpha*a@b
  return mm_impl(ctx, a, b, out, alpha.to_double(), be, op);
}

Tensor& linear_out(KernelRuntimeContext& ctx, const Tensor& input, const Tensor& weight,
                   const Tensor* bias, Tensor& out) {
  const char* op = "linear.out";
  if (input.dim() < 1) {
    ctx.fail(Error::InvalidArgument, "%s: input must have at least one dimension", op);
    return out;
  }
  if (!check_rank(ctx, weight, 2, op, "weight")) return out;
  const int64_t k = input.size(input.dim() - 1);
  const int64_t n = weight.size(0);
  if (weight.size(1) != k) {
    ctx.fail(Error::InvalidArgument, "%s: input's last dim %lld != weight's [%lld, %d]", op,
             static_cast<long long>(k), static_cast<long long>(n), weight.size(1));
    return out;
  }
  if (!check_mm_types(ctx, input, weight, out, op)) return out;
  if (input.scalar_type() != runtime::ScalarType::Float) {
    fail_dtype(ctx, input, op, "input (float32 only)");
    return out;
  }
  if (bias != nullptr && (bias->scalar_type() != runtime::ScalarType::Float ||
                          bias->dim() != 1 || bias->size(0) != n)) {
    ctx.fail(Error::InvalidArgument, "%s: bias must be float32 [%lld]", op,
             static_cast<long long>(n));
    return out;
  }
  if (!is_row_major(input) || !is_row_major(weight)) {
    ctx.fail(Error::NotSupported, "%s: input and weight must be contiguous", op);
    return out;
  }
  SizesType shape[kMaxTensorDims];
  for (size_t d = 0; d + 1 < input.dim(); ++d) shape[d] = input.size(d);
  shape[input.dim() - 1] = SizesType(n);
  if (!resize_out(ctx, out, {shape, input.dim()}, op)) return out;
  const int64_t m = k == 0 ? 0 : int64_t(input.numel()) / k;
  const float* x = input.const_data_ptr<float>();
  const float* w = weight.const_data_ptr<float>();
  float* y = out.mutable_data_ptr<float>();
  if (m == 0 || n == 0) return out;
  if (k == 0) {
    for (int64_t i = 0; i < m; ++i) {
      for (int64_t j = 0; j < n; ++j) y[i * n + j] = bias != nullptr ? bias->const_data_ptr<float>()[j] : 0.f;
    }
    return out;
  }
  GemmArgs g;
  g.k = k;
  g.c = y;
  if (m == 1) {
    // out^T [n, 1] = W [n, k] x^T [k, 1]: n dot products over W's rows, read once.
    g.m = n;
    g.n = 1;
    g.a = w;
    g.a_rs = k;
    g.a_cs = 1;
    g.b = x;
    g.b_rs = 1;
    g.b_cs = k;
    g.c_rs = 1;
    g.bias_m = bias != nullptr ? bias->const_data_ptr<float>() : nullptr;
  } else {
    // out [m, n] = x [m, k] W^T: W read in place as B[p][j] = w[j * k + p].
    g.m = m;
    g.n = n;
    g.a = x;
    g.a_rs = k;
    g.a_cs = 1;
    g.b = w;
    g.b_rs = 1;
    g.b_cs = k;
    g.c_rs = n;
    g.bias_n = bias != nullptr ? bias->const_data_ptr<float>() : nullptr;
  }
  sgemm(g, ctx.thread_pool());
  return out;
}

}  // namespace ember::kernels::portable
