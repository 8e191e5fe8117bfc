// What a .pte contains, for `inspect`: per method the inputs and outputs (dtype, sizes,
// dynamism), an operator histogram (KernelCall instructions per operator), the delegates
// (backend id, blob size), the named data, the memory plan (planned buffer sizes) next to a lower bound
// recomputed from the program (largest sum of 16-byte-aligned planned tensors live at one
// instruction; a tensor lives from the first to the last instruction that names it, inputs
// from 0, outputs to the end), and program-wide constant/segment sizes. Reads untrusted
// bytes: the FlatBuffer is verified first and bad files give a named Error.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "aot/ir/error.h"

namespace ember::aot {

struct PteTensorInfo {
  std::string dtype;          // "f32"
  std::vector<int32_t> sizes;  // upper bounds when dynamic
  bool dynamic = false;
  std::string to_string() const;  // "f32[1, 3]" (+ " dynamic")
};

struct PteMethodSummary {
  std::string name;
  std::vector<PteTensorInfo> inputs;   // non-tensor inputs show dtype "<tag>"
  std::vector<PteTensorInfo> outputs;
  std::map<std::string, int> op_histogram;  // "aten::add.out" -> count
  // The dtypes (ScalarType codes) of the tensors (and tensor-list items) each operator's calls
  // take or write: what a selective build by (operator, dtype) keeps.
  std::map<std::string, std::set<int>> op_dtypes;
  std::vector<std::pair<std::string, uint64_t>> delegates;  // (backend id, blob bytes)
  size_t num_values = 0;
  size_t num_instructions = 0;
  std::vector<int64_t> buffer_sizes;  // non_const_buffer_sizes (entry 0 = placeholder)
  uint64_t arena_bytes = 0;           // sum of the planned buffers
  uint64_t lower_bound = 0;
  size_t planned_tensors = 0;
};

struct PteSummary {
  uint64_t file_bytes = 0;
  bool extended_header = false;
  uint64_t constants_bytes = 0;  // constant segment (or deprecated constant_buffer) payload
  size_t num_constants = 0;      // constant entries, without the index-0 placeholder
  size_t num_segments = 0;
  size_t num_named_data = 0;      // named_data entries (e.g. XNNPACK weights by SHA-256 key)
  uint64_t named_data_bytes = 0;  // sum of their segments' sizes
  std::vector<PteMethodSummary> methods;
};

Result<PteSummary> summarize_pte(const std::vector<uint8_t>& bytes);
std::string pte_summary_text(const PteSummary& s);
std::string pte_summary_json(const PteSummary& s);

}  // namespace ember::aot
