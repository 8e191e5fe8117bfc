// Custom operators: the schemas a user declares for operators outside ATen (a torch.library
// op such as mylib::scaled_add), turned into the functional schemas the pipeline looks up.
//
// The user declares each operator's out variant, which is what the runtime calls:
//
//   mylib::scaled_add.out(Tensor a, Tensor b, float alpha=1.0, *, Tensor(a!) out) -> Tensor(a!)
//
// and the exported program calls the functional op (mylib::scaled_add.default). The
// functional schema is the out variant's arguments minus its trailing keyword-only mutable
// Tensor arguments (one per return), with the same returns, named by ATen's rule: overload
// "out" belongs to "default", "<name>_out" to "<name>". Its out_variant names the declared
// overload, so OutVariantPass, memory planning and the KernelCall need nothing else. A
// functional declared as well must have exactly those arguments. Every schema keeps where it
// was declared (OpSchema::declared_at) for error messages.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "aot/ir/op_schema.h"

namespace ember::aot {

// One `func:` entry of a custom ops file.
struct CustomOpDeclaration {
  std::string func;   // "mylib::scaled_add.out(Tensor a, ...) -> Tensor(a!)"
  std::string where;  // "ops.yaml:2", for messages
};

// The functional schemas of `declarations`. Errors (InvalidArgument) name the declaration's
// place: a malformed schema, an operator in the aten namespace, an out variant whose out
// arguments are not trailing keyword-only Tensor(a!) arguments, one per return, a functional
// declared without an out variant or disagreeing with it, a name declared twice.
Result<std::shared_ptr<const OpSchemaRegistry>> custom_op_schemas(
    const std::vector<CustomOpDeclaration>& declarations);

}  // namespace ember::aot
