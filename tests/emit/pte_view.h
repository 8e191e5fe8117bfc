// Test-only reading of a .pte: the container (header, verified FlatBuffer,
// segments) through the runtime's PteContainer, the fields through the generated
// schema accessors (not through the emitter under test): resolves a tensor's
// constant or mutable bytes, a delegate's blob and a segment's bytes, lifts a
// whole file into an EmitProgram (for re-emission), and compares two files
// field by field.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "aot/emit/emit_program.h"
#include "runtime/executor/pte_container.h"
#include "schema/program_generated.h"

namespace ember::aot::emit_test {

class PteView {
 public:
  // `bytes` must outlive the view. ok() is false if the container does not open
  // (bad header or layout, or the FlatBuffer does not verify).
  explicit PteView(const std::vector<uint8_t>& bytes);
  bool ok() const { return program_ != nullptr; }
  const executorch_flatbuffer::Program* program() const { return program_; }
  bool has_header() const { return container_.layout().has_extended_header; }
  uint64_t segment_base() const { return container_.layout().segment_base_offset; }

  std::vector<uint8_t> segment_bytes(uint32_t index) const;
  // The constant bytes of a constant tensor (nbytes of its sizes), or empty.
  std::vector<uint8_t> constant_bytes(const executorch_flatbuffer::Tensor* t) const;
  // The initial bytes of a planned tensor with data_buffer_idx > 0, or empty.
  std::vector<uint8_t> mutable_bytes(const executorch_flatbuffer::Tensor* t) const;
  std::vector<uint8_t> delegate_blob(const executorch_flatbuffer::BackendDelegate* d) const;

 private:
  runtime::PteContainer container_;
  const executorch_flatbuffer::Program* program_ = nullptr;
};

// Rebuilds the program description of a file (methods in file order, constants
// and mutable data by index, delegate blobs resolved, named data with alignment
// 16). Returns false with a reason when the file uses something it cannot lift.
bool lift_pte(const PteView& view, EmitProgram* out, std::string* why);

// Field-by-field differences that matter to the runtime (values, tensors and
// their resolved data, instructions, operators, delegates and their blobs,
// buffers, named data). Empty when equivalent.
std::vector<std::string> compare_ptes(const PteView& a, const PteView& b);

uint64_t tensor_nbytes(const executorch_flatbuffer::Tensor* t);

}  // namespace ember::aot::emit_test
