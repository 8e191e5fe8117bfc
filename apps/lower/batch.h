// lower --batch: many models in one call, for teams not on Bazel.
//
//   lower --batch models.json [--jobs N] [--summary summary.json]
//
// models.json is a JSON list with one object per model:
//   [{"input": "a.pt2", "output": "a.pte", "recipe": "xnnpack"},
//    {"input": "b.pt2", "output": "b.pte", "recipe": "xnnpack-int8",
//     "calibrate": ["c0.bin", "c1.bin"], "compile_spec": {"xnnpack.constants": "inline"},
//     "pass": ["replace_relu_with_sigmoid"], "memory_planner": "naive"}]
// Every key other than input/output is a lower flag by its name: a string, number or boolean
// gives --NAME=VALUE, a list repeats the flag (--pass A --pass B), an object gives
// --NAME=KEY=VALUE per key in key order (compile_spec). "recipe" defaults to lower's own
// default (portable). Relative paths are relative to the JSON file's directory.
//
// Each model is lowered by its own `lower` process (this binary, /proc/self/exe) with exactly
// the flags it would get alone, so every output is byte-identical to lowering that model
// alone; up to --jobs (default: the number of cores) run at once, one thread each. stderr shows
// one progress line. A failing model is reported as "lower --batch: entry I (INPUT): ERROR" and
// the others still run; the exit status is 1 when any model failed, 2 when the batch file
// itself is bad (nothing is lowered then): not JSON, a key that is not a lower flag, or an
// output that is an input or another output (same file or same normalised path). An entry
// whose process succeeded but whose output does not exist is a failure. --summary writes a JSON list, one object per
// entry: index, input, output, ok, error, seconds, bytes, and from the written .pte the
// operator counts, delegates (partitions: backend and blob bytes) and arena bytes per method.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "aot/ir/error.h"

namespace ember::aot {

// One entry of the batch file, ready to run: lower's arguments (without argv[0]).
struct BatchJob {
  size_t index = 0;
  std::string input;   // as written in the file
  std::string output;  // as written in the file
  std::vector<std::string> args;
};

// Parses the batch file's text. Errors (InvalidArgument) name the entry index and key.
Result<std::vector<BatchJob>> parse_batch_jobs(const std::string& json_text);

// Ok when `path`, an entry's output whose lower exited 0, is a readable regular file; else
// NotFound / AccessFailed (the summary then lists the entry as failed, issue #33).
Error check_batch_output(const std::string& path);

// True when argv holds --batch (then lower's main calls run_batch and returns its status).
bool is_batch_invocation(int argc, char** argv);

// Runs a batch (see above) and returns the process exit status.
int run_batch(int argc, char** argv);

}  // namespace ember::aot
