// The two halves of the built-in operator schema table (line format: op_schema.h), which
// builtin_op_schemas() parses together:
//   - kAtenOpSchemaTables: every aten overload, generated from PyTorch's own schemas by
//     refgen/schemas/generate.sh into op_schema_table_aten_<kind>.cc, one file per kind of
//     overload (out variant, composite, in-place, view; never edited by hand);
//   - handwritten_op_schema_table(): the operators outside aten that Ember lowers
//     (quantized_decomposed), one line each, in op_schema_table.cc.
#pragma once

#include <cstddef>

namespace ember::aot {

// Lines of one generated table.
struct OpSchemaLines {
  const char* const* lines;
  size_t count;
};

extern const OpSchemaLines kAtenOutVariantOpSchemas;
extern const OpSchemaLines kAtenCompositeOpSchemas;
extern const OpSchemaLines kAtenInplaceOpSchemas;
extern const OpSchemaLines kAtenViewOpSchemas;

const char* handwritten_op_schema_table();

}  // namespace ember::aot
