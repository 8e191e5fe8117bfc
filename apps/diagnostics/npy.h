// NumPy .npy files (format version 1.0, 2.0 and 3.0), read for executor_runner's --inputs
// and --expected and written for --dump_intermediates. Parsed here, not by a library: the
// magic "\x93NUMPY", the version, the header length, then the header, a Python dict literal
// with exactly 'descr', 'fortran_order' and 'shape'. Every file is untrusted: each problem is
// a named error (InvalidArgument for a malformed file, NotSupported for a valid one Ember
// cannot take: Fortran order, big-endian or an unmapped dtype), never a crash.
//
//   Result<NpyArray> a = read_npy("x.npy");   // a->dtype, a->shape, a->data
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "runtime/core/result.h"
#include "runtime/core/scalar_type.h"
#include "runtime/core/span.h"

namespace ember::runtime {

// Largest header parse_npy accepts (numpy itself caps it at 10,000 bytes by default).
constexpr size_t kMaxNpyHeader = 65536;

struct NpyHeader {
  ScalarType dtype = ScalarType::Float;
  std::vector<int32_t> shape;  // () is rank 0: one element
  size_t data_offset = 0;      // where the elements start
  size_t data_size = 0;        // numel * element size, == file size - data_offset
};

// Parses and checks `size` bytes of a whole .npy file (`what` names it in errors): the
// header, and that exactly numel * element size bytes of data follow it.
Result<NpyHeader> parse_npy(const uint8_t* data, size_t size, const char* what);

struct NpyArray {
  NpyHeader header;
  std::vector<uint8_t> bytes;  // the whole file; data at header.data_offset
  const uint8_t* data() const { return bytes.data() + header.data_offset; }
};

// Reads and parses the regular file `path` (AccessFailed when it cannot be read).
Result<NpyArray> read_npy(const std::string& path);

// The "<f4"-style descr of `dtype`, or nullptr when .npy has none (BFloat16, quantized,
// complex, bit types).
const char* npy_descr(ScalarType dtype);

// A version 1.0 header for a C-order array (padded so the data starts at a multiple of
// 64 bytes); empty when npy_descr(dtype) is null.
std::string npy_header(ScalarType dtype, Span<const int32_t> shape);

// Writes header + `nbytes` of `data` to `path` (AccessFailed / NotSupported on failure).
Error write_npy(const std::string& path, ScalarType dtype, Span<const int32_t> shape, const void* data,
                size_t nbytes);

// Element `i` of `data` (elements of `dtype`) as a double: floats, integers and bools; 0 for
// types without a plain numeric reading (complex, quantized, bit types).
double element_value(ScalarType dtype, const void* data, size_t i);

// True when `path` ends in ".npy".
bool is_npy_path(const std::string& path);

}  // namespace ember::runtime
