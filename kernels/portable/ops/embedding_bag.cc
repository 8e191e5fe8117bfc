// _embedding_bag (see embedding_bag.h).
#include "kernels/portable/ops/embedding_bag.h"

#include "kernels/portable/util/cast.h"
#include "kernels/portable/util/dispatch.h"
#include "kernels/portable/util/tensor_util.h"

namespace ember::kernels::portable {

using runtime::Error;
using runtime::ScalarType;
using runtime::Tensor;

namespace {

constexpr int64_t kSum = 0, kMean = 1, kMax = 2;

// Element i of a 1-D int32/int64 tensor.
int64_t index_at(const Tensor& t, int64_t i) {
  const int64_t step = t.strides()[0];
  return t.scalar_type() == ScalarType::Int ? t.const_data_ptr<int32_t>()[i * step]
                                            : t.const_data_ptr<int64_t>()[i * step];
}

void store_index(Tensor& t, int64_t i, int64_t v) {
  if (t.scalar_type() == ScalarType::Int) {
    t.mutable_data_ptr<int32_t>()[i] = static_cast<int32_t>(v);
  } else {
    t.mutable_data_ptr<int64_t>()[i] = v;
  }
}

bool check_args(KernelRuntimeContext& ctx, const Tensor& weight, const Tensor& indices,
                const Tensor& offsets, int64_t mode, const Tensor* psw, const char* op) {
  if (weight.dim() != 2 || indices.dim() != 1 || offsets.dim() != 1) {
    ctx.fail(Error::InvalidArgument,
             "%s: weight must be 2-D, indices and offsets 1-D (got %zu, %zu, %zu dims)", op,
             weight.dim(), indices.dim(), offsets.dim());
    return false;
  }
  const ScalarType it = indices.scalar_type();
  if ((it != ScalarType::Int && it != ScalarType::Long) || offsets.scalar_type() != it) {
    ctx.fail(Error::InvalidType, "%s: indices and offsets must both be int32 or both int64", op);
    return false;
  }
  if (mode != kSum && mode != kMean && mode != kMax) {
    ctx.fail(Error::InvalidArgument, "%s: mode must be 0 (sum), 1 (mean) or 2 (max), got %lld",
             op, static_cast<long long>(mode));
    return false;
  }
  if (psw != nullptr && (mode != kSum || psw->dim() != 1 || psw->size(0) != indices.size(0) ||
                         psw->scalar_type() != weight.scalar_type())) {
    ctx.fail(Error::InvalidArgument,
             "%s: per_sample_weights needs mode sum and one weight per index of weight's dtype",
             op);
    return false;
  }
  return true;
}

}  // namespace

void embedding_bag_out(KernelRuntimeContext& ctx, const Tensor& weight, const Tensor& indices,
                       const Tensor& offsets, bool scale_grad_by_freq, int64_t mode, bool sparse,
                       const Tensor* psw, bool include_last_offset, int64_t padding_idx,
                       Tensor& out0, Tensor& out1, Tensor& out2, Tensor& out3) {
  (void)scale_grad_by_freq;  // training-only flags
  (void)sparse;
  const char* op = "_embedding_bag.out";
  if (!check_args(ctx, weight, indices, offsets, mode, psw, op)) return;
  const int64_t rows = weight.size(0), d = weight.size(1), count = indices.size(0);
  const int64_t bags = offsets.size(0) - (include_last_offset ? 1 : 0);
  if (bags < 0) {
    ctx.fail(Error::InvalidArgument, "%s: include_last_offset needs at least one offset", op);
    return;
  }
  // Bag b is [start(b), end(b)); offsets must start at 0, never decrease, stay within L.
  auto start = [&](int64_t b) { return index_at(offsets, b); };
  auto end = [&](int64_t b) { return b + 1 < offsets.size(0) ? index_at(offsets, b + 1) : count; };
  for (int64_t b = 0; b < bags; ++b) {
    if ((b == 0 && start(0) != 0) || start(b) < 0 || start(b) > end(b) || end(b) > count) {
      ctx.fail(Error::InvalidArgument,
               "%s: offsets must start at 0 and rise to at most %lld (bag %lld: [%lld, %lld))",
               op, static_cast<long long>(count), static_cast<long long>(b),
               static_cast<long long>(start(b)), static_cast<long long>(end(b)));
      return;
    }
  }
  for (int64_t i = 0; i < count; ++i) {
    const int64_t r = index_at(indices, i);
    if (r < 0 || r >= rows) {
      ctx.fail(Error::InvalidArgument, "%s: index %lld at position %lld is outside [0, %lld)", op,
               static_cast<long long>(r), static_cast<long long>(i),
               static_cast<long long>(rows));
      return;
    }
  }
  const ScalarType wt = weight.scalar_type(), it = indices.scalar_type();
  const bool fast_sum = mode == kSum && padding_idx < 0 &&
                        (wt == ScalarType::Float || wt == ScalarType::Half ||
                         wt == ScalarType::BFloat16);
  const SizesType out_shape[2] = {SizesType(bags), SizesType(d)};
  const SizesType o2b_shape[1] = {SizesType(fast_sum ? 0 : count)};
  if (!check_dtype(ctx, out0, wt, op, "out0") || !check_dtype(ctx, out1, it, op, "out1") ||
      !check_dtype(ctx, out2, it, op, "out2") || !check_dtype(ctx, out3, it, op, "out3") ||
      !resize_out(ctx, out0, {out_shape, 2}, op) || !resize_out(ctx, out1, {o2b_shape, 1}, op) ||
      !resize_out(ctx, out2, {out_shape, 1}, op) ||
      !resize_out(ctx, out3, {out_shape, mode == kMax ? size_t{2} : size_t{1}}, op)) {
    return;
  }
  int64_t ws[2], os[2];
  tensor_strides(weight, ws);
  tensor_strides(out0, os);
  const int64_t ms = mode == kMax ? out3.strides()[0] : 0, mc = mode == kMax ? out3.strides()[1] : 0;
  const bool ok = dispatch<kAllFloats>(wt, [&](auto tag) {
    using S = typename decltype(tag)::type;
    using C = compute_t<S>;
    const S* pw = weight.const_data_ptr<S>();
    S* po = out0.mutable_data_ptr<S>();
    for (int64_t b = 0; b < bags; ++b) {
      int64_t n = 0;  // indices counted in this bag
      for (int64_t i = start(b); i < end(b); ++i) {
        if (!fast_sum) store_index(out1, i, b);
      }
      for (int64_t j = 0; j < d; ++j) {
        C acc = C(0);
        int64_t arg = -1;
        n = 0;
        for (int64_t i = start(b); i < end(b); ++i) {
          const int64_t r = index_at(indices, i);
          if (r == padding_idx) continue;
          ++n;
          C v = cast<C>(pw[r * ws[0] + j * ws[1]]);
          if (psw != nullptr) v *= cast<C>(psw->const_data_ptr<S>()[i * psw->strides()[0]]);
          if (mode == kMax) {
            if (arg < 0 || v > acc) {
              acc = v;
              arg = r;
            }
          } else {
            acc += v;
          }
        }
        if (mode == kMean && n > 0) acc /= C(n);
        po[b * os[0] + j * os[1]] = cast<S>(acc);
        if (mode == kMax) {
          const int64_t m = arg < 0 ? 0 : arg;
          if (it == ScalarType::Int) {
            out3.mutable_data_ptr<int32_t>()[b * ms + j * mc] = static_cast<int32_t>(m);
          } else {
            out3.mutable_data_ptr<int64_t>()[b * ms + j * mc] = m;
          }
        }
      }
      if (d == 0) {  // count the bag anyway
        for (int64_t i = start(b); i < end(b); ++i) n += index_at(indices, i) != padding_idx;
      }
      store_index(out2, b, mode == kSum ? 0 : n);
      if (mode != kMax) store_index(out3, b, mode == kSum ? 0 : n);
    }
  });
  if (!ok) fail_dtype(ctx, weight, op, "weight");
}

}  // namespace ember::kernels::portable
