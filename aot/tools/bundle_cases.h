// lower's bundled-program flags: every --bundle_inputs / --bundle_outputs pair is one test
// case of the lowered program's method, and lower writes a .bpte (ExecuTorch's bundled
// program: the .pte plus its cases, aot/emit/bundled_program_writer.h) next to the .pte.
//
//   lower model.pt2 -o model.pte
//       --bundle_inputs x0.bin --bundle_outputs y0.bin
//       --bundle_inputs x1.bin --bundle_outputs y1.bin      (writes model.bpte, 2 cases)
//
// Each value is a comma-separated list of raw files, one per method input (or output), in
// order, the same raw form as executor_runner --inputs / --output_file: a tensor file holds
// exactly the declared dtype and shape's bytes in its dim order, an Int or Double 8 bytes
// (int64 / float64), a Bool 1 byte. Shapes, dtypes and dim orders come from the lowered
// program's method (so a dynamic input is bundled at its upper-bound shape). The expected
// outputs are the user's (PyTorch's reference outputs): lower never runs the program to
// make them. Errors name the case, the input or output, the file and the size it needs.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "aot/emit/bundled_program_writer.h"
#include "aot/ir/error.h"

namespace ember::aot {

// The one method's test suite from the flag values (one entry per case); `resolve` maps a
// path as the user wrote it to one the process can open. InvalidArgument when the counts
// differ or are zero, the program has no single method, or a file does not fit its slot;
// AccessFailed / NotFound for a file that cannot be read.
Result<BundledTestSuite> bundle_cases_from_files(const std::vector<uint8_t>& pte,
                                                 const std::vector<std::string>& input_flags,
                                                 const std::vector<std::string>& output_flags,
                                                 const std::function<std::string(const std::string&)>& resolve);

// Where the .bpte goes: `bundle_out` when given, else the .pte path with its extension
// replaced by ".bpte" ("model.pte" -> "model.bpte", "model" -> "model.bpte").
std::string bundled_output_path(const std::string& pte_path, const std::string& bundle_out);

}  // namespace ember::aot
