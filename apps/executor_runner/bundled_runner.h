// executor_runner --bundled FILE.bpte: runs every test case of a bundled program
// (runtime/bundled) and reports pass or fail per case with its largest absolute error and
// the tolerance, like upstream's runner built with bundled IO. Kept apart from
// executor_runner.cc, which only calls bundled_mode() / run_bundled().
//
//   executor_runner --bundled model.bpte [--method_name forward]
//       [--bundleio_atol 0.01] [--bundleio_rtol 0.01] [--json]
//
// Output (stdout): one header line, then per method "method NAME: N case(s)" and per case
// "  case I: pass|FAIL  max abs error E (atol A, rtol R)" (a failure adds where: output,
// element, and how many elements are outside), then "bundled: P of N case(s) passed".
// Exit 0 when every case passes; 1 with "executor_runner: bundled check failed: ..."
// naming the failed cases, or with the usual "executor_runner: ErrorName (0xNN): message"
// for a file that cannot be read or run (a malformed .bpte, a missing method, ...).
#pragma once

#include <string>

#include "runtime/backend/backend_registry.h"
#include "runtime/core/thread_pool.h"
#include "runtime/kernel/kernel_registry.h"

namespace ember::runtime {

// True when --bundled was given.
bool bundled_mode();

// Checks --bundleio_atol / --bundleio_rtol (finite, >= 0): InvalidArgument otherwise.
Error check_bundled_flags();

// True when the file at `path` carries the bundled-program identifier "BP08" (for the
// "this is a bundled program: use --bundled" message of a .bpte given as --model_path).
bool looks_like_bundled(const std::string& path);

// Runs the --bundled file's cases (only `method`'s suite when non-empty) and returns the
// process exit status; prints errors itself. With `json` (--json) the lines end with one
// JSON line: {"bundled", "cases", "passed", "atol", "rtol", "results": [{"method", "case",
// "passed", "max_abs_error" (null when infinite), "reason"}]}.
int run_bundled(const std::string& method, bool json, const KernelRegistry& kernels,
                const BackendRegistry& backends, ThreadPool* pool);

}  // namespace ember::runtime
