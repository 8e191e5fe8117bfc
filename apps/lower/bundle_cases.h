// lower's bundled-program flags: test cases for the lowered program's method, from which
// lower writes a .bpte (ExecuTorch's bundled program: the .pte plus its cases,
// aot/emit/bundled_program_writer.h) next to the .pte. Two ways to give cases, combinable
// (flag cases first, then the file's):
//
//   lower model.pt2 -o model.pte
//       --bundle_inputs x0.bin --bundle_outputs y0.bin
//       --bundle_inputs x1.bin --bundle_outputs y1.bin      (writes model.bpte, 2 cases)
//   lower model.pt2 -o model.pte --bundle_cases cases.json
//
// Flags: every --bundle_inputs / --bundle_outputs pair is one case; each value is a
// comma-separated list of raw files, one per method input (or output), in order.
// cases.json, for dynamic shapes (a file's actual shape) and to keep many cases in one place:
//
//   {"method": "forward",                                  (optional when there is one)
//    "cases": [{"inputs": ["x0.bin"], "expected_outputs": ["y0.bin"]},
//              {"inputs": [{"file": "x1.bin", "shape": [1, 16]}],
//               "expected_outputs": [{"file": "y1.bin", "shape": [1, 10]}]}]}
//
// or, for a program of several methods (lower --method a=A.pt2 --method b=B.pt2), one
// suite per method: {"suites": [{"method": "a", "cases": [...]}, {"method": "b", ...}]}.
// The flags' cases belong to the program's only method.
//
// Relative paths in the file are relative to its directory. Files are raw, the form of
// executor_runner --inputs / --output_file: a tensor file holds exactly its shape's bytes
// in the declared dtype and dim order (the declared shape, an upper bound for a dynamic
// tensor, unless "shape" gives the actual one: same rank, each dim within the bound, equal
// for a static tensor); an Int or Double 8 bytes (int64 / float64), a Bool 1 byte. Dtypes
// and dim orders come from the lowered method. The expected outputs are the user's
// (PyTorch's reference outputs): lower never runs the program to make them. Errors name
// the case, the input or output, the file and what it needs.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "aot/emit/bundled_program_writer.h"
#include "aot/ir/error.h"

namespace ember::aot {

// The test suites (one per method, in the order given) from the flag values (one entry per
// case) and the cases file ("" for none); `resolve` maps a path as the user wrote it to one
// the process can open. InvalidArgument when the flag counts differ, no case is given, a
// case names no method in a program of several or a method the program lacks, the JSON is
// malformed, or a file does not fit its slot; AccessFailed / NotFound for a file that
// cannot be read.
Result<std::vector<BundledTestSuite>> bundle_cases(
    const std::vector<uint8_t>& pte, const std::vector<std::string>& input_flags,
    const std::vector<std::string>& output_flags, const std::string& cases_file,
    const std::function<std::string(const std::string&)>& resolve);

// Where the .bpte goes: `bundle_out` when given, else the .pte path with its extension
// replaced by ".bpte" ("model.pte" -> "model.bpte", "model" -> "model.bpte").
std::string bundled_output_path(const std::string& pte_path, const std::string& bundle_out);

}  // namespace ember::aot
