// sort.values (see sort.h).
#include "kernels/portable/ops/sort.h"

#include <algorithm>
#include <cmath>
#include <type_traits>
#include <utility>

#include "kernels/portable/util/cast.h"
#include "kernels/portable/util/dispatch.h"
#include "kernels/portable/util/reduce.h"
#include "kernels/portable/util/tensor_util.h"

namespace ember::kernels::portable {

namespace {

using runtime::Error;
using runtime::ScalarType;

// Whether (a, ia) goes before (b, ib): by value in the requested direction, NaN the largest,
// ties by input index (which makes the unstable std::sort stable).
template <typename C>
bool goes_before(C a, int64_t ia, C b, int64_t ib, bool descending) {
  bool an = false, bn = false;
  if constexpr (std::is_floating_point<C>::value) {
    an = std::isnan(a);
    bn = std::isnan(b);
  }
  if (an != bn) return descending ? an : bn;
  if (!an && a != b) return descending ? a > b : a < b;
  return ia < ib;
}

}  // namespace

void sort_values(runtime::KernelRuntimeContext& ctx, const runtime::Tensor& in, int64_t dim,
                 bool descending, runtime::Tensor& values, runtime::Tensor& indices) {
  const char* op = "sort.values";
  if (!normalize_dim(ctx, dim, in.dim(), op, &dim)) return;
  if (!check_dtype(ctx, values, in.scalar_type(), op, "values") ||
      !check_dtype(ctx, indices, ScalarType::Long, op, "indices")) {
    return;
  }
  if (!resize_like(ctx, values, in, op) || !resize_like(ctx, indices, in, op)) return;
  if (!same_layout(values, indices)) {
    ctx.fail(Error::NotSupported, "%s: values and indices must share a dim order", op);
    return;
  }
  const int64_t n = in.dim() == 0 ? 1 : in.size(dim);
  dispatch<kReal>(in.scalar_type(), [&](auto tag) {
    using S = typename decltype(tag)::type;
    using C = compute_t<S>;
    const S* p = in.const_data_ptr<S>();
    S* pv = values.mutable_data_ptr<S>();
    int64_t* pi = indices.mutable_data_ptr<int64_t>();
    using Entry = std::pair<C, int64_t>;
    runtime::Result<void*> scratch =
        ctx.allocate_temp(sizeof(Entry) * size_t(n > 0 ? n : 1), alignof(Entry));
    if (scratch.ok()) {
      Entry* q = static_cast<Entry*>(*scratch);
      const auto cmp = [descending](const Entry& x, const Entry& y) {
        return goes_before(x.first, x.second, y.first, y.second, descending);
      };
      for_each_lane(in, values, size_t(dim), [&](int64_t io, int64_t oo, int64_t is, int64_t os) {
        for (int64_t i = 0; i < n; ++i) q[i] = Entry(cast<C>(p[io + i * is]), i);
        std::sort(q, q + n, cmp);
        for (int64_t j = 0; j < n; ++j) {
          pv[oo + j * os] = cast<S>(q[j].first);
          pi[oo + j * os] = q[j].second;
        }
      });
      return;
    }
    // No temp allocator: insertion sort in the output lane.
    for_each_lane(in, values, size_t(dim), [&](int64_t io, int64_t oo, int64_t is, int64_t os) {
      for (int64_t i = 0; i < n; ++i) {
        const C v = cast<C>(p[io + i * is]);
        int64_t j = i;
        while (j > 0 && goes_before(v, i, cast<C>(pv[oo + (j - 1) * os]), pi[oo + (j - 1) * os],
                                    descending)) {
          pv[oo + j * os] = pv[oo + (j - 1) * os];
          pi[oo + j * os] = pi[oo + (j - 1) * os];
          --j;
        }
        pv[oo + j * os] = cast<S>(v);
        pi[oo + j * os] = i;
      }
    });
  });
}

}  // namespace ember::kernels::portable
