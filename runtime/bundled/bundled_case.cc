// set_bundled_inputs and check_bundled_outputs; see bundled_case.h.
#include "runtime/bundled/bundled_case.h"

#include <cmath>
#include <cstdio>
#include <cstring>

#include "runtime/core/diagnostics.h"
#include "runtime/core/half.h"

namespace ember::runtime {
namespace {

// Element i of dense `data` of `dtype` as a double (bytes read with memcpy: the file's
// data may be unaligned). Only for the floating-point dtypes.
double float_at(const uint8_t* data, ScalarType dtype, size_t i) {
  switch (dtype) {
    case ScalarType::Double: {
      double v;
      std::memcpy(&v, data + i * 8, 8);
      return v;
    }
    case ScalarType::Half: {
      uint16_t bits;
      std::memcpy(&bits, data + i * 2, 2);
      return Half::to_float(bits);
    }
    case ScalarType::BFloat16: {
      BFloat16 v;
      std::memcpy(&v, data + i * 2, 2);
      return float(v);
    }
    default: {
      float v;
      std::memcpy(&v, data + i * 4, 4);
      return v;
    }
  }
}

bool is_compared_as_float(ScalarType dtype) {
  return dtype == ScalarType::Float || dtype == ScalarType::Double || dtype == ScalarType::Half ||
         dtype == ScalarType::BFloat16;
}

// The float rule of the header for one pair; `error` is |a - e| (inf when only one is NaN).
bool close(double actual, double expected, const BundledTolerance& tol, double* error) {
  if (std::isnan(actual) || std::isnan(expected)) {
    *error = std::isnan(actual) && std::isnan(expected) ? 0.0 : INFINITY;
    return *error == 0.0;
  }
  if (std::isinf(actual) || std::isinf(expected)) {
    *error = actual == expected ? 0.0 : INFINITY;
    return actual == expected;
  }
  *error = std::fabs(actual - expected);
  return *error <= tol.atol + tol.rtol * std::fabs(expected);
}

void note(BundledCaseResult* r, size_t output, double error, size_t element, bool ok) {
  if (!ok) {
    if (r->mismatched == 0 && r->max_abs_error == 0.0) r->worst_output = output;
    ++r->mismatched;
  }
  if (error > r->max_abs_error) {
    r->max_abs_error = error;
    r->worst_output = output;
    r->worst_element = element;
  }
}

// Integers and Bool: exact, element by element (the reported error is still |a - e|).
void compare_exact(const Tensor& actual, const BundledValue& expected, size_t output,
                   BundledCaseResult* r) {
  const size_t element = element_size(actual.dtype());
  const uint8_t* a = static_cast<const uint8_t*>(actual.const_data_ptr());
  for (size_t i = 0; i < actual.numel(); ++i) {
    const uint8_t* x = a + i * element;
    const uint8_t* e = expected.data.data() + i * element;
    if (std::memcmp(x, e, element) == 0) continue;
    int64_t xv = 0, ev = 0;  // little-endian, sign-extended for the error figure
    std::memcpy(&xv, x, element);
    std::memcpy(&ev, e, element);
    if (element < 8 && actual.dtype() != ScalarType::Byte && actual.dtype() != ScalarType::Bool &&
        actual.dtype() != ScalarType::UInt16 && actual.dtype() != ScalarType::UInt32) {
      const int shift = int(64 - 8 * element);
      xv = int64_t(uint64_t(xv) << shift) >> shift;
      ev = int64_t(uint64_t(ev) << shift) >> shift;
    }
    note(r, output, std::fabs(double(xv) - double(ev)), i, false);
  }
}

void reason(BundledCaseResult* r, size_t output, const char* what) {
  if (r->reason[0] == '\0') snprintf(r->reason, sizeof(r->reason), "output %zu: %s", output, what);
  if (r->mismatched == 0) r->worst_output = output;
  ++r->mismatched;
}

void compare_tensor(const Tensor& actual, const BundledValue& expected, size_t output,
                    const BundledTolerance& tol, BundledCaseResult* r) {
  char what[120];
  if (actual.dtype() != expected.dtype) {
    snprintf(what, sizeof(what), "dtype %s, expected %s", scalar_type_name(actual.dtype()),
             scalar_type_name(expected.dtype));
    return reason(r, output, what);
  }
  bool same_shape = actual.dim() == expected.sizes.size();
  for (size_t d = 0; same_shape && d < actual.dim(); ++d)
    same_shape = actual.size(d) == expected.sizes[d];
  if (!same_shape) {
    snprintf(what, sizeof(what), "rank %zu shape differs from the expected rank %zu shape",
             actual.dim(), expected.sizes.size());
    return reason(r, output, what);
  }
  for (size_t d = 0; d < expected.dim_order.size(); ++d) {
    if (actual.dim_order()[d] != expected.dim_order[d])
      return reason(r, output, "dim order differs");
  }
  if (expected.dim_order.empty() && !actual.is_contiguous_dim_order()) {
    return reason(r, output, "dim order differs (expected contiguous)");
  }
  if (!is_compared_as_float(actual.dtype())) return compare_exact(actual, expected, output, r);
  const uint8_t* a = static_cast<const uint8_t*>(actual.const_data_ptr());
  for (size_t i = 0; i < actual.numel(); ++i) {
    double error = 0;
    const bool ok = close(float_at(a, actual.dtype(), i),
                          float_at(expected.data.data(), actual.dtype(), i), tol, &error);
    note(r, output, error, i, ok);
  }
}

void compare_scalar(const EValue& actual, const BundledValue& expected, size_t output,
                    const BundledTolerance& tol, BundledCaseResult* r) {
  double error = 0;
  switch (expected.kind) {
    case BundledValueKind::Int:
      if (!actual.is_int()) return reason(r, output, "not an Int, expected one");
      error = std::fabs(double(actual.to_int()) - double(expected.int_value));
      return note(r, output, error, 0, actual.to_int() == expected.int_value);
    case BundledValueKind::Bool:
      if (!actual.is_bool()) return reason(r, output, "not a Bool, expected one");
      return note(r, output, actual.to_bool() == expected.bool_value ? 0.0 : 1.0, 0,
                  actual.to_bool() == expected.bool_value);
    default: {
      if (!actual.is_double()) return reason(r, output, "not a Double, expected one");
      const bool ok = close(actual.to_double(), expected.double_value, tol, &error);
      return note(r, output, error, 0, ok);
    }
  }
}

}  // namespace

Error set_bundled_inputs(Method& method, const BundledProgram& bundled, size_t suite,
                         size_t test_case, BundledInputStorage* storage) {
  const char* name = bundled.method_name(suite);
  const size_t n = bundled.num_inputs(suite, test_case);
  if (n != method.inputs_size()) {
    return fail(Error::InvalidArgument,
                "bundled case %zu of method '%s' has %zu input(s), the method takes %zu", test_case,
                name, n, method.inputs_size());
  }
  if (n > BundledInputStorage::kMaxInputs) {
    return fail(Error::InvalidArgument,
                "bundled case %zu of method '%s' has %zu inputs, at most %zu are supported",
                test_case, name, n, BundledInputStorage::kMaxInputs);
  }
  for (size_t i = 0; i < n; ++i) {
    const BundledValue v = bundled.input(suite, test_case, i);
    EValue value;
    if (v.kind == BundledValueKind::Tensor) {
      const size_t rank = v.sizes.size();
      for (size_t d = 0; d < rank; ++d) {
        storage->sizes[i][d] = v.sizes[d];
        storage->dim_orders[i][d] = v.dim_order.empty() ? DimOrderType(d) : v.dim_order[d];
      }
      const uintptr_t address = reinterpret_cast<uintptr_t>(v.data.data());
      if (!v.data.empty() && address % element_size(v.dtype) != 0) {
        return fail(Error::InvalidArgument,
                    "bundled case %zu of method '%s' input %zu: tensor data is not aligned "
                    "for %s (load the .bpte into 32-byte-aligned memory)",
                    test_case, name, i, scalar_type_name(v.dtype));
      }
      // The method only reads inputs; the view is const in spirit.
      storage->tensors[i] = Tensor(v.dtype, rank, storage->sizes[i], storage->dim_orders[i],
                                   storage->strides[i], const_cast<uint8_t*>(v.data.data()));
      value = EValue(&storage->tensors[i]);
    } else if (v.kind == BundledValueKind::Int) {
      value = EValue(v.int_value);
    } else if (v.kind == BundledValueKind::Bool) {
      value = EValue(v.bool_value);
    } else {
      value = EValue(v.double_value);
    }
    EMBER_TRY_CONTEXT(method.set_input(value, i), "bundled case %zu of method '%s' input %zu",
                      test_case, name, i);
  }
  return Error::Ok;
}

BundledCaseResult check_bundled_outputs(const Method& method, const BundledProgram& bundled,
                                        size_t suite, size_t test_case,
                                        const BundledTolerance& tolerance) {
  BundledCaseResult r;
  const size_t n = bundled.num_expected_outputs(suite, test_case);
  if (n != method.outputs_size()) {
    snprintf(r.reason, sizeof(r.reason), "the case expects %zu output(s), the method gave %zu", n,
             method.outputs_size());
    r.mismatched = 1;
    return r;
  }
  for (size_t i = 0; i < n; ++i) {
    const BundledValue expected = bundled.expected_output(suite, test_case, i);
    const EValue& actual = method.get_output(i);
    if (expected.kind != BundledValueKind::Tensor) {
      compare_scalar(actual, expected, i, tolerance, &r);
    } else if (!actual.is_tensor()) {
      reason(&r, i, "not a tensor, expected one");
    } else {
      compare_tensor(actual.to_tensor(), expected, i, tolerance, &r);
    }
  }
  r.passed = r.mismatched == 0;
  return r;
}

}  // namespace ember::runtime
