// Writes a bundled program (.bpte, ExecuTorch's "BP08" FlatBuffer, schema/
// bundled_program.fbs): a finished .pte carried byte for byte, plus one test suite per
// method, each a list of cases (the inputs of one run and the outputs it should give).
// The expected outputs come from the caller (e.g. PyTorch's reference outputs): nothing
// here runs the program. Tensor data is written 16-aligned and the program 32-aligned in
// the file, as upstream's serializer does; the version field is 2, upstream's current one.
//
//   BundledTestSuite suite{"forward", {{{input0}, {expected0}}}};
//   Result<std::vector<uint8_t>> bpte = write_bundled_program(pte_bytes, {suite});
//
// Checks before writing (InvalidArgument naming the method, case and value): a non-empty
// .pte with the "ET12" identifier, at least one suite, unique non-empty method names, and
// every tensor's data exactly numel * element size bytes with a dim order that is a
// permutation (an empty dim order is written as the contiguous one).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "aot/ir/error.h"
#include "runtime/core/scalar_type.h"

namespace ember::aot {

// One input or expected output of a case (the schema's ValueUnion).
struct BundledIoValue {
  enum class Kind { Tensor, Int, Bool, Double };
  Kind kind = Kind::Tensor;
  runtime::ScalarType dtype = runtime::ScalarType::Float;  // Tensor
  std::vector<int32_t> sizes;                              // Tensor
  std::vector<uint8_t> dim_order;                          // Tensor; empty = contiguous
  std::vector<uint8_t> data;                               // Tensor: dense bytes
  int64_t int_value = 0;                                   // Int
  bool bool_value = false;                                 // Bool
  double double_value = 0.0;                               // Double
};

struct BundledTestCase {
  std::vector<BundledIoValue> inputs;
  std::vector<BundledIoValue> expected_outputs;
};

struct BundledTestSuite {
  std::string method;
  std::vector<BundledTestCase> cases;
};

// The version written into BundledProgram.version.
inline constexpr uint32_t kBundledProgramVersion = 2;

Result<std::vector<uint8_t>> write_bundled_program(const std::vector<uint8_t>& pte,
                                                   const std::vector<BundledTestSuite>& suites);

}  // namespace ember::aot
