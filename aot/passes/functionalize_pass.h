// FunctionalizePass: turns in-place ATen ops into their functional forms.
//
// Before: %relu_ = aten::relu_.default(self=%conv)        # writes %conv in place
//         %y = aten::add.Tensor(self=%conv, other=%z)     # reads the mutated %conv
// After:  %relu_ = aten::relu.default(self=%conv)
//         %y = aten::add.Tensor(self=%relu_, other=%z)    # later reads see the new value
// An op is in place when its schema says so (op_schema_table flag) or its name ends in
// '_' and the name without it has a schema. Writing a BUFFER input in place becomes a
// BUFFER_MUTATION output of the new value (as torch.export's functionalization writes it);
// writing a user input or parameter in place is NotSupported.
#pragma once

#include "aot/passes/pass.h"

namespace ember::aot {

class FunctionalizePass final : public Pass {
 public:
  const char* name() const override { return "functionalize"; }
  Error run(Graph& graph) const override;
};

}  // namespace ember::aot
