// Reductions over a set of dims: ReducePlan splits the input's dims into kept
// dims (one output element per position) and reduced dims, and for_each_output
// calls fn(in_offset, out_offset) for every output position; the op then walks
// the reduced elements with plan.reduced.run(...) from in_offset. Reduced dims
// are walked in memory order, so a reduction over contiguous trailing dims is
// one flat run. Also the shape helpers the reduction kernels share.
#pragma once

#include <optional>

#include "kernels/portable/util/boxing.h"
#include "kernels/portable/util/loop.h"
#include "kernels/portable/util/tensor_util.h"

namespace ember::kernels::portable {

// Which dims a reduction covers: `dims` (None or empty = all), normalised.
// Fails on an out-of-range or repeated dim.
bool reduction_mask(KernelRuntimeContext& ctx, const Tensor& in, std::optional<IntList> dims,
                    bool* mask, const char* op);

// The output shape for `mask` (reduced dims kept as 1 with keepdim).
Shape reduced_shape(const Tensor& in, const bool* mask, bool keepdim);

// Fails if a reduced dim has size 0 (ops without an identity: amax, argmax, ...).
bool check_nonempty_reduction(KernelRuntimeContext& ctx, const Tensor& in, const bool* mask,
                              const char* op);

class ReducePlan {
 public:
  // `out` already has reduced_shape(in, mask, keepdim).
  ReducePlan(const Tensor& in, const bool* mask, const Tensor& out, bool keepdim);

  // Number of input elements per output element.
  int64_t reduced_numel() const { return reduced_numel_; }

  // fn(int64_t in_offset, int64_t out_offset) per output element.
  template <typename F>
  void for_each_output(F&& fn) const {
    kept_.run([&](const int64_t* off, int64_t n, const int64_t* s) {
      for (int64_t i = 0; i < n; ++i) fn(off[0] + i * s[0], off[1] + i * s[1]);
    });
  }

  // fn(int64_t offset) for each reduced element, relative to in_offset.
  template <typename F>
  void for_each_reduced(int64_t in_offset, F&& fn) const {
    reduced_.run([&](const int64_t* off, int64_t n, const int64_t* s) {
      const int64_t base = in_offset + off[0];
      for (int64_t i = 0; i < n; ++i) fn(base + i * s[0]);
    });
  }

 private:
  static StridedLoop<2> make_kept(const Tensor& in, const bool* mask, const Tensor& out,
                                  bool keepdim);
  static StridedLoop<1> make_reduced(const Tensor& in, const bool* mask);

  StridedLoop<2> kept_;
  StridedLoop<1> reduced_;
  int64_t reduced_numel_ = 1;
};

// Calls fn(in_offset, out_offset, in_stride, out_stride) for every 1-D lane
// along `dim` of the shape of `in` (in and out share that shape).
template <typename F>
void for_each_lane(const Tensor& in, const Tensor& out, size_t dim, F&& fn) {
  int64_t strides[2][kMaxTensorDims];
  SizesType sizes[kMaxTensorDims];
  for (size_t d = 0; d < in.dim(); ++d) {
    sizes[d] = d == dim ? 1 : in.size(d);
    strides[0][d] = in.strides()[d];
    strides[1][d] = out.strides()[d];
  }
  const StridedLoop<2> loop(sizes, in.dim_order().data(), in.dim(), strides);
  const int64_t is = in.dim() == 0 ? 1 : in.strides()[dim];
  const int64_t os = out.dim() == 0 ? 1 : out.strides()[dim];
  loop.run([&](const int64_t* off, int64_t n, const int64_t* s) {
    for (int64_t i = 0; i < n; ++i) fn(off[0] + i * s[0], off[1] + i * s[1], is, os);
  });
}

}  // namespace ember::kernels::portable
