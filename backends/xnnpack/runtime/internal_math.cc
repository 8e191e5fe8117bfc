// fp32 math kernels for nodes this XNNPACK lacks (tanh, exp, log, sin, cos,
// gelu, rsqrt, batch matmul), and the dispatcher/checker of internal nodes. exp, gelu and
// batch matmul use the portable kernels' vectorised math (kernels/portable/util).
#include <cmath>
#include <cstring>

#include "backends/xnnpack/runtime/internal_kernels.h"
#include "kernels/portable/util/gemm.h"
#include "kernels/portable/util/vec_math.h"
#include "runtime/core/diagnostics.h"

namespace ember::backends::xnnpack {

using fb_xnnpack::XNNDatatype;
using fb_xnnpack::XNodeUnion;

void run_unary_math(XNodeUnion type, size_t n, const float* x, float* y) {
  // exp and gelu (ConvNeXt's and the transformers' MLPs) in the portable kernels' vectorised
  // forms, the same bits as the portable recipe's kernels.
  const kernels::portable::VecMath& vm = kernels::portable::vec_math();
  if (type == XNodeUnion::XNNExp) return vm.exp(x, y, int64_t(n));
  if (type == XNodeUnion::XNNGelu) return vm.gelu_erf(x, y, int64_t(n));
  for (size_t i = 0; i < n; ++i) {
    const float v = x[i];
    switch (type) {
      case XNodeUnion::XNNTanh: y[i] = std::tanh(v); break;
      case XNodeUnion::XNNLog: y[i] = std::log(v); break;
      case XNodeUnion::XNNSin: y[i] = std::sin(v); break;
      case XNodeUnion::XNNCos: y[i] = std::cos(v); break;
      case XNodeUnion::XNNReciprocalSquareRoot: y[i] = 1.f / std::sqrt(v); break;
      default: y[i] = v; break;
    }
  }
}

// y[..., M, N] = x[..., M, K] @ w[..., K, N]; w may be 2-D (shared by every batch). Each
// batch's product goes to the portable kernels' GEMM, except tiny ones (attention over a few
// tokens: 8x8x8), where its packing costs more than it saves (the transformer layer: 19.4 us
// a run through the GEMM, 15.4 us through the loop below). The loop takes eight output
// columns at a time in a local accumulator, a fixed trip count the compiler vectorises at
// -O2, each output summing its products in order of p.
void run_batch_matmul(const Shape& a, const Shape& b, const float* x, const float* w, float* y) {
  constexpr size_t kCols = 8;
  constexpr size_t kMinGemmWork = 4096;  // multiply-adds per batch
  const size_t m = a.dims[a.rank - 2], k = a.dims[a.rank - 1], n = b.dims[b.rank - 1];
  const size_t batches = a.numel() / (m * k == 0 ? 1 : m * k);
  const bool shared_w = b.rank == 2;
  for (size_t bt = 0; bt < batches; ++bt) {
    const float* xb = x + bt * m * k;
    const float* wb = shared_w ? w : w + bt * k * n;
    float* yb = y + bt * m * n;
    if (m * n * k >= kMinGemmWork) {
      kernels::portable::sgemm(
          kernels::portable::row_major_gemm(int64_t(m), int64_t(n), int64_t(k), xb, wb, yb), nullptr);
      continue;
    }
    for (size_t i = 0; i < m; ++i) {
      const float* xr = xb + i * k;
      float* yr = yb + i * n;
      size_t j = 0;
      for (; j + kCols <= n; j += kCols) {
        float acc[kCols] = {};
        for (size_t p = 0; p < k; ++p) {
          const float xv = xr[p];
          const float* wr = wb + p * n + j;
          for (size_t t = 0; t < kCols; ++t) acc[t] += xv * wr[t];
        }
        for (size_t t = 0; t < kCols; ++t) yr[j + t] = acc[t];
      }
      for (; j < n; ++j) {
        float acc = 0.f;
        for (size_t p = 0; p < k; ++p) acc += xr[p] * wb[p * n + j];
        yr[j] = acc;
      }
    }
  }
}

runtime::Error check_internal_node(const GraphModel& m, uint32_t index) {
  const NodeDesc& d = m.nodes[index];
  const XNNDatatype out_t = m.values[d.outputs[0]].datatype;
  // Data movement (transpose, concatenate, slice, copy) takes any datatype;
  // the math kernels are fp32 only.
  const bool math = d.type != XNodeUnion::XNNStaticTranspose &&
                    d.type != XNodeUnion::XNNStaticSlice && d.type != XNodeUnion::XNNCopy &&
                    d.type != XNodeUnion::XNNConcatenate2 && d.type != XNodeUnion::XNNConcatenate3 &&
                    d.type != XNodeUnion::XNNConcatenate4 && d.type != XNodeUnion::XNNConcatenate5;
  for (uint32_t i = 0; i < d.num_inputs; ++i) {
    const ValueInfo& v = m.values[d.inputs[i]];
    const bool ok = math ? v.datatype == XNNDatatype::xnn_datatype_fp32
                         : (v.datatype == out_t && v.quant == m.values[d.outputs[0]].quant);
    if (!ok || datatype_size(v.datatype) == 0) {
      return runtime::fail(runtime::Error::NotSupported,
                           "XNNPACK node %u (%s): runs in the delegate's own kernels (this "
                           "XNNPACK version lacks it), which need %s, got input %u of type %s",
                           index, node_type_name(d.type),
                           math ? "fp32" : "the same datatype in and out", i,
                           datatype_name(v.datatype));
    }
  }
  if (d.type == XNodeUnion::XNNBatchMatrixMultiply) {
    const ValueInfo &a = m.values[d.inputs[0]], &b = m.values[d.inputs[1]];
    bool same_batch = b.rank == a.rank;
    for (uint32_t i = 0; same_batch && i + 2 < a.rank; ++i) same_batch = a.dims[i] == b.dims[i];
    if (a.rank < 2 || !(b.rank == 2 || same_batch)) {
      return runtime::fail(runtime::Error::NotSupported,
                           "XNNPACK node %u (XNNBatchMatrixMultiply): ranks %u x %u, the "
                           "delegate's kernel needs equal batch dims or a 2-D right operand",
                           index, a.rank, b.rank);
    }
  }
  return runtime::Error::Ok;
}

void run_internal_node(const GraphModel& m, uint32_t index, const Shape* shapes,
                       void* const* data) {
  const NodeDesc& d = m.nodes[index];
  const size_t elem = datatype_size(m.values[d.outputs[0]].datatype);
  const Shape& in = shapes[d.inputs[0]];
  void* out = data[d.outputs[0]];
  switch (d.type) {
    case XNodeUnion::XNNStaticTranspose:
      run_transpose(d.node->xnode_union_as_XNNStaticTranspose(), in, elem, data[d.inputs[0]], out);
      return;
    case XNodeUnion::XNNStaticSlice:
      run_slice(d.node->xnode_union_as_XNNStaticSlice(), in, shapes[d.outputs[0]], elem,
                data[d.inputs[0]], out);
      return;
    case XNodeUnion::XNNCopy:
      std::memmove(out, data[d.inputs[0]], in.numel() * elem);
      return;
    case XNodeUnion::XNNBatchMatrixMultiply:
      run_batch_matmul(in, shapes[d.inputs[1]], static_cast<const float*>(data[d.inputs[0]]),
                       static_cast<const float*>(data[d.inputs[1]]), static_cast<float*>(out));
      return;
    case XNodeUnion::XNNConcatenate2: case XNodeUnion::XNNConcatenate3:
    case XNodeUnion::XNNConcatenate4: case XNodeUnion::XNNConcatenate5: {
      Shape in_shapes[kMaxNodeInputs];
      const void* srcs[kMaxNodeInputs];
      for (uint32_t i = 0; i < d.num_inputs; ++i) {
        in_shapes[i] = shapes[d.inputs[i]];
        srcs[i] = data[d.inputs[i]];
      }
      const auto* c = static_cast<const fb_xnnpack::_XNNCat*>(d.node->xnode_union());
      run_concat(c->axis(), in_shapes, srcs, d.num_inputs, elem, out);
      return;
    }
    default:
      run_unary_math(d.type, in.numel(), static_cast<const float*>(data[d.inputs[0]]),
                     static_cast<float*>(out));
      return;
  }
}

}  // namespace ember::backends::xnnpack
