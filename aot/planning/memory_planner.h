// Memory planning over plain inputs: given tensors with byte sizes and lifetimes
// (inclusive instruction-index ranges [first_use, last_use]), give each planned
// tensor a (buffer id, offset) so that no two tensors alive at the same
// instruction share bytes, and report the arena size next to the lower bound.
//
// The planner is an interface with one algorithm per subclass. MemoryPlanner::
// plan() does the common part: it validates the input, drops tensors that are
// not planned (graph inputs/outputs when PlanOptions says so), rounds every size
// up to `alignment` (16, as upstream's MemoryPlanningPass), asks the subclass to
// assign offsets, and fills the result. Tensors go into buffer 1 unless they ask
// for another one (PlanTensor::memory_id, 1-based as in the .pte; upstream puts
// shared mutable state in buffer 2); each buffer is planned on its own.
// buffer_sizes is [0, size of buffer 1, ...] and can be copied into
// EmitMethod::non_const_buffer_sizes as is; with the defaults it is [0, arena].
//
// Lower bound: per buffer, the largest, over instructions t, of the sum of the
// aligned sizes of its planned tensors alive at t (summed over buffers). No placement can use less,
// since those tensors must all be resident at once; a planner equal to it is optimal. Two tensors
// conflict when their ranges intersect (a.first_use <= b.last_use and b.first_use <= a.last_use),
// so an instruction's inputs and outputs never share.
#pragma once

#include <cstdint>
#include <vector>

#include "aot/ir/error.h"

namespace ember::aot {

struct PlanTensor {
  uint64_t size_bytes = 0;
  int32_t first_use = 0;   // instruction that defines it (graph inputs: 0)
  int32_t last_use = 0;    // last instruction that reads it, inclusive (outputs: the last)
  bool is_input = false;   // a graph input
  bool is_output = false;  // a graph output
  uint32_t memory_id = 1;  // 1-based buffer to plan it in
};

struct PlanOptions {
  bool plan_inputs = true;   // upstream's alloc_graph_input default
  bool plan_outputs = true;  // upstream's alloc_graph_output default
  uint64_t alignment = 16;   // power of two; sizes and offsets are multiples of it
};

struct TensorPlacement {
  bool planned = false;
  uint32_t memory_id = 0;  // 1-based buffer id when planned
  uint64_t offset = 0;     // bytes, a multiple of the alignment
};

struct MemoryPlan {
  std::vector<TensorPlacement> placements;  // one per input PlanTensor, same order
  std::vector<int64_t> buffer_sizes;        // [0, buffer 1, ...]: non_const_buffer_sizes
  uint64_t arena_size = 0;                  // sum of the planned buffers
  uint64_t lower_bound = 0;                 // sum of the per-buffer lower bounds
};

// One planned tensor as a subclass sees it: aligned size and its lifetime.
struct PlanItem {
  uint64_t size = 0;
  int32_t first_use = 0;
  int32_t last_use = 0;
};

class MemoryPlanner {
 public:
  virtual ~MemoryPlanner() = default;
  // The registry name, e.g. "greedy".
  virtual const char* name() const = 0;

  // Plans `tensors`. InvalidArgument for a bad alignment, last_use < first_use,
  // or a memory_id of 0 or above 64.
  Result<MemoryPlan> plan(const std::vector<PlanTensor>& tensors,
                            const PlanOptions& options) const;

 protected:
  // Writes one offset per item (a multiple of `alignment`; item sizes already are).
  virtual void assign_offsets(const std::vector<PlanItem>& items, uint64_t alignment,
                              std::vector<uint64_t>* offsets) const = 0;
};

// True when the two lifetimes share an instruction.
inline bool lifetimes_overlap(const PlanItem& a, const PlanItem& b) {
  return a.first_use <= b.last_use && b.first_use <= a.last_use;
}

// The lower bound described above, for already aligned items.
uint64_t live_size_lower_bound(const std::vector<PlanItem>& items);

}  // namespace ember::aot
