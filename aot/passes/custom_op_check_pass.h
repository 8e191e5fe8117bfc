// CustomOpCheckPass (edge dialect): every call of a declared custom operator matches its
// declaration (lower --custom_ops FILE.yaml, aot/ir/custom_ops.h).
//
// Before: %s = mylib::scaled_add.default(a=%h, b=%y, beta=2)     [declared: a, b, alpha=1.0]
// After:  unchanged, or InvalidProgram listing EVERY node whose arguments or outputs do not
//         fit the declared schema: an argument the schema lacks, a required argument missing,
//         an argument of the wrong kind, or a different number of outputs. Each line names
//         the node (name, op, the user's source line) and the declaration's FILE:line.
// Undeclared custom operators are OpSetCheckPass's to report (it names the --custom_ops flag).
#pragma once

#include "aot/passes/pass.h"

namespace ember::aot {

class CustomOpCheckPass final : public Pass {
 public:
  const char* name() const override { return "custom_op_check"; }
  Error run(Graph& graph) const override;
};

}  // namespace ember::aot
