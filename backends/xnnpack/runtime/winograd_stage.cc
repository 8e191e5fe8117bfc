// WinogradStage: node selection at init, GEMM operator and scratch per plan, the run; see
// winograd_stage.h.
#include "backends/xnnpack/runtime/winograd_stage.h"

#include <cpuinfo.h>

#include <algorithm>
#include <cstdlib>

#include "backends/xnnpack/runtime/blocked_conv.h"
#include "backends/xnnpack/runtime/define_node.h"
#include "backends/xnnpack/runtime/paired_conv.h"
#include "backends/xnnpack/runtime/winograd_conv.h"
#include "runtime/core/diagnostics.h"

// pthreadpool is not built with ThreadSanitizer: under TSan the transforms state the hand-off
// and join edges it provides (as runtime/threadpool/pthreadpool_thread_pool.cc does).
#if defined(__SANITIZE_THREAD__)
#define EMBER_WINOGRAD_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define EMBER_WINOGRAD_TSAN 1
#endif
#endif
#ifdef EMBER_WINOGRAD_TSAN
#include <sanitizer/tsan_interface.h>
#define EMBER_WINOGRAD_ACQUIRE(p) __tsan_acquire(p)
#define EMBER_WINOGRAD_RELEASE(p) __tsan_release(p)
#else
#define EMBER_WINOGRAD_ACQUIRE(p) (void)(p)
#define EMBER_WINOGRAD_RELEASE(p) (void)(p)
#endif

