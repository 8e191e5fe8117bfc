// TensorSpec: what the AoT toolchain knows about one tensor value.
//
// dtype (ExecuTorch codes), sizes that may be symbolic, the dim order implied by the
// strides, optional constant data (parameters, buffers, lifted constants; owned through
// a shared_ptr so passes can copy specs cheaply), and the fields the memory planner fills
// in later (lifetime and allocation). Constant bytes are always C-contiguous in the
// declared sizes, little-endian.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "aot/ir/scalar_type.h"
#include "aot/ir/sym_int.h"

namespace ember::aot {

// Immutable owned bytes of a constant tensor.
struct ConstantData {
  std::vector<uint8_t> bytes;
  std::string source;  // where it came from, e.g. "state_dict:conv.weight"
};

struct TensorSpec {
  ScalarType dtype = ScalarType::Undefined;
  std::vector<SymInt> sizes;
  std::vector<SymInt> strides;     // as exported (elements); may be symbolic
  std::vector<uint8_t> dim_order;  // dims from outermost to innermost; 0..n-1 = contiguous
  int64_t storage_offset = 0;
  bool requires_grad = false;

  // Constant payload (nullptr for activations and runtime inputs).
  std::shared_ptr<const ConstantData> constant;

  // Filled in by the memory planner (-1 = not planned).
  int32_t lifetime_begin = -1;  // index of the first node that touches the value
  int32_t lifetime_end = -1;    // index of the last node that touches the value
  int32_t mem_id = -1;          // planned buffer id (1-based as in .pte), -1 = unplanned
  int64_t mem_offset = -1;      // byte offset inside that buffer

  size_t rank() const { return sizes.size(); }
  bool is_static() const;
  // Product of static sizes; -1 if any size is symbolic or the product overflows.
  int64_t static_numel() const;
  // static_numel() * element_size(dtype); -1 if unknown.
  int64_t static_nbytes() const;
  // "f32[1, 3, s0]" (dim order is appended as "{0,2,3,1}" when not contiguous).
  std::string to_string() const;
};

// Dim order (outermost first) implied by static strides: dims sorted by decreasing stride,
// ties keep the original order. Symbolic strides give the identity order.
std::vector<uint8_t> dim_order_from_strides(const std::vector<SymInt>& sizes,
                                            const std::vector<SymInt>& strides);

}  // namespace ember::aot
