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
//
// Writes through views (torchvision's Swin builds its attention mask with
// `mask[a:b, c:d] = k`, i.e. fill_ on a slice of a slice): the op becomes functional and the
// new value is scattered back into each base of its chain of slice/select/alias views
// (slice_scatter / select_scatter), innermost first; later reads of each base read the new
// base. Through any other view op it is NotSupported when the view's base is read later.
#pragma once

#include "aot/passes/pass.h"

namespace ember::aot {

class FunctionalizePass final : public Pass {
 public:
  const char* name() const override { return "functionalize"; }
  Error run(Graph& graph) const override;
};

}  // namespace ember::aot
