// QuantizedOpCheckPass (see quantized_op_check_pass.h).
#include "aot/passes/quantized_op_check_pass.h"

#include "aot/quantize/qdq.h"

namespace ember::aot {

Error QuantizedOpCheckPass::run(Graph& graph) const {
  std::string report;
  size_t count = 0;
  Error code = Error::Ok;
  for (const Node& n : graph.nodes()) {
    if (!is_quantized_decomposed(n)) continue;
    Result<QuantParams> p = read_qdq(graph, n);
    if (p.ok()) continue;
    ++count;
    // NotSupported wins: the fix (another quantizer config) matters more than a bad value.
    if (code != Error::NotSupported) code = p.error();
    report += "\n  " + std::string(last_error_message());
  }
  if (count == 0) return Error::Ok;
  return fail(code, std::to_string(count) + " quantized node(s) cannot be lowered:" + report);
}

}  // namespace ember::aot
