// Lines up two executor_runner --dump_intermediates directories (index.json + .npy files) by
// entry name and reports, per layer, the max absolute error and the SQNR of the second dump
// against the first (the reference), and the first layer whose error jumps. `compare A B`
// (compare.cc) prints it; docs/profiling.md walks through it.
//
// The jump rule (docs/decisions.md): a lined-up layer jumps when its SQNR is below
// `max_db` (60 dB: float32 rounding differences stay far above that, ~100+ dB) AND at least
// `drop_db` (10 dB) below the lowest SQNR of every earlier lined-up layer (+inf when there is
// none or all were exact). The first such layer, in the reference dump's execution order, is
// named. So an error that starts at a layer is named there, and rounding noise is not.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "aot/ir/error.h"

namespace ember::aot {

struct DumpEntry {
  std::string name, op, source, module, kind, dtype, file;
  std::vector<int64_t> shape;
  size_t instruction = 0;
};

struct Dump {
  std::string dir;
  std::string model, method;
  std::vector<DumpEntry> entries;  // execution order
};

// Reads DIR/index.json (InvalidArgument naming the file when malformed; file names that
// would leave DIR are refused).
Result<Dump> load_dump(const std::string& dir);

struct LayerDiff {
  std::string name, op, source, shape;
  std::string note;            // why it was not compared ("shape differs", "no file"), else ""
  bool compared = false;
  size_t numel = 0;
  double max_abs = 0;          // max |b - a|
  double sqnr_db = 0;          // 10 log10(sum a^2 / sum (b - a)^2); +inf when equal
  bool jump = false;           // the first layer whose error jumps
};

struct JumpRule {
  double max_db = 60;
  double drop_db = 10;
};

struct CompareReport {
  std::vector<LayerDiff> layers;  // every entry of A that B also has, in A's order
  size_t only_in_a = 0, only_in_b = 0;
  int first_jump = -1;            // index into layers, -1 when none
};

Result<CompareReport> compare_dumps(const Dump& a, const Dump& b, const JumpRule& rule = JumpRule());

// SQNR in dB of `b` against reference `a` (same length): +inf when equal, -inf when `a` is all
// zeros and `b` is not. NaN in both at the same place is skipped; NaN in one is an infinite error.
double sqnr_db(const std::vector<double>& a, const std::vector<double>& b, double* max_abs);

// The report as a table plus a "first jump:" line.
std::string format_report(const Dump& a, const Dump& b, const CompareReport& r, const JumpRule& rule);

}  // namespace ember::aot
