// executor_runner --bundled; see bundled_runner.h.
#include "apps/executor_runner/bundled_runner.h"

#include <gflags/gflags.h>
#include <sys/stat.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <nlohmann/json.hpp>
#include <vector>

#include "runtime/bundled/bundled_case.h"
#include "runtime/bundled/bundled_program.h"
#include "runtime/core/diagnostics.h"
#include "runtime/module/module.h"
#include "apps/common/printable.h"

DEFINE_string(bundled, "",
              "Run every test case of this bundled program (.bpte) and check its outputs.");
DEFINE_double(bundleio_atol, 1e-2, "--bundled: absolute tolerance for floating-point outputs.");
DEFINE_double(bundleio_rtol, 1e-2, "--bundled: relative tolerance for floating-point outputs.");

namespace ember::runtime {
namespace {

struct FreeDeleter {
  void operator()(uint8_t* p) const { std::free(p); }
};
using AlignedBytes = std::unique_ptr<uint8_t, FreeDeleter>;

// Reads a regular file into 32-byte-aligned memory (the alignment the format gives the
// inner program and, relative to it, every tensor's data).
Result<AlignedBytes> read_aligned(const std::string& path, size_t* size) {
  struct stat st;
  if (stat(path.c_str(), &st) != 0)
    return fail(Error::NotFound, "bundled program '%s' does not exist", path.c_str());
  if (!S_ISREG(st.st_mode)) {
    return fail(Error::AccessFailed, "bundled program '%s' is not a regular file", path.c_str());
  }
  *size = size_t(st.st_size);
  AlignedBytes bytes(static_cast<uint8_t*>(std::aligned_alloc(32, (*size + 31) / 32 * 32 + 32)));
  FILE* f = std::fopen(path.c_str(), "rb");
  if (bytes == nullptr || f == nullptr) {
    if (f != nullptr) std::fclose(f);
    return fail(Error::AccessFailed, "cannot read bundled program '%s'", path.c_str());
  }
  const size_t got = std::fread(bytes.get(), 1, *size, f);
  std::fclose(f);
  if (got != *size)
    return fail(Error::AccessFailed, "cannot read bundled program '%s'", path.c_str());
  return bytes;
}

// A method name from the file, safe for a terminal: control bytes, quotes and backslashes
// become \xNN.
int die(Error err) {
  char buffer[kMaxErrorMessageLength + 64];
  fprintf(stderr, "executor_runner: %s\n", apps::printable_message(format_error(err, buffer, sizeof(buffer))).c_str());
  return 1;
}

void print_case(size_t c, const BundledCaseResult& r, const BundledTolerance& tol) {
  printf("  case %zu: %s  max abs error %g (atol %g, rtol %g)", c, r.passed ? "pass" : "FAIL",
         r.max_abs_error, tol.atol, tol.rtol);
  if (r.reason[0] != '\0') {
    printf(": %s", r.reason);
  } else if (!r.passed) {
    printf(" at output %zu element %zu, %zu element(s) outside", r.worst_output, r.worst_element,
           r.mismatched);
  }
  printf("\n");
}

struct Tally {
  size_t run = 0;
  size_t failed = 0;
  std::string failed_names;                          // "forward case 3, forward case 7"
  nlohmann::json results = nlohmann::json::array();  // for --json
};

// Runs one suite's cases and counts them into *tally.
Error run_suite(Module& module, const BundledProgram& bundled, size_t suite,
                const BundledTolerance& tol, Tally* tally) {
  const char* name = bundled.method_name(suite);
  Result<Method*> method = module.load_method(name);
  if (!method.ok()) return annotate(method.error(), "bundled test suite for method '%s'", name);
  const std::string shown = apps::printable(name);
  printf("method %s: %zu case(s)\n", shown.c_str(), bundled.num_cases(suite));
  static BundledInputStorage storage;  // 40 KB: off the stack
  for (size_t c = 0; c < bundled.num_cases(suite); ++c) {
    EMBER_TRY(set_bundled_inputs(**method, bundled, suite, c, &storage));
    EMBER_TRY_CONTEXT((*method)->execute(), "bundled case %zu of method '%s'", c, name);
    const BundledCaseResult r = check_bundled_outputs(**method, bundled, suite, c, tol);
    print_case(c, r, tol);
    ++tally->run;
    tally->results.push_back(
        {{"method", name},
         {"case", c},
         {"passed", r.passed},
         // inf (a NaN or infinity against a number) has no JSON form
         {"max_abs_error", std::isfinite(r.max_abs_error) ? nlohmann::json(r.max_abs_error)
                                                          : nlohmann::json(nullptr)},
         {"reason", r.reason}});
    if (!r.passed) {
      if (tally->failed++ != 0) tally->failed_names += ", ";
      tally->failed_names += shown + " case " + std::to_string(c);
    }
  }
  return Error::Ok;
}

}  // namespace

bool bundled_mode() { return !FLAGS_bundled.empty(); }

Error check_bundled_flags() {
  if (!std::isfinite(FLAGS_bundleio_atol) || FLAGS_bundleio_atol < 0) {
    return fail(Error::InvalidArgument, "--bundleio_atol must be a finite number >= 0, got %g",
                FLAGS_bundleio_atol);
  }
  if (!std::isfinite(FLAGS_bundleio_rtol) || FLAGS_bundleio_rtol < 0) {
    return fail(Error::InvalidArgument, "--bundleio_rtol must be a finite number >= 0, got %g",
                FLAGS_bundleio_rtol);
  }
  return Error::Ok;
}

bool looks_like_bundled(const std::string& path) {
  struct stat st;
  if (stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return false;  // a FIFO would block fopen
  FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) return false;
  uint8_t head[8] = {};
  const size_t n = std::fread(head, 1, sizeof(head), f);
  std::fclose(f);
  return BundledProgram::has_identifier(head, n);
}

int run_bundled(const std::string& method, bool json, const KernelRegistry& kernels,
                const BackendRegistry& backends, ThreadPool* pool) {
  size_t size = 0;
  Result<AlignedBytes> bytes = read_aligned(FLAGS_bundled, &size);
  if (!bytes.ok()) return die(bytes.error());
  Result<BundledProgram> bundled = BundledProgram::open(bytes->get(), size);
  if (!bundled.ok()) {
    return die(annotate(bundled.error(), "'%s'", FLAGS_bundled.c_str()));
  }
  size_t cases = 0;
  for (size_t s = 0; s < bundled->num_suites(); ++s) cases += bundled->num_cases(s);
  printf("bundled program %s: version %u, program %zu bytes, %zu test suite(s), %zu case(s)\n",
         FLAGS_bundled.c_str(), bundled->version(), bundled->program().size(),
         bundled->num_suites(), cases);
  // The inner program is an ordinary .pte: Module copies it into its own aligned storage.
  Module module(bundled->program().data(), bundled->program().size());
  Module::Options options;
  options.method.kernels = &kernels;
  options.method.backends = &backends;
  options.method.thread_pool = pool;
  module.set_options(options);
  if (Error err = module.load(); err != Error::Ok) {
    return die(annotate(err, "the program inside '%s'", FLAGS_bundled.c_str()));
  }
  const BundledTolerance tol{FLAGS_bundleio_atol, FLAGS_bundleio_rtol};
  Tally tally;
  if (!method.empty()) {
    Result<size_t> suite = bundled->find_suite(method.c_str());
    if (!suite.ok()) return die(annotate(suite.error(), "'%s'", FLAGS_bundled.c_str()));
    if (Error err = run_suite(module, *bundled, *suite, tol, &tally); err != Error::Ok)
      return die(err);
  } else {
    for (size_t s = 0; s < bundled->num_suites(); ++s) {
      if (Error err = run_suite(module, *bundled, s, tol, &tally); err != Error::Ok)
        return die(err);
    }
  }
  printf("bundled: %zu of %zu case(s) passed\n", tally.run - tally.failed, tally.run);
  if (json) {
    const nlohmann::json line = {
        {"bundled", FLAGS_bundled}, {"cases", tally.run}, {"passed", tally.run - tally.failed},
        {"atol", tol.atol},         {"rtol", tol.rtol},   {"results", tally.results}};
    // Names come from the file: control bytes are escaped, invalid UTF-8 replaced.
    printf("%s\n", line.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace).c_str());
  }
  if (tally.run == 0) {
    fprintf(stderr, "executor_runner: warning: '%s' has no test cases to run\n",
            FLAGS_bundled.c_str());
  }
  if (tally.failed != 0) {
    fprintf(stderr, "executor_runner: bundled check failed: %zu of %zu case(s): %s\n", tally.failed,
            tally.run, tally.failed_names.c_str());
    return 1;
  }
  return 0;
}

}  // namespace ember::runtime
