// What `lower` prints and writes besides the .pte, one function each (main calls them in
// this order):
//
//   session_options(options, &timings)   a progress line per stage ("[to_edge]  1.23 ms"; with
//                                        --verbose per pass too) and --dump_dir's pass dumps
//   print_lowering_report(session, out)  the memory plan (arena against the lower bound), the
//                                        delegation summary and "wrote OUT (N bytes)"
//   debug_sidecar_file(session, path)    --debug_out: the provenance sidecar (.ptdbg)
//   bundle_file(options, pte)            the .bpte with the bundled test cases, if any
//   (main writes the .pte and these in one set: output_file.h's write_output_files)
//   report_accuracy(session, options)    "-int8" and dynamically quantized recipes: output
//                                        SQNR and max error of the quantized program against
//                                        the float one (aot/recipe/accuracy_report.h)
//   report_weight_accuracy(recipes, options, session)  a weight-quantized decoder against its
//                                        float recipe: logit SQNR, greedy-token agreement
//   report_quantization(recipes, options, session)  picks one of the two above
//   report(error, status)                "lower: ErrorName (0xNN): message" on stderr
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "aot/recipe/export_session.h"
#include "apps/lower/lower_options.h"
#include "apps/lower/output_file.h"

namespace ember::aot {

// Options for ExportSession that print a progress line per stage into stdout and (with
// --verbose and --dump_dir) dump every pass; `timings` must outlive the session. Creates
// --dump_dir (an existing directory is fine).
SessionOptions session_options(const LowerOptions& options, std::vector<PassTiming>* timings);

void print_lowering_report(const ExportSession& session, const std::string& out);

// The sidecar's path and bytes.
Result<OutputFile> debug_sidecar_file(const ExportSession& session, const std::string& path);

// options.bpte_path and its bytes for the .pte `pte` (`*summary`: the line to print once it
// is written); an empty path and no bytes without cases.
Result<OutputFile> bundle_file(const LowerOptions& options, const std::vector<uint8_t>& pte,
                               std::string* summary);

// Runs the quantized program on the calibration samples ("-int8") or the .pt2's example
// inputs (options.dynamic_quant), XNNPACK delegates included, and prints its error against
// the float program's outputs (accuracy_report()); --verbose adds the int8 per-layer report.
// Ok when there is nothing to report and when the outputs cannot be compared (a warning
// says why); the quantized program failing to run is an error.
Error report_accuracy(const ExportSession& session, const LowerOptions& options);

// For a weight-quantizing recipe (options.float_recipe set): lowers the same .pt2 with the
// float recipe and prints the quantized program's logit SQNR against it and whether their
// greedy tokens agree on the .pt2's example inputs (the prompt) and 16 decode steps
// (aot/recipe/decode_report.h). Without example inputs it says so and returns Ok.
Error report_weight_accuracy(const RecipeRegistry& recipes, const LowerOptions& options,
                             const ExportSession& session);

// The report a quantizing recipe prints after writing: report_weight_accuracy for a
// weight-quantizing recipe on a decoder-step program without --calibrate samples (an LLM),
// report_accuracy for the "-int8" recipes and every other dynamically quantized program.
Error report_quantization(const RecipeRegistry& recipes, const LowerOptions& options,
                          const ExportSession& session);

// Prints `error` as "lower: ErrorName (0xNN): message" unless it is Ok; returns `status`
// for an error, 0 for Ok.
int report(Error error, int status = 1);

// The usage line or the refused command line's error; returns the exit status.
int report_usage(const LowerUsage& usage);

}  // namespace ember::aot
