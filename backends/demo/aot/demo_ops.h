// The ATen ops the demo backend compiles, and the one rule that decides whether a node of
// the edge graph fits its bytecode (shared by DemoPartitioner::supports and the compiler,
// so the compiler never meets a node the partitioner accepted but cannot encode).
#pragma once

#include <cstdint>
#include <string>

#include "aot/ir/graph.h"
#include "aot/backend/partitioner.h"

namespace ember::backends::demo {

struct DemoOp {
  const char* aten;   // "aten::add.Tensor"
  uint8_t code;       // OpCode (bytecode_format.h)
  const char* short_name;  // "add": the name used by DemoPartitioner's op filter
};

// The DemoOp for `node` (matched on its qualified op name), or nullptr.
const DemoOp* find_demo_op(const aot::Node& node);

// Whether `node` can be encoded: a known op, float32 tensors of static shape (rank <= 6,
// at most 2^26 elements), alpha == 1 for add/sub, binary operands of the output's shape
// or one element, mm on rank-2 operands, one tensor output. The reason names what fails.
aot::Support demo_support(const aot::Node& node, const aot::Graph& graph);

}  // namespace ember::backends::demo
