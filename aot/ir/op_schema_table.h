// The two halves of the built-in operator schema table (line format: op_schema.h), which
// builtin_op_schemas() parses together:
//   - kAtenOpSchemaLines: every aten overload, generated from PyTorch's own schemas by
//     refgen/schemas/generate.sh into op_schema_table_aten.cc (never edited by hand);
//   - handwritten_op_schema_table(): the operators outside aten that Ember lowers
//     (quantized_decomposed), one line each, in op_schema_table.cc.
#pragma once

#include <cstddef>

namespace ember::aot {

extern const char* const kAtenOpSchemaLines[];
extern const size_t kAtenOpSchemaLineCount;

const char* handwritten_op_schema_table();

}  // namespace ember::aot
