// Advanced indexing (declared in index.h): index.Tensor, index_put(_),
// masked_select, masked_scatter, nonzero, repeat_interleave. Bool masks in
// index lists become long indices in temp memory (as nonzero would give).
#include <cstring>

#include "kernels/portable/ops/index.h"
#include "kernels/portable/util/binary.h"
#include "kernels/portable/util/cast.h"
#include "kernels/portable/util/copy.h"
#include "kernels/portable/util/loop.h"
#include "kernels/portable/util/math.h"
#include "kernels/portable/util/tensor_util.h"

namespace ember::kernels::portable {

namespace {

using runtime::Error;

// One index tensor seen as int64 values over the broadcast index shape.
struct IndexOperand {
  const void* data = nullptr;
  bool is_long = true;
  int64_t strides[kMaxTensorDims] = {};  // over the broadcast shape (0 = broadcast)
};

struct IndexPlan {
  size_t rank = 0;                       // self rank
  bool indexed[kMaxTensorDims] = {};     // self dims with an index
  IndexOperand ops[kMaxTensorDims];      // per indexed self dim
  Shape bshape;                          // broadcast shape of the indices
  size_t first = 0;                      // first indexed self dim
  bool adjacent = true;
  Shape result;                          // shape of self[indices]
};

// Converts a bool mask over self dims [d, d + mask.dim()) into one long index
// per dim, stored in temp memory; `plan` gets one operand per such dim.
bool expand_mask(KernelRuntimeContext& ctx, const Tensor& mask, const Tensor& self, size_t d,
                 IndexPlan* plan, Shape* mask_shape, const char* op) {
  if (d + mask.dim() > self.dim()) {
    ctx.fail(Error::InvalidArgument, "%s: too many indices for a tensor of rank %zu", op,
             self.dim());
    return false;
  }
  for (size_t k = 0; k < mask.dim(); ++k) {
    if (mask.size(k) != self.size(d + k)) {
      ctx.fail(Error::InvalidArgument, "%s: mask shape doesn't match the indexed dims", op);
      return false;
    }
  }
  int64_t ms[kMaxTensorDims];
  tensor_strides(mask, ms);
  int64_t count = 0;
  const bool* pm = mask.const_data_ptr<bool>();
  for (int64_t i = 0; i < int64_t(mask.numel()); ++i) {
    count += pm[offset_of(i, mask.sizes().data(), ms, mask.dim())] ? 1 : 0;
  }
  const size_t k = mask.dim() == 0 ? 1 : mask.dim();
  runtime::Result<void*> mem = ctx.allocate_temp(sizeof(int64_t) * size_t(count * int64_t(k) + 1));
  if (!mem.ok()) {
    ctx.fail(mem.error(), "%s: bool indices need %lld bytes of temp memory", op,
             static_cast<long long>(count * int64_t(k) * 8));
    return false;
  }
  int64_t* out = static_cast<int64_t*>(*mem);
  int64_t j = 0;
  for (int64_t i = 0; i < int64_t(mask.numel()); ++i) {
    if (!pm[offset_of(i, mask.sizes().data(), ms, mask.dim())]) continue;
    int64_t rest = i;
    for (size_t q = mask.dim(); q-- > 0;) {
      out[q * count + j] = rest % mask.size(q);
      rest /= mask.size(q);
    }
    ++j;
  }
  mask_shape->dim = 1;
  mask_shape->sizes[0] = static_cast<SizesType>(count);
  for (size_t q = 0; q < mask.dim(); ++q) {
    IndexOperand& o = plan->ops[d + q];
    plan->indexed[d + q] = true;
    o.data = out + q * count;
    o.is_long = true;
  }
  return true;
}

// Builds the plan; fails ctx on bad indices.
bool make_plan(KernelRuntimeContext& ctx, const Tensor& self, OptionalTensorList indices,
               IndexPlan* plan, const char* op) {
  plan->rank = self.dim();
  Shape shapes[kMaxTensorDims];      // per self dim: the shape its index broadcasts from
  const Tensor* tensors[kMaxTensorDims] = {};
  size_t d = 0;
  for (size_t i = 0; i < indices.size(); ++i) {
    const Tensor* t = indices.get(i);
    if (d >= self.dim()) {
      ctx.fail(Error::InvalidArgument, "%s: too many indices (%zu) for a tensor of rank %zu", op,
               indices.size(), self.dim());
      return false;
    }
    if (t == nullptr) {
      ++d;
      continue;
    }
    if (t->scalar_type() == ScalarType::Bool || t->scalar_type() == ScalarType::Byte) {
      Shape ms;
      if (t->dim() == 0) {
        ctx.fail(Error::NotSupported, "%s: 0-dim bool indices are not supported", op);
        return false;
      }
      if (!expand_mask(ctx, *t, self, d, plan, &ms, op)) return false;
      for (size_t q = 0; q < t->dim(); ++q) shapes[d + q] = ms;
      d += t->dim();
      continue;
    }
    if (t->scalar_type() != ScalarType::Long && t->scalar_type() != ScalarType::Int) {
      fail_dtype(ctx, *t, op, "index (long, int or bool expected)");
      return false;
    }
    plan->indexed[d] = true;
    tensors[d] = t;
    plan->ops[d].data = t->const_data_ptr();
    plan->ops[d].is_long = t->scalar_type() == ScalarType::Long;
    for (size_t q = 0; q < t->dim(); ++q) shapes[d].push(t->size(q));
    ++d;
  }
  // Broadcast all index shapes.
  bool any = false;
  size_t last = 0;
  for (size_t k = 0; k < self.dim(); ++k) {
    if (!plan->indexed[k]) continue;
    if (!any) plan->first = k;
    if (any && k != last + 1) plan->adjacent = false;
    last = k;
    Shape b;
    if (any && !broadcast_shape(ctx, plan->bshape.span(), shapes[k].span(), &b, op)) return false;
    plan->bshape = any ? b : shapes[k];
    any = true;
  }
  // Strides of each operand over bshape.
  for (size_t k = 0; k < self.dim(); ++k) {
    if (!plan->indexed[k]) continue;
    IndexOperand& o = plan->ops[k];
    const size_t lead = plan->bshape.dim - shapes[k].dim;
    int64_t natural[kMaxTensorDims];
    if (tensors[k] != nullptr) {
      tensor_strides(*tensors[k], natural);
    } else {
      natural[0] = 1;  // mask-derived: contiguous 1-D
    }
    for (size_t q = 0; q < plan->bshape.dim; ++q) {
      o.strides[q] = (q < lead || shapes[k].sizes[q - lead] == 1) ? 0 : natural[q - lead];
    }
  }
  // Result shape.
  Shape& r = plan->result;
  if (!any) {
    for (size_t k = 0; k < self.dim(); ++k) r.push(self.size(k));
    return true;
  }
  if (plan->adjacent) {
    for (size_t k = 0; k < plan->first; ++k) r.push(self.size(k));
  }
  for (size_t q = 0; q < plan->bshape.dim; ++q) r.push(plan->bshape.sizes[q]);
  for (size_t k = plan->adjacent ? plan->first : 0; k < self.dim(); ++k) {
    if (!plan->indexed[k]) r.push(self.size(k));
  }
  return r.dim <= kMaxTensorDims;
}

// Calls fn(result_index, self_offset) for every element of the result;
// false (ctx failed) on an out-of-range index.
template <typename F>
bool for_each_indexed(KernelRuntimeContext& ctx, const Tensor& self, const IndexPlan& p,
                      const char* op, F&& fn) {
  bool ok = true;
  const size_t nb = p.bshape.dim;
  for_each_index(p.result.sizes, p.result.dim, [&](const int64_t* idx) {
    if (!ok) return;
    const size_t b0 = p.adjacent ? p.first : 0;  // where the broadcast dims sit in result
    int64_t off = 0;
    size_t r = 0;
    for (size_t k = 0; k < self.dim(); ++k) {
      if (p.indexed[k]) continue;
      // Non-indexed dims: before b0 map 1:1; after, skip the broadcast block.
      const size_t pos = (p.adjacent && k < p.first) ? k : b0 + nb + r;
      if (!(p.adjacent && k < p.first)) ++r;
      off += idx[pos] * self.strides()[k];
    }
    for (size_t k = 0; k < self.dim(); ++k) {
      if (!p.indexed[k]) continue;
      const IndexOperand& o = p.ops[k];
      int64_t io = 0;
      for (size_t q = 0; q < nb; ++q) io += idx[b0 + q] * o.strides[q];
      int64_t v = o.is_long ? static_cast<const int64_t*>(o.data)[io]
                            : static_cast<const int32_t*>(o.data)[io];
      const int64_t size = self.size(k);
      if (v < -size || v >= size) {
        ctx.fail(Error::InvalidArgument, "%s: index %lld out of range for dim %zu of size %lld",
                 op, static_cast<long long>(v), k, static_cast<long long>(size));
        ok = false;
        return;
      }
      if (v < 0) v += size;
      off += v * self.strides()[k];
    }
    fn(idx, off);
  });
  return ok;
}

}  // namespace

Tensor& index_tensor_out(KernelRuntimeContext& ctx, const Tensor& in, OptionalTensorList indices,
                         Tensor& out) {
  const char* op = "index.Tensor_out";
  IndexPlan plan;
  if (!make_plan(ctx, in, indices, &plan, op)) return out;
  if (!check_dtype(ctx, out, in.scalar_type(), op, "out")) return out;
  if (!resize_out(ctx, out, plan.result.span(), op)) return out;
  int64_t os[kMaxTensorDims];
  tensor_strides(out, os);
  const size_t es = in.element_size();
  const char* pi = static_cast<const char*>(in.const_data_ptr());
  char* po = static_cast<char*>(out.mutable_data_ptr());
  for_each_indexed(ctx, in, plan, op, [&](const int64_t* idx, int64_t from) {
    int64_t oo = 0;
    for (size_t d = 0; d < out.dim(); ++d) oo += idx[d] * os[d];
    std::memcpy(po + oo * es, pi + from * es, es);
  });
  return out;
}

Tensor& index_put_inplace(KernelRuntimeContext& ctx, Tensor& self, OptionalTensorList indices,
                          const Tensor& values, bool accumulate) {
  const char* op = "index_put";
  IndexPlan plan;
  if (!make_plan(ctx, self, indices, &plan, op)) return self;
  Shape b;
  if (!broadcast_shape(ctx, plan.result.span(), values.sizes(), &b, op)) return self;
  if (b.dim != plan.result.dim || shape_numel(b.span()) != shape_numel(plan.result.span())) {
    ctx.fail(Error::InvalidArgument, "%s: values don't broadcast to the indexed shape", op);
    return self;
  }
  if (values.scalar_type() != self.scalar_type()) {
    fail_dtype(ctx, values, op, "values (must match self)");
    return self;
  }
  int64_t vs[kMaxTensorDims];
  broadcast_strides(values, plan.result.dim, vs);
  dispatch<kAll>(self.scalar_type(), [&](auto tag) {
    using S = typename decltype(tag)::type;
    using C = compute_t<S>;
    const S* pv = values.const_data_ptr<S>();
    S* ps = self.mutable_data_ptr<S>();
    for_each_indexed(ctx, self, plan, op, [&](const int64_t* idx, int64_t to) {
      int64_t vo = 0;
      for (size_t d = 0; d < plan.result.dim; ++d) vo += idx[d] * vs[d];
      if (!accumulate) {
        ps[to] = pv[vo];
      } else if constexpr (std::is_same<S, bool>::value) {
        ps[to] = ps[to] || pv[vo];
      } else {
        ps[to] = cast<S>(add_wrap<C>(cast<C>(ps[to]), cast<C>(pv[vo])));
      }
    });
  });
  return self;
}

Tensor& index_put_out(KernelRuntimeContext& ctx, const Tensor& in, OptionalTensorList indices,
                      const Tensor& values, bool accumulate, Tensor& out) {
  const char* op = "index_put.out";
  if (!check_dtype(ctx, out, in.scalar_type(), op, "out") || !resize_like(ctx, out, in, op)) {
    return out;
  }
  if (out.const_data_ptr() != in.const_data_ptr()) copy_into(in, out);  // else in place
  return index_put_inplace(ctx, out, indices, values, accumulate);
}

}  // namespace ember::kernels::portable
