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
//   report_accuracy(session, verbose)    "-int8" recipes: output SQNR and max error of the
//                                        quantized program against the float one
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

// Runs the quantized program on the calibration samples (XNNPACK delegates included) and
// prints its error against the float program's outputs. Ok when there is nothing to report
// (no quantize stage) and when the outputs cannot be compared (a warning says why).
Error report_accuracy(const ExportSession& session, bool verbose);

// Prints `error` as "lower: ErrorName (0xNN): message" unless it is Ok; returns `status`
// for an error, 0 for Ok.
int report(Error error, int status = 1);

// The usage line or the refused command line's error; returns the exit status.
int report_usage(const LowerUsage& usage);

}  // namespace ember::aot
