// Custom operator files (`lower --custom_ops FILE.yaml`): upstream ExecuTorch's functions.yaml
// shape, a YAML list with one entry per operator overload:
//
//   - func: mylib::scaled_add.out(Tensor a, Tensor b, float alpha=1.0, *, Tensor(a!) out) -> Tensor(a!)
//     kernels:                      # optional, accepted and ignored: the runtime binds kernels
//       - arg_meta: null            # by name (KernelRegistry::register_kernel)
//         kernel_name: mylib::scaled_add_out
//
// Each `func:` is a function schema (aot/ir/function_schema.h); the entries become the
// functional schemas of aot/ir/custom_ops.h. Keys besides func are upstream's kernels,
// type_alias, dim_order_alias and variants (all ignored); any other key is an error. Errors
// are InvalidArgument naming FILE:line (1-based) and what is wrong; an unreadable file is
// AccessFailed. The YAML itself is read with yaml-cpp (Debian's libyaml-cpp-dev).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "aot/ir/custom_ops.h"

namespace ember::aot {

// The `func:` entries of YAML text; `name` (the file name) prefixes the places.
Result<std::vector<CustomOpDeclaration>> parse_custom_ops_yaml(const std::string& text,
                                                               const std::string& name);

// Reads, parses and checks a custom ops file: the schemas to give RecipeOptions::custom_ops.
Result<std::shared_ptr<const OpSchemaRegistry>> read_custom_ops_file(const std::string& path);

}  // namespace ember::aot
