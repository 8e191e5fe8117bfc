// The reader of bundled programs (.bpte, FlatBuffer identifier "BP08"): a program
// file (.pte) carried as bytes, plus test suites, one per method, each a list of test
// cases (the inputs of one run and the outputs it should produce). ExecuTorch's
// BundledProgram format; schema/bundled_program.fbs describes it, docs/profiling.md
// ("Bundled programs") shows the tools around it.
//
//   Result<BundledProgram> b = BundledProgram::open(bytes, size);
//   Span<const uint8_t> pte = b->program();          // load it like any .pte
//   for (size_t s = 0; s < b->num_suites(); ++s)
//     for (size_t c = 0; c < b->num_cases(s); ++c)
//       BundledValue x = b->input(s, c, 0);           // views into `bytes`
//
// Rules: the file is untrusted. open() runs the FlatBuffers verifier and then checks
// every value once (a known kind; a tensor's dtype, rank <= 16, sizes >= 0, dim_order a
// permutation, data exactly numel * element size bytes, no overflow), so the accessors
// after it cannot fail on a valid index (indices are the caller's: trusted, checked in
// debug builds). Nothing here allocates, throws or aborts; errors are Error values
// (InvalidProgram for a malformed file) with a message from fail(). Nothing is owned:
// every span and string points into the caller's bytes, which must outlive the
// BundledProgram. Tensor data is 16-aligned relative to the file start, so hand in
// bytes aligned to 32 (as the inner program wants) when tensors are used in place.
// This header does not include the generated schema.
#pragma once

#include <cstddef>
#include <cstdint>

#include "runtime/core/result.h"
#include "runtime/core/scalar_type.h"
#include "runtime/core/span.h"
#include "runtime/core/tensor.h"

namespace ember::runtime {

// The file identifier of a bundled program, at bytes 4..8.
inline constexpr char kBundledProgramIdentifier[] = "BP08";

// What one bundled input or expected output holds (the schema's ValueUnion members).
enum class BundledValueKind : uint8_t { Tensor, Int, Bool, Double };

// One input or expected output, viewing the file's bytes. For a tensor: `dtype`,
// `sizes` (logical), `dim_order` (memory order; empty means contiguous) and `data`
// (dense, numel * element size bytes, possibly unaligned: read elements with memcpy);
// for a scalar: the matching *_value field.
struct BundledValue {
  BundledValueKind kind = BundledValueKind::Int;
  ScalarType dtype = ScalarType::Undefined;
  Span<const int32_t> sizes;
  Span<const uint8_t> dim_order;
  Span<const uint8_t> data;
  int64_t int_value = 0;
  bool bool_value = false;
  double double_value = 0.0;
};

class BundledProgram final {
 public:
  BundledProgram() = default;

  // True when `size` bytes at `data` carry the "BP08" identifier (nothing else is
  // checked): lets a tool say "this is a bundled program" instead of "bad identifier".
  static bool has_identifier(const void* data, size_t size);

  // Verifies a whole .bpte held in memory (see the rules above). InvalidProgram names
  // what is wrong: a short file, another identifier (an "ET12" program is called one),
  // a failed verifier, a missing inner program, a suite without a method name, or the
  // value (suite, case, input/expected output, index) that breaks a tensor rule.
  static Result<BundledProgram> open(const void* data, size_t size);

  // The schema version the writer recorded (upstream writes 2).
  uint32_t version() const;
  // The inner program: a complete .pte file.
  Span<const uint8_t> program() const;

  size_t num_suites() const;
  // The method suite `suite` tests ("" when absent: open() rejects that).
  const char* method_name(size_t suite) const;
  // The suite for `method`; NotFound (with a message) when there is none.
  Result<size_t> find_suite(const char* method) const;
  size_t num_cases(size_t suite) const;
  size_t num_inputs(size_t suite, size_t test_case) const;
  size_t num_expected_outputs(size_t suite, size_t test_case) const;
  BundledValue input(size_t suite, size_t test_case, size_t i) const;
  BundledValue expected_output(size_t suite, size_t test_case, size_t i) const;

 private:
  const void* root_ = nullptr;  // bundled_program_flatbuffer::BundledProgram
};

// Number of elements of a bundled tensor (product of its sizes; 1 for rank 0).
size_t bundled_numel(const BundledValue& value);

}  // namespace ember::runtime
