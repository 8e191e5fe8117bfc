// quant_report (see quant_report.h).
#include "aot/recipe/quant_report.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>

namespace ember::aot {

Error accumulate_error(const HostTensor& ref, const HostTensor& got, double* signal,
                       double* noise, TensorError* err) {
  if (ref.dtype != ScalarType::Float || got.dtype != ScalarType::Float ||
      ref.bytes.size() != got.bytes.size()) {
    return fail(Error::InvalidArgument, "cannot compare '" + err->name +
                                            "': float and quantized outputs differ in dtype or size");
  }
  const size_t n = ref.bytes.size() / 4;
  std::vector<float> a(n), b(n);
  if (n) {
    std::memcpy(a.data(), ref.bytes.data(), n * 4);
    std::memcpy(b.data(), got.bytes.data(), n * 4);
  }
  for (size_t i = 0; i < n; ++i) {
    const double d = double(a[i]) - double(b[i]);
    *signal += double(a[i]) * double(a[i]);
    *noise += d * d;
    err->max_abs_error = std::max(err->max_abs_error, std::fabs(d));
  }
  err->elements += int64_t(n);
  return Error::Ok;
}

Result<std::vector<TensorError>> compare_outputs(const std::vector<std::vector<HostTensor>>& ref,
                                                 const std::vector<std::vector<HostTensor>>& got) {
  std::vector<TensorError> out;
  if (ref.empty() || ref.size() != got.size()) {
    return fail(Error::InvalidArgument, "compare_outputs: " + std::to_string(ref.size()) +
                                            " float and " + std::to_string(got.size()) +
                                            " quantized sample results");
  }
  const size_t outputs = ref[0].size();
  for (size_t i = 0; i < outputs; ++i) {
    TensorError e;
    e.name = "output " + std::to_string(i);
    double signal = 0, noise = 0;
    for (size_t k = 0; k < ref.size(); ++k) {
      if (i >= ref[k].size() || i >= got[k].size()) {
        return fail(Error::InvalidArgument, "compare_outputs: sample " + std::to_string(k) +
                                                " lacks output " + std::to_string(i));
      }
      if (ref[k][i].dtype != ScalarType::Float) continue;
      EMBER_TRY(accumulate_error(ref[k][i], got[k][i], &signal, &noise, &e));
    }
    e.sqnr_db = noise == 0 ? std::numeric_limits<double>::infinity()
                           : 10.0 * std::log10(signal / noise);
    out.push_back(e);
  }
  return out;
}

std::string format_errors(const std::vector<TensorError>& errors, const std::string& indent) {
  std::string s;
  for (const TensorError& e : errors) {
    char buf[256];
    std::snprintf(buf, sizeof buf, "%s%-28s SQNR %7.2f dB, max error %.6g (%lld elements)\n",
                  indent.c_str(), (e.name + ":").c_str(), e.sqnr_db, e.max_abs_error,
                  static_cast<long long>(e.elements));
    s += buf;
  }
  return s;
}

}  // namespace ember::aot
