// The .pt2 fixtures end-to-end tests and benchmarks run: every model entry of the
// committed manifest (tests/fixtures/pt2, plus "external" entries found in
// large_fixtures/pt2 beside the checkout) and of the shared corpus
// (/work/shared/fixtures/pt2/generated, through //tests/support:shared_fixtures), with the
// reference inputs/outputs real PyTorch produced and the manifest's tolerance.
// Entries whose files are absent are skipped by list_fixtures(). list_quantized_fixtures()
// does the same for the PT2E-quantized set (tests/fixtures/pt2_quant, external entries in
// large_fixtures/pt2_quant), whose outputs are compared in quantization steps.
#pragma once

#include <string>
#include <vector>

#include "aot/ir/host_tensor.h"

namespace ember::testing {

struct FixtureTensor {
  std::string file;  // absolute path of the .bin
  aot::ScalarType dtype = aot::ScalarType::Float;
  std::vector<int64_t> shape;
  bool exact = false;
  double quant_scale = 0;  // > 0: a dequantized output, compared in steps of this size
};

struct FixtureCase {
  std::vector<FixtureTensor> inputs;
  std::vector<FixtureTensor> outputs;
};

struct Fixture {
  std::string id;        // "mlp.core_aten.torch2_6" (prefixed "shared:" for the shared corpus)
  std::string pt2;       // absolute path
  std::string dialect;   // "core_aten" / "training_ir"
  double atol = 1e-5;
  double rtol = 1e-4;
  bool stateful = false;  // cases must run in order on one loaded program
  bool external = false;  // from the large-fixture folder (not committed)
  double quant_steps = 1;         // quantized outputs: allowed |got - ref| in steps ...
  double min_fraction = 0.999;    // ... on at least this fraction of the elements
  std::vector<FixtureCase> cases;
  std::vector<int64_t> greedy_tokens;  // LLM fixtures: PyTorch's argmax after each case
};

// All fixtures whose .pt2 exists, sorted by id.
std::vector<Fixture> list_fixtures();
// The PT2E-quantized fixtures whose .pt2 exists (committed and external), sorted by id.
std::vector<Fixture> list_quantized_fixtures();

// The decoder-LLM fixtures (tests/fixtures/llm, external entries in large_fixtures/llm):
// stateful, a prefill then greedy decode steps, with greedy_tokens.
std::vector<Fixture> list_llm_fixtures();

// Reads a reference tensor; false if the file is missing or has the wrong size.
bool read_fixture_tensor(const FixtureTensor& t, aot::HostTensor* out);

struct Comparison {
  bool ok = true;
  double max_abs = 0;        // max |got - ref|
  double max_rel = 0;        // max |got - ref| / |ref| over elements with |ref| >= 1e-3
  double worst_fraction = 0;  // max |got - ref| / (atol + rtol |ref|); <= 1 passes
  std::string message;       // first failure, "" when ok
};

// Compares per the manifest rule: floats |got-ref| <= atol + rtol |ref|, others exact.
Comparison compare_tensors(const aot::HostTensor& got, const aot::HostTensor& ref, bool exact,
                           double atol, double rtol);

struct QuantComparison {
  bool ok = true;
  double max_steps = 0;     // max |got - ref| / step
  double within = 1;        // fraction of elements with |got - ref| <= steps * step
  std::string message;      // why it failed ("" when ok)
};

// Float outputs of a quantized program: ok when at least `min_fraction` of the elements are
// within `steps` quantization steps of `step` (and dtype and shape match).
QuantComparison compare_quantized(const aot::HostTensor& got, const aot::HostTensor& ref,
                                  double step, double steps, double min_fraction);

// What compare_output() saw over several outputs.
struct OutputStats {
  double max_steps = 0;  // dequantized outputs: max |got - ref| in steps
  double within = 1;     // ... smallest fraction of elements within the allowed steps
  double max_abs = 0;    // other outputs: max |got - ref|
};

// One output of a case: in quantization steps (at most `steps`, on at least f.min_fraction of
// the elements) when `want` has a quant_scale, else per compare_tensors() with f's tolerance.
// Adds to *stats; returns "" when it passes, else why not.
std::string compare_output(const aot::HostTensor& got, const aot::HostTensor& ref,
                           const FixtureTensor& want, const Fixture& f, double steps,
                           OutputStats* stats);

}  // namespace ember::testing
