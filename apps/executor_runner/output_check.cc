// check_outputs (see output_check.h).
#include "apps/executor_runner/output_check.h"

#include <cmath>
#include <cstdio>

#include "runtime/core/diagnostics.h"
#include "runtime/core/tensor.h"
#include "runtime/loader/file_data_loader.h"
#include "apps/diagnostics/npy.h"
#include "apps/common/printable.h"

namespace ember::runtime {
namespace {

// Loads expected file `path` for output `i` (tensor `t`) into `bytes`.
Error load_expected(size_t i, const std::string& path, const Tensor& t, std::vector<uint8_t>* bytes) {
  if (is_npy_path(path)) {
    Result<NpyArray> a = read_npy(path);
    if (!a.ok()) return annotate(a.error(), "--expected for output %zu", i);
    char want[128], have[128];
    describe(t, want, sizeof(want));
    describe_shape(a->header.dtype, Span<const int32_t>(a->header.shape.data(), a->header.shape.size()), have,
                   sizeof(have));
    if (a->header.dtype != t.scalar_type()) {
      return fail(Error::InvalidType, "--expected '%s' is %s, output %zu is %s", path.c_str(), have, i, want);
    }
    bool same = a->header.shape.size() == t.dim();
    for (size_t d = 0; same && d < t.dim(); ++d) same = a->header.shape[d] == t.size(d);
    if (!same) return fail(Error::InvalidArgument, "--expected '%s' is %s, output %zu is %s", path.c_str(), have, i, want);
    bytes->assign(a->data(), a->data() + a->header.data_size);
    return Error::Ok;
  }
  Result<FileDataLoader> file = FileDataLoader::from(path.c_str());
  if (!file.ok()) return annotate(file.error(), "--expected for output %zu", i);
  if (*file->size() != t.nbytes()) {
    return fail(Error::InvalidArgument, "--expected '%s' has %zu bytes, output %zu has %zu", path.c_str(),
                *file->size(), i, t.nbytes());
  }
  bytes->assign(t.nbytes(), 0);
  if (t.nbytes() == 0) return Error::Ok;
  return file->load_into(0, t.nbytes(), SegmentInfo{}, bytes->data());
}

// "[0, 3]" for flat index `k` of `t`'s logical shape (outputs are read in memory order, which
// is the logical order for the contiguous outputs executor_runner checks).
std::string index_text(const Tensor& t, size_t k) {
  std::string out = "]";
  for (size_t d = t.dim(); d-- > 0;) {
    const size_t n = size_t(t.size(d));
    out.insert(0, (d > 0 ? ", " : "") + std::to_string(n == 0 ? 0 : k % n));
    if (n != 0) k /= n;
  }
  return "[" + out;
}

}  // namespace

Result<OutputCheck> check_outputs(const Method& method, const std::vector<std::string>& files, double atol,
                                  double rtol) {
  if (files.size() > method.outputs_size()) {
    return fail(Error::InvalidArgument, "--expected gives %zu files, method '%s' has %zu outputs", files.size(),
                apps::printable(method.name()).c_str(), method.outputs_size());
  }
  OutputCheck check;
  char line[512];
  for (size_t i = 0; i < files.size(); ++i) {
    if (files[i].empty()) continue;
    const EValue& v = method.get_output(i);
    if (!v.is_tensor()) {
      return fail(Error::InvalidType, "--expected: output %zu is %s, not a tensor", i, tag_name(v.tag()));
    }
    const Tensor& t = v.to_tensor();
    std::vector<uint8_t> expected;
    EMBER_TRY(load_expected(i, files[i], t, &expected));
    if (!t.is_contiguous_dim_order()) {
      return fail(Error::NotSupported, "--expected: output %zu is not in contiguous dim order", i);
    }
    size_t bad = 0, worst = 0;
    double worst_excess = -1, max_diff = 0;
    for (size_t k = 0; k < t.numel(); ++k) {
      const double got = element_value(t.scalar_type(), t.const_data_ptr(), k);
      const double want = element_value(t.scalar_type(), expected.data(), k);
      double excess;
      if (std::isnan(got) || std::isnan(want)) {
        excess = std::isnan(got) && std::isnan(want) ? -1 : INFINITY;
      } else if (std::isinf(got) || std::isinf(want)) {
        excess = got == want ? -1 : INFINITY;
      } else {
        const double diff = std::fabs(got - want);
        max_diff = std::max(max_diff, diff);
        excess = diff - (atol + rtol * std::fabs(want));
      }
      if (excess > 0) ++bad;
      if (excess > worst_excess) {
        worst_excess = excess;
        worst = k;
      }
    }
    if (bad == 0) {
      snprintf(line, sizeof(line), "output %zu: ok (max |diff| %g, atol %g, rtol %g)\n", i, max_diff, atol, rtol);
      check.report += line;
      continue;
    }
    const double got = element_value(t.scalar_type(), t.const_data_ptr(), worst);
    const double want = element_value(t.scalar_type(), expected.data(), worst);
    snprintf(line, sizeof(line),
             "output %zu does not match '%s': %zu of %zu elements outside atol %g + rtol %g * |expected|; worst "
             "at %s (flat %zu): got %.9g, expected %.9g, |diff| %g\n",
             i, files[i].c_str(), bad, t.numel(), atol, rtol, index_text(t, worst).c_str(), worst, got, want,
             std::fabs(got - want));
    check.report += line;
    check.ok = false;
  }
  return check;
}

}  // namespace ember::runtime