namespace ember::backends::xnnpack {

using fb_xnnpack::XNodeUnion;
using runtime::Error;
using runtime::fail;

namespace {

// The convolution's attributes allow the transforms: see winograd_stage.h. Sets *pad.
bool winograd_shape(const GraphModel& m, const NodeDesc& d, uint32_t* pad) {
  if (d.type != XNodeUnion::XNNConv2d || d.num_inputs < 2 || d.num_outputs != 1) return false;
  const auto* c = conv_of(d);
  if (c == nullptr || c->groups() != 1 || c->kernel_height() != 3 || c->kernel_width() != 3 ||
      c->subsampling_height() != 1 || c->subsampling_width() != 1 || c->dilation_height() != 1 ||
      c->dilation_width() != 1 || c->flags() != 0) {
    return false;
  }
  const uint32_t p = c->padding_top();
  if (p > 1 || c->padding_bottom() != p || c->padding_left() != p || c->padding_right() != p) {
    return false;
  }
  const uint32_t ci = c->group_input_channels(), co = c->group_output_channels();
  if (d.inputs[0] == kInvalidId || d.inputs[1] == kInvalidId || d.outputs[0] == kInvalidId) return false;
  const ValueInfo& in = m.values[d.inputs[0]];
  const ValueInfo& w = m.values[d.inputs[1]];
  const ValueInfo& out = m.values[d.outputs[0]];
  if (!is_plain_f32(in) || !is_plain_f32(w) || !is_plain_f32(out) || w.data == nullptr || !float_aligned(w.data) || in.data != nullptr) return false;
  if (in.rank != 4 || out.rank != 4 || in.dims[3] != ci || out.dims[3] != co) return false;
  if (w.rank != 4 || w.dims[0] != co || w.dims[1] != 3 || w.dims[2] != 3 || w.dims[3] != ci ||
      w.data_size / sizeof(float) < size_t{co} * 9 * ci) {  // ci, co < 2^32: no wrap in 64 bits
    return false;
  }
  if (d.num_inputs > 2 && d.inputs[2] != kInvalidId) {
    const ValueInfo& b = m.values[d.inputs[2]];
    if (!is_plain_f32(b) || b.data == nullptr || !float_aligned(b.data) || b.data_size < size_t{co} * sizeof(float)) return false;
  }
  *pad = p;
  return true;
}

// Tiles of size m cover at least 3/4 real output pixels (winograd_tile()'s coverage test) and
// number at least kWinogradMinTiles.
bool covers(uint32_t m, size_t oh, size_t ow) {
  const uint64_t th = (oh + m - 1) / m, tw = (ow + m - 1) / m;
  return oh > 0 && ow > 0 && th * tw >= kWinogradMinTiles &&
         uint64_t{oh} * ow * 4 >= th * m * tw * m * 3;
}

}  // namespace

uint64_t l3_cache_bytes() {
  if (!cpuinfo_initialize()) return 0;
  const cpuinfo_cache* l3 = cpuinfo_get_l3_cache(0);
  return l3 == nullptr ? 0 : l3->size;
}

uint64_t winograd_min_tiles(const GraphModel& m, uint64_t l3) {
  uint64_t bytes = 0;
  for (uint32_t v = 0; v < m.num_values; ++v) {
    if (m.values[v].data != nullptr) bytes += m.values[v].data_size;
  }
  return l3 != 0 && bytes <= l3 / 2 ? kWinogradMinTiles : kWinogradMinTilesFromMemory;
}

Error prepare_winograd_convs(GraphModel* m, runtime::MemoryAllocator* allocator, bool enabled,
                             bool pooled) {
  if (!enabled || !winograd_available()) return Error::Ok;
  const uint32_t nr = f32_gemm_tile_width();
  const uint64_t l2 = l2_cache_bytes();
  const uint64_t min_tiles = winograd_min_tiles(*m, l3_cache_bytes());
  for (uint32_t i = 0; i < m->num_nodes; ++i) {
    NodeDesc& d = m->nodes[i];
    uint32_t pad = 0;
    if (d.runner != NodeRunner::Subgraph || !winograd_shape(*m, d, &pad)) continue;
    const auto* c = conv_of(d);
    const uint32_t ci = c->group_input_channels(), co = c->group_output_channels();
    const ValueInfo& out = m->values[d.outputs[0]];
    if (out.dims[1] > UINT32_MAX || out.dims[2] > UINT32_MAX) continue;
    if (pooled && co < kWinogradMinOutputChannelsPooled) continue;
    const uint32_t tile =
        winograd_tile(ci, co, uint32_t(out.dims[1]), uint32_t(out.dims[2]), nr, l2, min_tiles);
    if (tile == 0) continue;
    const size_t n = tile + 2;
    float* u = allocator->allocate_list<float>(n * n * ci * co);
    // An optimization only: an allocator too small for the transformed filter keeps the node in
    // its subgraph rather than failing a program that ran before.
    if (u == nullptr) continue;
    winograd_transform_filter(tile, static_cast<const float*>(m->values[d.inputs[1]].data), ci, co, u);
    d.winograd_tile = tile;
    d.winograd_filter = u;
    d.runner = NodeRunner::Winograd;
  }
  return Error::Ok;
}

WinogradStage::~WinogradStage() {
  if (gemm_ != nullptr) xnn_delete_operator(gemm_);
  std::free(v_);
  std::free(mo_);
}

bool WinogradStage::applies(const GraphModel& m, uint32_t index, const Shape* shapes) {
  const NodeDesc& d = m.nodes[index];
  uint32_t pad = 0;
  if (d.winograd_filter == nullptr || !winograd_shape(m, d, &pad)) return false;
  const Shape& in = shapes[d.inputs[0]];
  const Shape& out = shapes[d.outputs[0]];
  const auto* c = conv_of(d);
  if (in.rank != 4 || out.rank != 4 || in.dims[0] == 0 || in.dims[0] != out.dims[0] ||
      in.dims[3] != c->group_input_channels() || out.dims[3] != c->group_output_channels()) {
    return false;  // XNNPACK's convolution names the mismatch
  }
  if (in.dims[1] > UINT32_MAX || in.dims[2] > UINT32_MAX || in.dims[0] > UINT32_MAX) return false;
  if (in.dims[1] + 2 * pad < 3 || in.dims[2] + 2 * pad < 3) return false;
  if (out.dims[1] != in.dims[1] + 2 * pad - 2 || out.dims[2] != in.dims[2] + 2 * pad - 2) return false;
  return covers(d.winograd_tile, out.dims[1], out.dims[2]);
}

Error WinogradStage::build(const GraphModel& m, uint32_t index, const Shape* shapes,
                           pthreadpool_t pool) {
  const NodeDesc& d = m.nodes[index];
  const auto* c = conv_of(d);
  node_ = index;
  m_ = d.winograd_tile;
  pad_ = c->padding_top();
  input_ = d.inputs[0];
  output_ = d.outputs[0];
  const Shape& in = shapes[input_];
  const Shape& out = shapes[output_];
  batch_ = uint32_t(in.dims[0]);
  h_ = uint32_t(in.dims[1]);
  w_ = uint32_t(in.dims[2]);
  ci_ = c->group_input_channels();
  oh_ = uint32_t(out.dims[1]);
  ow_ = uint32_t(out.dims[2]);
  co_ = c->group_output_channels();
  bias_ = d.num_inputs > 2 && d.inputs[2] != kInvalidId
              ? static_cast<const float*>(m.values[d.inputs[2]].data) : nullptr;
  lo_ = d.output_min;
  hi_ = d.output_max;
  pool_ = pool;
  tiles_ = winograd_tiles(m_, oh_, ow_);
  // Tile blocks of at most kWinogradBlockBytes, equal in size (the last may run past the grid:
  // those tiles are zeros in and written nowhere out).
  const uint64_t n2 = uint64_t{m_ + 2} * (m_ + 2);
  const uint64_t per_tile = n2 * (ci_ + co_) * sizeof(float);
  const uint64_t fit = std::max<uint64_t>(1, std::min<uint64_t>(tiles_, kWinogradBlockBytes / per_tile));
  const uint64_t blocks = (tiles_ + fit - 1) / fit;
  block_ = uint32_t((tiles_ + blocks - 1) / blocks);
  const size_t v_bytes = (n2 * block_ * ci_ * sizeof(float) + XNN_EXTRA_BYTES + 63) / 64 * 64;
  const size_t mo_bytes = (n2 * block_ * co_ * sizeof(float) + XNN_EXTRA_BYTES + 63) / 64 * 64;
  v_ = static_cast<float*>(std::aligned_alloc(64, v_bytes));
  mo_ = static_cast<float*>(std::aligned_alloc(64, mo_bytes));
  if (v_ == nullptr || mo_ == nullptr) {
    return fail(Error::DelegateMemoryAllocationFailed,
                "XNNPACK node %u (Winograd convolution): no memory for %zu bytes of tile scratch",
                index, v_bytes + mo_bytes);
  }
  const size_t batch = size_t(n2);
  size_t ws = 0, wa = 0;
  xnn_status st = xnn_create_batch_matrix_multiply_nc_f32_const_weights(
      batch, ci_, co_, d.winograd_filter, 0, &gemm_);
  const char* fn = "xnn_create_batch_matrix_multiply_nc_f32_const_weights";
  if (st == xnn_status_success) {
    fn = "xnn_reshape_batch_matrix_multiply_nc_f32";
    st = xnn_reshape_batch_matrix_multiply_nc_f32(gemm_, 1, &batch, &batch, block_, ci_, co_, &ws,
                                                  &wa, pool);
  }
  if (st == xnn_status_success && ws != 0) {
    return fail(Error::NotSupported,
                "XNNPACK node %u (Winograd convolution): the GEMM asks for %zu bytes of workspace",
                index, ws);
  }
  if (st == xnn_status_success) {
    fn = "xnn_setup_batch_matrix_multiply_nc_f32";
    st = xnn_setup_batch_matrix_multiply_nc_f32(gemm_, nullptr, v_, nullptr, mo_);
  }
  if (st != xnn_status_success) {
    return fail(Error::NotSupported, "XNNPACK node %u (Winograd convolution): %s failed with %s",
                index, fn, xnn_status_name(st));
  }
  return Error::Ok;
}

namespace {

struct TransformTask {
  uint32_t m, h, w, ci, pad, oh, ow, co, count;
  uint64_t t0;
  const float* x;
  float* v;
  const float* mo;
  const float* bias;
  float lo, hi;
  float* y;
};

void input_task(void* p, size_t k, size_t n) {
  EMBER_WINOGRAD_ACQUIRE(p);
  const auto* t = static_cast<const TransformTask*>(p);
  winograd_input_transform_range(t->m, t->x, t->h, t->w, t->ci, t->pad, t->t0, t->count,
                                 uint32_t(k), uint32_t(k + n), t->v);
  EMBER_WINOGRAD_RELEASE(p);
}

void output_task(void* p, size_t k, size_t n) {
  EMBER_WINOGRAD_ACQUIRE(p);
  const auto* t = static_cast<const TransformTask*>(p);
  winograd_output_transform_range(t->m, t->mo, t->bias, t->lo, t->hi, t->oh, t->ow, t->co, t->co,
                                  t->t0, t->count, uint32_t(k), uint32_t(k + n), t->y);
  EMBER_WINOGRAD_RELEASE(p);
}

// Runs `task` over the block's tiles on the pool, `chunk` tiles per call.
void parallelize(pthreadpool_t pool, pthreadpool_task_1d_tile_1d_t task, TransformTask* t,
                 size_t chunk) {
  EMBER_WINOGRAD_RELEASE(t);
  pthreadpool_parallelize_1d_tile_1d(pool, task, t, t->count, chunk, 0);
  EMBER_WINOGRAD_ACQUIRE(t);
}

}  // namespace

Error WinogradStage::run(void* const* data) const {
  const float* x = static_cast<const float*>(data[input_]);
  float* y = static_cast<float*>(data[output_]);
  if (x == nullptr || y == nullptr) {
    return fail(Error::InvalidState, "XNNPACK node %u (Winograd convolution): unbound value", node_);
  }
  const size_t threads = pool_ == nullptr ? 1 : pthreadpool_get_threads_count(pool_);
  const size_t chunk = std::max<size_t>(1, (block_ + 4 * threads - 1) / (4 * threads));
  TransformTask t{m_, h_, w_, ci_, pad_, oh_, ow_, co_, block_, 0, nullptr, v_, mo_,
                  bias_, lo_, hi_, nullptr};
  for (uint32_t b = 0; b < batch_; ++b) {
    t.x = x + size_t{b} * h_ * w_ * ci_;
    t.y = y + size_t{b} * oh_ * ow_ * co_;
    for (uint64_t t0 = 0; t0 < tiles_; t0 += block_) {
      t.t0 = t0;
      if (threads > 1) {
        parallelize(pool_, input_task, &t, chunk);
      } else {
        input_task(&t, 0, block_);
      }
      const xnn_status st = xnn_run_operator(gemm_, pool_);
      if (st != xnn_status_success) {
        return fail(Error::Internal, "XNNPACK node %u (Winograd convolution): the GEMM failed with %s",
                    node_, xnn_status_name(st));
      }
      if (threads > 1) {
        parallelize(pool_, output_task, &t, chunk);
      } else {
        output_task(&t, 0, block_);
      }
    }
  }
  return Error::Ok;
}

}  // namespace ember::backends::xnnpack
