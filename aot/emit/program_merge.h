// Several methods into one program: constant methods (outputs fixed at lowering time, such
// as a vocabulary size or the input-guard tables) and merge_programs, behind multi-method
// programs (lower --method encode=enc.pt2 --method decode=dec.pt2, aot/recipe/multi_method.h).
//
//   auto enc = compile_method(encode_graph, "encode");   // aot/recipe/compile_method.h
//   auto vocab = constant_method("get_vocab_size", {EmitValue::of_int(32000)});
//   auto prog = merge_programs({*enc, vocab});           // one program, two methods
//   write_pte(*prog, &bytes);
//
// merge_programs concatenates the methods (names must be unique; they are written sorted by
// name, as upstream does) and renumbers each method's constant / mutable-data indices into
// the merged tables.
#pragma once

#include <string>
#include <vector>

#include "aot/emit/emit_program.h"
#include "aot/ir/host_tensor.h"

namespace ember::aot {

// A method with no inputs and no instructions whose outputs are `values`, in a program of
// its own whose constants are `constants`. Each value is an Int, Double or Bool, or a Tensor
// whose constant_index points into `constants` (constant_tensor() makes one). InvalidArgument
// for an empty list, another kind, or a tensor without constant data.
Result<EmitProgram> constant_method(const std::string& name, std::vector<EmitValue> values,
                                    std::vector<std::vector<uint8_t>> constants = {});

// A constant tensor value for constant_method(): `t`'s dtype and sizes, contiguous, with
// its bytes appended to `constants`. InvalidArgument when the byte count does not match.
Result<EmitValue> constant_tensor(const HostTensor& t,
                                  std::vector<std::vector<uint8_t>>* constants);

// InvalidArgument naming a duplicate method name or an empty list.
Result<EmitProgram> merge_programs(std::vector<EmitProgram> programs);

}  // namespace ember::aot
