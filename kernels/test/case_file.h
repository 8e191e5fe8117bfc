// Reader for kernel case files (kernels/test/cases/*.case, format in cases/FORMAT.md).
//
// A case file holds reference calls of one ATen out-variant overload, produced by real PyTorch
// (refgen/kernel_cases/generate.py): per case the arguments in ATen schema order with defaults
// filled in and the out tensor(s) last, the expected outputs, an expected-error flag and a
// tolerance. The reader produces plain structs with no dependency on runtime types, so any
// kernel library's test harness can box them into its own values. Files are untrusted: every
// count, size and offset is checked and a bad file yields an error message, never a crash.
// Test-only code: it uses std::vector and std::string freely.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "runtime/core/scalar_type.h"

namespace ember::kernels::testing {

// Tensor dtypes in case files are ExecuTorch ScalarType codes (pte-format.md §1.6).
using runtime::ScalarType;

// The kind of one argument value; codes are the file's `kind` byte.
enum class ArgKind : uint8_t {
  Tensor = 0,
  Int = 1,
  Double = 2,
  Bool = 3,
  IntList = 4,
  DoubleList = 5,
  BoolList = 6,
  OptionalNone = 7,
  TensorList = 8,
  OptionalTensorList = 9,
  ScalarType = 10,
  String = 11,
  MemoryFormat = 12,
};

// A tensor: sizes are logical; data holds numel * element size bytes, little-endian, in the
// physical order given by dim_order (outermost first; [0,2,3,1] is channels-last).
struct TensorData {
  ScalarType dtype = ScalarType::Float;
  std::vector<int64_t> sizes;
  std::vector<uint8_t> dim_order;
  std::vector<uint8_t> data;

  int64_t numel() const;
  // Element strides implied by sizes and dim_order (logical dimension order).
  std::vector<int64_t> strides() const;
  bool is_contiguous_order() const;
};

// One argument. Only the member matching `kind` is meaningful.
struct CaseArg {
  std::string name;         // schema argument name, e.g. "self", "alpha", "out"
  std::string schema_type;  // torch's type string, e.g. "Tensor", "number" (Scalar), "List[int]"
  bool is_out = false;      // an out argument: tensor data is zero-filled by the reader
  bool is_mutated = false;  // an in-place op's mutable input (copy_ self): has data, and its
                            // value after the call is also an expected output
  ArgKind kind = ArgKind::OptionalNone;
  TensorData tensor;                                   // kTensor
  int64_t int_value = 0;                               // kInt
  double double_value = 0.0;                           // kDouble
  bool bool_value = false;                             // kBool
  std::vector<int64_t> int_list;                       // kIntList
  std::vector<double> double_list;                     // kDoubleList
  std::vector<uint8_t> bool_list;                      // kBoolList (0 or 1 each)
  std::vector<TensorData> tensor_list;                 // kTensorList
  std::vector<std::optional<TensorData>> optional_tensor_list;  // kOptionalTensorList
  ScalarType scalar_type = ScalarType::Float;           // kScalarType
  std::string string_value;                            // kString
  uint8_t memory_format = 0;  // kMemoryFormat: 0 contiguous, 1 preserve, 2 channels_last
};

// One reference call.
struct Case {
  std::string name;
  bool expect_error = false;  // PyTorch raised: the kernel must report an error
  double atol = 0.0;          // float outputs: |got - want| <= atol + rtol * |want|
  double rtol = 0.0;
  std::vector<CaseArg> args;         // schema order, defaults filled in, outs last
  // Expected values: each out tensor in order (TensorList outs flattened), then each mutated
  // input tensor in schema order.
  std::vector<TensorData> outputs;

  // Number of out tensors among args (a TensorList out counts each element).
  size_t num_out_tensors() const;
  // num_out_tensors() plus the mutated input tensors: outputs.size() unless expect_error.
  size_t num_expected_outputs() const;
  // The argument with this schema name, or nullptr.
  const CaseArg* find_arg(const std::string& arg_name) const;
};

struct CaseFile {
  uint32_t version = 0;
  std::string op_key;         // e.g. "aten::add.out"
  std::string torch_version;  // the PyTorch that produced the file
  std::vector<Case> cases;
};

constexpr uint32_t kCaseFileVersion = 1;
constexpr size_t kMaxCaseTensorDims = 16;

// Element size in bytes of a case dtype code, or 0 if the code is not one listed above.
size_t case_dtype_size(uint8_t code);
const char* arg_kind_name(ArgKind kind);

// "aten::add.out" -> "aten__add.out.case".
std::string case_file_name(const std::string& op_key);

// Value of the element at physical position `index` of t (index < numel), decoded from its
// dtype (float16 and bfloat16 included); integers are exact up to 2^53.
double case_element_as_double(const TensorData& t, size_t index);

// Compares a kernel's result against an expected output: dtype and sizes must be equal and
// every element, visited in logical order (the two dim orders may differ), must satisfy
// |got - want| <= atol + rtol * |want| for floating dtypes (NaN matches only NaN, an infinity
// only the same infinity) or be equal for integer and bool dtypes. Returns "" when they match,
// otherwise a message naming the first mismatching logical index with both values.
std::string compare_tensors(const TensorData& got, const TensorData& want, double atol,
                            double rtol);

// Parses a whole case file. Returns "" on success (and fills *out), otherwise a message that
// names the byte offset and what was expected versus found.
std::string parse_case_file(const uint8_t* data, size_t size, CaseFile* out);

// Reads and parses the file at path; errors as for parse_case_file.
std::string read_case_file(const std::string& path, CaseFile* out);

}  // namespace ember::kernels::testing
