// FFT kernels over KissFFT (see fft.h).
#include "kernels/fft/fft.h"

#include <kissfft/kiss_fft.h>

#include <climits>
#include <cmath>

#include "kernels/portable/util/tensor_util.h"

namespace ember::kernels::fft {

namespace {

using portable::resize_out;
using runtime::Error;
using runtime::ScalarType;
using runtime::SizesType;
using Cpx = kiss_fft_cpx;

constexpr size_t kMaxDims = runtime::kMaxTensorDims;

// A KissFFT plan of length n placed in temp memory, and two line buffers of n values.
struct Plan {
  kiss_fft_cfg cfg = nullptr;
  Cpx* a = nullptr;
  Cpx* b = nullptr;
  int64_t n = 0;
};

bool make_plan(KernelRuntimeContext& ctx, int64_t n, bool inverse, Plan* p, const char* op) {
  if (n <= 0 || n > INT_MAX / 2) {
    ctx.fail(Error::InvalidArgument, "%s: invalid number of data points (%lld)", op,
             static_cast<long long>(n));
    return false;
  }
  size_t len = 0;
  kiss_fft_alloc(static_cast<int>(n), inverse, nullptr, &len);  // asks for the size only
  auto mem = ctx.allocate_temp(len, 16);
  auto a = ctx.allocate_temp(sizeof(Cpx) * static_cast<size_t>(n), 16);
  auto b = ctx.allocate_temp(sizeof(Cpx) * static_cast<size_t>(n), 16);
  if (!mem.ok() || !a.ok() || !b.ok()) {
    ctx.fail(Error::MemoryAllocationFailed,
             "%s: the temp allocator cannot hold a length-%lld FFT plan and buffers (%zu bytes)",
             op, static_cast<long long>(n), len + 2 * sizeof(Cpx) * static_cast<size_t>(n));
    return false;
  }
  p->cfg = kiss_fft_alloc(static_cast<int>(n), inverse, mem.get(), &len);
  p->a = static_cast<Cpx*>(a.get());
  p->b = static_cast<Cpx*>(b.get());
  p->n = n;
  return p->cfg != nullptr;
}

// Calls f(offset_a, offset_b) for every line along `dim` of a shape (line index over the other
// dims in row-major order), with the line's first element's offset in two tensors of that
// shape but their own strides.
template <typename F>
void for_each_line(const SizesType* sizes, size_t rank, size_t dim, const int64_t* sa,
                   const int64_t* sb, F f) {
  int64_t lines = 1;
  for (size_t k = 0; k < rank; ++k) lines *= k == dim ? 1 : sizes[k];
  for (int64_t l = 0; l < lines; ++l) {
    int64_t rem = l, oa = 0, ob = 0;
    for (size_t k = rank; k-- > 0;) {
      if (k == dim) continue;
      const int64_t i = rem % sizes[k];
      rem /= sizes[k];
      oa += i * sa[k];
      ob += i * sb[k];
    }
    f(oa, ob);
  }
}

// The dims of `dim` normalized to [0, rank), distinct, in order; false (ctx failed) otherwise.
bool normalize_dims(KernelRuntimeContext& ctx, IntList dim, size_t rank, size_t* dims,
                    const char* op) {
  if (dim.size() == 0 || dim.size() > rank) {
    ctx.fail(Error::InvalidArgument, "%s: needs 1 to %zu dims, got %zu", op, rank, dim.size());
    return false;
  }
  for (size_t i = 0; i < dim.size(); ++i) {
    const int64_t d = dim[i] < 0 ? dim[i] + static_cast<int64_t>(rank) : dim[i];
    if (d < 0 || d >= static_cast<int64_t>(rank)) {
      ctx.fail(Error::InvalidArgument, "%s: dim %lld out of range for rank %zu", op,
               static_cast<long long>(dim[i]), rank);
      return false;
    }
    for (size_t j = 0; j < i; ++j) {
      if (dims[j] == static_cast<size_t>(d)) {
        ctx.fail(Error::InvalidArgument, "%s: dim %lld listed twice", op,
                 static_cast<long long>(d));
        return false;
      }
    }
    dims[i] = static_cast<size_t>(d);
  }
  return true;
}

// The in-place complex transform of `data` (shape `sizes`, strides `st` in complex elements)
// along dim d.
bool c2c_dim(KernelRuntimeContext& ctx, Cpx* data, const SizesType* sizes, const int64_t* st,
             size_t rank, size_t d, bool inverse, const char* op) {
  Plan p;
  if (!make_plan(ctx, sizes[d], inverse, &p, op)) return false;
  const int64_t s = st[d];
  for_each_line(sizes, rank, d, st, st, [&](int64_t off, int64_t) {
    for (int64_t t = 0; t < p.n; ++t) p.a[t] = data[off + t * s];
    kiss_fft(p.cfg, p.a, p.b);
    for (int64_t t = 0; t < p.n; ++t) data[off + t * s] = p.b[t];
  });
  return true;
}

// Multiplies every value of a dense tensor (count scalars) by ATen's normalization factor.
bool normalize(KernelRuntimeContext& ctx, float* data, size_t count, int64_t mode, double n,
               const char* op) {
  if (mode < 0 || mode > 2) {
    ctx.fail(Error::InvalidArgument, "%s: normalization must be 0, 1 or 2, got %lld", op,
             static_cast<long long>(mode));
    return false;
  }
  if (mode == 0) return true;
  const float scale = static_cast<float>(mode == 1 ? 1.0 / std::sqrt(n) : 1.0 / n);
  for (size_t i = 0; i < count; ++i) data[i] *= scale;
  return true;
}

bool check_types(KernelRuntimeContext& ctx, const Tensor& in, ScalarType in_type,
                 const Tensor& out, ScalarType out_type, const char* op) {
  if (in.scalar_type() != in_type || out.scalar_type() != out_type) {
    ctx.fail(Error::InvalidType,
             "%s: input %s and out %s; this library transforms %s to %s only (float32 KissFFT)",
             op, runtime::scalar_type_name(in.scalar_type()),
             runtime::scalar_type_name(out.scalar_type()), runtime::scalar_type_name(in_type),
             runtime::scalar_type_name(out_type));
    return false;
  }
  return true;
}

}  // namespace

Tensor& fft_r2c_out(KernelRuntimeContext& ctx, const Tensor& self, IntList dim,
                    int64_t normalization, bool onesided, Tensor& out) {
  const char* op = "_fft_r2c.out";
  size_t dims[kMaxDims];
  const size_t rank = self.dim();
  if (!check_types(ctx, self, ScalarType::Float, out, ScalarType::ComplexFloat, op) ||
      !normalize_dims(ctx, dim, rank, dims, op)) {
    return out;
  }
  const size_t last = dims[dim.size() - 1];
  const int64_t n = self.size(last);
  SizesType shape[kMaxDims];
  double signal = 1;
  for (size_t k = 0; k < rank; ++k) shape[k] = self.sizes()[k];
  for (size_t i = 0; i < dim.size(); ++i) signal *= static_cast<double>(self.size(dims[i]));
  shape[last] = static_cast<SizesType>(onesided ? n / 2 + 1 : n);
  if (!resize_out(ctx, out, {shape, rank}, op)) return out;
  if (out.numel() == 0 && n > 0) return out;
  Plan p;
  if (!make_plan(ctx, n, false, &p, op)) return out;
  int64_t si[kMaxDims], so[kMaxDims];
  portable::tensor_strides(self, si);
  portable::tensor_strides(out, so);
  const float* x = self.const_data_ptr<float>();
  Cpx* y = out.mutable_data_ptr<Cpx>();
  const int64_t kept = shape[last];
  for_each_line(shape, rank, last, si, so, [&](int64_t oi, int64_t oo) {
    for (int64_t t = 0; t < n; ++t) p.a[t] = Cpx{x[oi + t * si[last]], 0.0f};
    kiss_fft(p.cfg, p.a, p.b);
    for (int64_t k = 0; k < kept; ++k) y[oo + k * so[last]] = p.b[k];
  });
  for (size_t i = 0; i + 1 < dim.size(); ++i) {
    if (!c2c_dim(ctx, y, shape, so, rank, dims[i], false, op)) return out;
  }
  normalize(ctx, reinterpret_cast<float*>(y), 2 * out.numel(), normalization, signal, op);
  return out;
}

Tensor& fft_c2r_out(KernelRuntimeContext& ctx, const Tensor& self, IntList dim,
                    int64_t normalization, int64_t last_dim_size, Tensor& out) {
  const char* op = "_fft_c2r.out";
  size_t dims[kMaxDims];
  const size_t rank = self.dim();
  if (!check_types(ctx, self, ScalarType::ComplexFloat, out, ScalarType::Float, op) ||
      !normalize_dims(ctx, dim, rank, dims, op)) {
    return out;
  }
  const size_t last = dims[dim.size() - 1];
  const int64_t n = last_dim_size, half = last_dim_size / 2 + 1;
  if (n < 1 || self.size(last) < half) {
    ctx.fail(Error::InvalidArgument,
             "%s: last_dim_size %lld needs at least %lld input frequencies in dim %zu, got %lld",
             op, static_cast<long long>(n), static_cast<long long>(half), last,
             static_cast<long long>(self.size(last)));
    return out;
  }
  // The inverse over the other dims runs on a dense copy of the first `half` frequencies.
  SizesType shape[kMaxDims], half_shape[kMaxDims];
  double signal = static_cast<double>(n);
  for (size_t k = 0; k < rank; ++k) shape[k] = half_shape[k] = self.sizes()[k];
  for (size_t i = 0; i + 1 < dim.size(); ++i) signal *= static_cast<double>(self.size(dims[i]));
  shape[last] = static_cast<SizesType>(n);
  half_shape[last] = static_cast<SizesType>(half);
  if (!resize_out(ctx, out, {shape, rank}, op)) return out;
  if (out.numel() == 0) return out;
  int64_t si[kMaxDims], so[kMaxDims], sh[kMaxDims];
  portable::tensor_strides(self, si);
  portable::tensor_strides(out, so);
  int64_t count = 1;
  for (size_t k = rank; k-- > 0;) {
    sh[k] = count;
    count *= half_shape[k];
  }
  auto buf = ctx.allocate_temp(sizeof(Cpx) * static_cast<size_t>(count), 16);
  if (!buf.ok()) {
    ctx.fail(Error::MemoryAllocationFailed, "%s: the temp allocator cannot hold %lld values", op,
             static_cast<long long>(count));
    return out;
  }
  Cpx* h = static_cast<Cpx*>(buf.get());
  const Cpx* in = self.const_data_ptr<Cpx>();
  for (int64_t i = 0; i < count; ++i) {
    h[i] = in[portable::offset_of(i, half_shape, si, rank)];
  }
  for (size_t i = 0; i + 1 < dim.size(); ++i) {
    if (!c2c_dim(ctx, h, half_shape, sh, rank, dims[i], true, op)) return out;
  }
  Plan p;
  if (!make_plan(ctx, n, true, &p, op)) return out;
  float* y = out.mutable_data_ptr<float>();
  for_each_line(shape, rank, last, sh, so, [&](int64_t oh, int64_t oo) {
    // The Hermitian extension X[n-k] = conj(X[k]) of the one-sided spectrum.
    for (int64_t k = 0; k < half; ++k) p.a[k] = h[oh + k * sh[last]];
    for (int64_t k = half; k < n; ++k) {
      const Cpx c = h[oh + (n - k) * sh[last]];
      p.a[k] = Cpx{c.r, -c.i};
    }
    kiss_fft(p.cfg, p.a, p.b);
    for (int64_t t = 0; t < n; ++t) y[oo + t * so[last]] = p.b[t].r;
  });
  normalize(ctx, y, out.numel(), normalization, signal, op);
  return out;
}

Tensor& fft_c2c_out(KernelRuntimeContext& ctx, const Tensor& self, IntList dim,
                    int64_t normalization, bool forward, Tensor& out) {
  const char* op = "_fft_c2c.out";
  size_t dims[kMaxDims];
  const size_t rank = self.dim();
  if (!check_types(ctx, self, ScalarType::ComplexFloat, out, ScalarType::ComplexFloat, op) ||
      !normalize_dims(ctx, dim, rank, dims, op) || !resize_out(ctx, out, self.sizes(), op)) {
    return out;
  }
  if (out.numel() == 0) return out;
  int64_t si[kMaxDims], so[kMaxDims];
  portable::tensor_strides(self, si);
  portable::tensor_strides(out, so);
  const Cpx* in = self.const_data_ptr<Cpx>();
  Cpx* y = out.mutable_data_ptr<Cpx>();
  const SizesType* sizes = self.sizes().data();
  for (int64_t i = 0; i < static_cast<int64_t>(out.numel()); ++i) {
    y[portable::offset_of(i, sizes, so, rank)] = in[portable::offset_of(i, sizes, si, rank)];
  }
  double signal = 1;
  for (size_t i = 0; i < dim.size(); ++i) {
    signal *= static_cast<double>(self.size(dims[i]));
    if (!c2c_dim(ctx, y, sizes, so, rank, dims[i], !forward, op)) return out;
  }
  normalize(ctx, reinterpret_cast<float*>(y), 2 * out.numel(), normalization, signal, op);
  return out;
}

}  // namespace ember::kernels::fft
