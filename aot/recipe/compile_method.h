// compile_method: an edge graph (possibly with delegate-call nodes, e.g. from
// call_delegated) to an EmitProgram of one method, through the same two stages every
// ExportSession ends with (ToExecutorchStage, EmitStage: out variants, memory planning,
// emit_graph, the input guards, write_pte and the loader self-check), with the verifier at
// each stage boundary. There is no second pass list: the stages are the pipeline.
//
//   auto enc = compile_method(encode_graph, "encode");
//   auto vocab = constant_method("get_vocab_size", {EmitValue::of_int(32000)});  // aot/emit
//   auto prog = merge_programs({*enc, vocab});                                   // aot/emit
//   write_pte(*prog, &bytes);
//
//   auto pte = delegated_module_pte(*module);   // a DelegatedModule as a .pte of its own
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "aot/backend/delegated_module.h"
#include "aot/emit/emit_program.h"
#include "aot/ir/graph.h"

namespace ember::aot {

// The emitted method `name` of `graph` (the EmitStage artifact's program: the method alone,
// without its input-guard method). Errors name the stage and the method.
Result<EmitProgram> compile_method(Graph graph, const std::string& name,
                                   const std::string& planner = "greedy");

// A standalone .pte of `module`: method `method` takes the original graph's user inputs and
// returns its outputs through one DelegateCall (the EmitStage's bytes, input guards included).
Result<std::vector<uint8_t>> delegated_module_pte(const DelegatedModule& module,
                                                  const std::string& method = "forward");

}  // namespace ember::aot
