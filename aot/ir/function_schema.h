// Function schemas in PyTorch's text form, as native_functions.yaml and custom op YAML files
// write them (`func:` lines), parsed into OpSchema (op_schema.h):
//
//   mylib::scaled_add.out(Tensor a, Tensor b, float alpha=1.0, *, Tensor(a!) out) -> Tensor(a!)
//
//   schema   := ns '::' name ['.' overload] '(' [arg {',' arg}] ')' '->' returns
//   arg      := '*' | type [alias] name ['=' default]     ('*': the rest are keyword-only)
//   type     := Tensor | int | SymInt | float | bool | str | Scalar | ScalarType | Layout |
//               Device | MemoryFormat | Generator, then '?' / '[N]' / '[]' as in op_schema.h
//   alias    := '(' letter ['!'] ')'                       ('!' marks an argument written to)
//   returns  := type [alias] | '(' [type [alias] [name] {',' ...}] ')'
//   default  := None | True | False | number | 'text' | "text" | [a, b, ...]
//
// An empty overload is ATen's "default" overload (how torch.export names the node). Errors are
// InvalidArgument naming the column and the bad text; callers add the file and line.
#pragma once

#include <string>

#include "aot/ir/op_schema.h"

namespace ember::aot {

Result<OpSchema> parse_function_schema(const std::string& text);

// "mylib::scaled_add.out(Tensor a, Tensor b, float alpha=1.0, *, Tensor(a!) out) -> Tensor(a!)":
// the text form of `schema`, arguments marked mutable written as Tensor(a!), Tensor(b!), ...
std::string function_schema_text(const OpSchema& schema);

}  // namespace ember::aot
