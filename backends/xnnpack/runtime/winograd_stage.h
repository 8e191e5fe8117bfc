// WinogradStage: a stride-1 3x3 f32 convolution run by the delegate as a Winograd F(m x m, 3x3)
// convolution (winograd_conv.h) between two XNNPACK subgraph stages.
//
// prepare_winograd_convs() picks the nodes once per executor, before the partition (so the
// partition never depends on shapes): groups 1, 3x3 kernel, stride and dilation 1, the same
// padding (0 or 1) on every side, static f32 filter (and bias), f32 activations, no flags, where
// winograd_tile() takes the serialized shapes on this CPU (AVX-512F: winograd_available()) with
// winograd_min_tiles().
// Each such node gets NodeRunner::Winograd (a stage of its own: its input and output become
// boundary values with delegate buffers) and its transformed filter from the executor's
// allocator. A plan builds a WinogradStage per such node: one XNNPACK batch-matrix-multiply
// operator over the (m + 2)² transformed planes (its weights packed at creation) and the scratch
// of one tile block, both at plan time, so run() allocates nothing. A plan whose shapes fail the
// tile rule (fewer than 3/4 real pixels in the tiles, or fewer than kWinogradMinTiles) runs the node as a one-node XNNPACK
// subgraph instead, the plain convolution (ShapePlan).
//
// Per image and tile block: input transform -> GEMMs -> output transform with bias and the
// node's output_min/max clamp. With a pool, the transforms are split over the block's tiles and
// the GEMMs run on it.
#pragma once

#include <pthreadpool.h>
#include <xnnpack.h>

#include <cstdint>

#include "backends/xnnpack/runtime/graph_model.h"
#include "backends/xnnpack/runtime/shape_inference.h"
#include "runtime/core/memory_allocator.h"
#include "runtime/core/result.h"

namespace ember::backends::xnnpack {

// Bytes of one tile block's transformed input plus GEMM output (both stay in L2).
constexpr uint64_t kWinogradBlockBytes = uint64_t{768} << 10;

// Fewest tiles per image for the Winograd form: each tile block's GEMM reads the whole
// transformed filter ((m + 2)²/9 x the direct filter's bytes), so with few tiles the layer is
// bound by reading those bytes. When the graph's constants fit in half of L3 they stay cached
// from run to run and 4 tiles pay (SqueezeNet's 32 -> 128 at 7x7); otherwise the weights come
// from memory every run and it takes 16 (DenseNet-121's 128 -> 32 at 4x4 and 2x2, one tile each,
// made the model 14% slower).
constexpr uint64_t kWinogradMinTiles = 4;
constexpr uint64_t kWinogradMinTilesFromMemory = 16;

// Bytes of this CPU's L3 cache (cpuinfo, the first one), 0 when unknown.
uint64_t l3_cache_bytes();

// kWinogradMinTiles or kWinogradMinTilesFromMemory for this graph on a CPU with `l3` bytes of
// L3 (0: unknown, taken as from memory).
uint64_t winograd_min_tiles(const GraphModel& model, uint64_t l3);

// With a pool of more than one thread, only convolutions with at least this many output
// channels: at two threads the 32-output layers (DenseNet-121's 128 -> 32) ran slower as
// Winograd than in XNNPACK's threaded direct form (DenseNet 1.06 -> 1.15 of ONNX Runtime),
// while the wider ones kept their gain (decision 261).
constexpr uint32_t kWinogradMinOutputChannelsPooled = 64;

// Marks the nodes that run as Winograd convolutions (see above) and fills their winograd_tile
// and winograd_filter; does nothing when `enabled` is false or the CPU lacks AVX-512F. `pooled`:
// the delegate has a pool of more than one thread (kWinogradMinOutputChannelsPooled applies). A
// node whose transformed filter does not fit in the allocator stays in its subgraph.
runtime::Error prepare_winograd_convs(GraphModel* model, runtime::MemoryAllocator* allocator,
                                      bool enabled, bool pooled);

class WinogradStage {
 public:
  WinogradStage() = default;
  ~WinogradStage();
  WinogradStage(const WinogradStage&) = delete;
  WinogradStage& operator=(const WinogradStage&) = delete;

  // True when node `index` (a NodeRunner::Winograd node) runs as Winograd with these shapes.
  static bool applies(const GraphModel& model, uint32_t index, const Shape* shapes);

  // Creates the GEMM operator and the block scratch for node `index` with these shapes
  // (applies() must hold); `pool` may be null.
  runtime::Error build(const GraphModel& model, uint32_t index, const Shape* shapes,
                       pthreadpool_t pool);

  // Runs the convolution from data[input] into data[output].
  runtime::Error run(void* const* data) const;

 private:
  uint32_t node_ = 0;
  uint32_t m_ = 0;
  uint32_t batch_ = 0, h_ = 0, w_ = 0, ci_ = 0, oh_ = 0, ow_ = 0, co_ = 0, pad_ = 0;
  uint32_t input_ = 0, output_ = 0;
  const float* bias_ = nullptr;
  float lo_ = 0.f, hi_ = 0.f;
  uint64_t tiles_ = 0;
  uint32_t block_ = 0;
  float* v_ = nullptr;   // [n²][block][CI]
  float* mo_ = nullptr;  // [n²][block][CO]
  xnn_operator_t gemm_ = nullptr;
  pthreadpool_t pool_ = nullptr;
};

}  // namespace ember::backends::xnnpack
