// Seeded random factories; see random.h.
#include "kernels/portable/ops/random.h"

#include <atomic>
#include <cmath>

#include "kernels/portable/util/cast.h"
#include "kernels/portable/util/dispatch.h"
#include "kernels/portable/util/tensor_util.h"

namespace ember::kernels::portable {

namespace {

using runtime::Error;
using runtime::ScalarType;

std::atomic<uint64_t> g_seed{0};
std::atomic<uint64_t> g_position{0};

// Output `k` of splitmix64 started at `seed`.
uint64_t splitmix64(uint64_t seed, uint64_t k) {
  uint64_t z = seed + (k + 1) * 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// Bits of mantissa a uniform value of `t` carries exactly (0: unsupported).
int uniform_bits(ScalarType t) {
  switch (t) {
    case ScalarType::Float: return 24;
    case ScalarType::Double: return 53;
    case ScalarType::Half: return 11;
    case ScalarType::BFloat16: return 8;
    default: return 0;
  }
}

// Checks `size` against `out`, resizes it and reserves `per_element` x numel positions.
bool prepare(KernelRuntimeContext& ctx, IntList size, Tensor& out, const char* op,
             uint64_t per_element, uint64_t* first) {
  if (size.size() > runtime::kMaxTensorDims) {
    ctx.fail(Error::InvalidArgument, "%s: %zu sizes, at most %zu dims", op, size.size(),
             static_cast<size_t>(runtime::kMaxTensorDims));
    return false;
  }
  SizesType shape[runtime::kMaxTensorDims];
  for (size_t d = 0; d < size.size(); ++d) {
    if (size[d] < 0) {
      ctx.fail(Error::InvalidArgument, "%s: negative size %lld at dim %zu", op,
               static_cast<long long>(size[d]), d);
      return false;
    }
    shape[d] = static_cast<SizesType>(size[d]);
  }
  if (uniform_bits(out.scalar_type()) == 0) {
    fail_dtype(ctx, out, op, "out");
    return false;
  }
  if (!resize_out(ctx, out, {shape, size.size()}, op)) return false;
  *first = g_position.fetch_add(per_element * out.numel());
  return true;
}

double uniform(uint64_t seed, uint64_t k, int bits) {
  return static_cast<double>(splitmix64(seed, k) >> (64 - bits)) * std::ldexp(1.0, -bits);
}

template <typename F>
void fill(Tensor& out, F&& value) {
  dispatch<kAllFloats>(out.scalar_type(), [&](auto tag) {
    using S = typename decltype(tag)::type;
    S* p = out.mutable_data_ptr<S>();
    int64_t strides[runtime::kMaxTensorDims];
    tensor_strides(out, strides);
    // Positions follow the logical (row-major) order, whatever the dim order.
    for (size_t i = 0; i < out.numel(); ++i) {
      p[offset_of(static_cast<int64_t>(i), out.sizes().data(), strides, out.dim())] = cast<S>(value(i));
    }
  });
}

}  // namespace

void set_random_seed(uint64_t seed) {
  g_seed.store(seed);
  g_position.store(0);
}

Tensor& rand_out(KernelRuntimeContext& ctx, IntList size, Tensor& out) {
  uint64_t first = 0;
  if (!prepare(ctx, size, out, "rand.out", 1, &first)) return out;
  const uint64_t seed = g_seed.load();
  const int bits = uniform_bits(out.scalar_type());
  fill(out, [&](size_t i) { return uniform(seed, first + i, bits); });
  return out;
}

Tensor& randn_out(KernelRuntimeContext& ctx, IntList size, Tensor& out) {
  uint64_t first = 0;
  if (!prepare(ctx, size, out, "randn.out", 2, &first)) return out;
  const uint64_t seed = g_seed.load();
  const double two_pi = 6.283185307179586476925286766559;
  fill(out, [&](size_t i) {
    // u1 in (0, 1] so the log is finite; u2 in [0, 1).
    const double u1 = 1.0 - uniform(seed, first + 2 * i, 53);
    const double u2 = uniform(seed, first + 2 * i + 1, 53);
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(two_pi * u2);
  });
  return out;
}

Tensor& randperm_out(KernelRuntimeContext& ctx, int64_t n, Tensor& out) {
  const char* op = "randperm.out";
  // Largest n whose n-1 the dtype holds exactly.
  int64_t limit = 0;
  switch (out.scalar_type()) {
    case ScalarType::Byte: limit = 256; break;
    case ScalarType::Char: limit = 128; break;
    case ScalarType::Short: limit = 32768; break;
    case ScalarType::Int: limit = int64_t{1} << 31; break;
    case ScalarType::Long: limit = INT64_MAX; break;
    case ScalarType::Half: limit = 2049; break;
    case ScalarType::BFloat16: limit = 257; break;
    case ScalarType::Float: limit = (int64_t{1} << 24) + 1; break;
    case ScalarType::Double: limit = (int64_t{1} << 53) + 1; break;
    default: fail_dtype(ctx, out, op, "out"); return out;
  }
  if (n < 0 || n > limit) {
    ctx.fail(Error::InvalidArgument, "%s: n is %lld; it must be in [0, %lld] for out's dtype", op,
             static_cast<long long>(n), static_cast<long long>(limit));
    return out;
  }
  const SizesType shape[1] = {static_cast<SizesType>(n)};
  if (!resize_out(ctx, out, {shape, 1}, op)) return out;
  const uint64_t first = g_position.fetch_add(static_cast<uint64_t>(n));
  const uint64_t seed = g_seed.load();
  dispatch<kReal>(out.scalar_type(), [&](auto tag) {
    using S = typename decltype(tag)::type;
    S* p = out.mutable_data_ptr<S>();
    const int64_t step = out.dim() == 1 ? out.strides()[0] : 1;
    for (int64_t i = 0; i < n; ++i) p[i * step] = cast<S>(i);
    for (int64_t i = n - 1; i > 0; --i) {
      const double u = uniform(seed, first + static_cast<uint64_t>(i), 53);
      int64_t j = static_cast<int64_t>(u * static_cast<double>(i + 1));
      if (j > i) j = i;
      const S t = p[i * step];
      p[i * step] = p[j * step];
      p[j * step] = t;
    }
  });
  return out;
}

}  // namespace ember::kernels::portable
