// cumsum and topk (declared in reduce.h): per-lane scans along one dim.
#include <algorithm>
#include <cmath>
#include <utility>

#include "kernels/portable/ops/reduce.h"
#include "kernels/portable/util/cast.h"
#include "kernels/portable/util/dispatch.h"
#include "kernels/portable/util/math.h"
#include "kernels/portable/util/reduce.h"

namespace ember::kernels::portable {

namespace {

using runtime::Error;

// Whether (a, ia) comes before (b, ib) in topk order: larger first (or
// smaller when !largest), NaN counting as the largest, ties by index.
template <typename C>
bool before(C a, int64_t ia, C b, int64_t ib, bool largest) {
  bool an = false, bn = false;
  if constexpr (std::is_floating_point<C>::value) {
    an = std::isnan(a);
    bn = std::isnan(b);
  }
  if (an || bn) {
    if (an && bn) return ia < ib;
    return largest ? an : bn;
  }
  if (a != b) return largest ? a > b : a < b;
  return ia < ib;
}

}  // namespace

Tensor& cumsum_out(KernelRuntimeContext& ctx, const Tensor& in, int64_t dim, OptDtype dtype,
                   Tensor& out) {
  const char* op = "cumsum.out";
  if (dtype.has_value() && !check_dtype(ctx, out, *dtype, op, "out (dtype argument)")) return out;
  if (!normalize_dim(ctx, dim, in.dim(), op, &dim)) return out;
  if (!resize_like(ctx, out, in, op)) return out;
  const int64_t n = in.dim() == 0 ? 1 : in.size(dim);
  const bool is_float = runtime::is_floating_point(out.scalar_type());
  dispatch<kAll>(in.scalar_type(), [&](auto tag) {
    using S = typename decltype(tag)::type;
    const S* p = in.const_data_ptr<S>();
    void* po = out.mutable_data_ptr();
    const StoreFn<double> store_d = storer<double>(out.scalar_type());
    const StoreFn<int64_t> store_i = storer<int64_t>(out.scalar_type());
    for_each_lane(in, out, size_t(dim), [&](int64_t io, int64_t oo, int64_t is, int64_t os) {
      double acc_d = 0;
      int64_t acc_i = 0;
      for (int64_t i = 0; i < n; ++i) {
        if (is_float) {
          acc_d += cast<double>(p[io + i * is]);
          store_d(po, oo + i * os, acc_d);
        } else {
          acc_i = add_wrap(acc_i, cast<int64_t>(p[io + i * is]));
          store_i(po, oo + i * os, acc_i);
        }
      }
    });
  });
  return out;
}

void topk_values(KernelRuntimeContext& ctx, const Tensor& in, int64_t k, int64_t dim,
                 bool largest, bool sorted, Tensor& values, Tensor& indices) {
  const char* op = "topk.values";
  if (!normalize_dim(ctx, dim, in.dim(), op, &dim)) return;
  const int64_t n = in.dim() == 0 ? 1 : in.size(dim);
  if (k < 0 || k > n) {
    ctx.fail(Error::InvalidArgument, "%s: k %lld out of range for dim size %lld", op,
             static_cast<long long>(k), static_cast<long long>(n));
    return;
  }
  if (!check_dtype(ctx, values, in.scalar_type(), op, "values") ||
      !check_dtype(ctx, indices, ScalarType::Long, op, "indices")) {
    return;
  }
  Shape shape;
  for (size_t i = 0; i < in.dim(); ++i) shape.push(int64_t(i) == dim ? k : in.size(i));
  if (!resize_out(ctx, values, shape.span(), op) || !resize_out(ctx, indices, shape.span(), op)) {
    return;
  }
  if (!same_layout(values, indices)) {
    ctx.fail(Error::NotSupported, "%s: values and indices must share a dim order", op);
    return;
  }
  dispatch<kReal>(in.scalar_type(), [&](auto tag) {
    using S = typename decltype(tag)::type;
    using C = compute_t<S>;
    const S* p = in.const_data_ptr<S>();
    S* pv = values.mutable_data_ptr<S>();
    int64_t* pi = indices.mutable_data_ptr<int64_t>();
    // With scratch memory: select like PyTorch's CPU kernel (partial sort for
    // small k, else nth_element then sort), so ties resolve the same way.
    using Entry = std::pair<C, int64_t>;
    runtime::Result<void*> scratch = ctx.allocate_temp(sizeof(Entry) * size_t(n > 0 ? n : 1),
                                                        alignof(Entry));
    if (scratch.ok()) {
      Entry* q = static_cast<Entry*>(*scratch);
      const auto cmp = [largest](const Entry& x, const Entry& y) {
        bool xn = false, yn = false;
        if constexpr (std::is_floating_point<C>::value) {
          xn = std::isnan(x.first);
          yn = std::isnan(y.first);
        }
        return largest ? ((xn && !yn) || x.first > y.first) : ((!xn && yn) || x.first < y.first);
      };
      for_each_lane(in, values, size_t(dim), [&](int64_t io, int64_t oo, int64_t is, int64_t os) {
        for (int64_t i = 0; i < n; ++i) q[i] = Entry(cast<C>(p[io + i * is]), i);
        if (k == 0) return;
        if (k * 64 <= n) {
          std::partial_sort(q, q + k, q + n, cmp);
        } else {
          std::nth_element(q, q + k - 1, q + n, cmp);
          if (sorted) std::sort(q, q + k - 1, cmp);
        }
        for (int64_t j = 0; j < k; ++j) {
          pv[oo + j * os] = cast<S>(q[j].first);
          pi[oo + j * os] = q[j].second;
        }
      });
      return;
    }
    // Without scratch memory: the j-th pick is the best element ordered after
    // the (j-1)-th. O(n * k) per lane; k is small in practice.
    for_each_lane(in, values, size_t(dim), [&](int64_t io, int64_t oo, int64_t is, int64_t os) {
      C prev_v = C(0);
      int64_t prev_i = -1;
      for (int64_t j = 0; j < k; ++j) {
        int64_t best = -1;
        C best_v = C(0);
        for (int64_t i = 0; i < n; ++i) {
          const C v = cast<C>(p[io + i * is]);
          if (prev_i >= 0 && !before(prev_v, prev_i, v, i, largest)) continue;
          if (best < 0 || before(v, i, best_v, best, largest)) {
            best = i;
            best_v = v;
          }
        }
        pv[oo + j * os] = cast<S>(best_v);
        pi[oo + j * os] = best;
        prev_v = best_v;
        prev_i = best;
      }
    });
  });
}

}  // namespace ember::kernels::portable
