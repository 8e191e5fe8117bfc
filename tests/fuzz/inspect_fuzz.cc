// libFuzzer target: what `inspect` does with a file, on arbitrary bytes. A .pte (the "ET12"
// identifier at byte 4) is summarized as text and JSON (apps/inspect/pte_summary.h); anything
// else is read as a .pt2 (pt2_entries.h: raw, or entries re-packed with valid CRCs), with
// and without weights, then summarized as text, JSON and a Graphviz graph. Every input must
// end in output or a named error. inspect_fuzz_test drives the same entry point in
// `bazel test`; inspect_run_fuzz.sh runs libFuzzer.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "aot/frontend/pt2_reader.h"
#include "apps/inspect/graph_dot.h"
#include "apps/inspect/pt2_summary.h"
#include "apps/inspect/pte_summary.h"
#include "runtime/executor/pte_container.h"
#include "runtime/platform/log.h"
#include "tests/fuzz/inspect_fuzz.h"
#include "tests/fuzz/pt2_entries.h"

namespace ember::fuzz {

aot::Error inspect_fuzz_input(const uint8_t* data, size_t size) {
  using namespace aot;
  if (runtime::PteContainer::has_program_identifier(data, size)) {
    EMBER_ASSIGN_OR_RETURN(PteSummary summary, summarize_pte(std::vector<uint8_t>(data, data + size)));
    (void)pte_summary_text(summary);
    (void)pte_summary_json(summary);
    return Error::Ok;
  }
  const std::vector<uint8_t> pt2 = pt2_bytes(data, size);
  Pt2ReadOptions options;
  options.load_weights = (size % 2) == 0;  // inspect --weights=false on every other input
  EMBER_ASSIGN_OR_RETURN(Graph graph, read_pt2_buffer(pt2.data(), pt2.size(), "fuzz.pt2", options));
  (void)summarize_pt2_text(graph, /*with_graph=*/true);
  (void)summarize_pt2_json(graph, /*with_graph=*/true);
  (void)graph_to_dot(graph);
  return Error::Ok;
}

}  // namespace ember::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  ember::runtime::set_min_log_level(ember::runtime::LogLevel::Fatal);
  (void)ember::fuzz::inspect_fuzz_input(data, size);
  return 0;
}
