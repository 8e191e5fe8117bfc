// Operator schemas: ATen argument names, types, defaults, returns and out variants.
//
// torch.export omits trailing arguments equal to their default, so every consumer of
// an exported node needs the operator's schema. OpSchemaRegistry holds the table of
// schemas (one op overload per line) and answers lookups by OpName. bind_arguments() turns a node's named
// inputs into the full positional argument list with defaults filled in, which is what
// the .pte emitter writes into a KernelCall.
//
// The built-in table: the aten lines generated from PyTorch's own schemas
// (op_schema_table_aten_*.cc, refgen/schemas/generate.sh) plus hand-written lines for other
// namespaces (op_schema_table.cc); see op_schema_table.h.
//
// Table line format (columns separated by '|'):
//   aten::name.overload | arg arg ... | returns | out variant | flags
//   arg     := ['*'] name ':' type ['!'] ['=' default]   ('*' = keyword-only, '!' = mutated)
//   type    := Tensor | int | SymInt | float | bool | str | Scalar | ScalarType | Layout |
//              Device | MemoryFormat | Generator, then optional '[N]' / '[]' and '?'
//              (Tensor?[] = list of optional tensors)
//   default := None | True | False | integer | float | 'text' | [a,b,...] | contiguous_format
//   returns := space-separated types ('-' = none);  out := aten::name.overload or '-'
//   flags   := 'view' (outputs alias the first input), 'inplace', or '-'
// For view ops the out variant is the out form of the `_copy` functional op.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "aot/ir/argument.h"
#include "aot/ir/graph.h"
#include "aot/ir/node.h"
#include "aot/ir/error.h"

namespace ember::aot {

enum class BaseType : uint8_t {
  Tensor,
  Int,
  SymInt,
  Float,
  Bool,
  Str,
  Scalar,
  ScalarType,
  Layout,
  Device,
  MemoryFormat,
  Generator,
};

struct SchemaType {
  BaseType base = BaseType::Tensor;
  bool optional = false;           // T?  (or T[]? for an optional list)
  bool list = false;               // T[] / T[N]
  int list_size = 0;               // N of T[N], 0 = any length
  bool optional_elements = false;  // Tensor?[]
  std::string to_string() const;   // "SymInt[2]", "Tensor?", "Tensor?[]"
};

struct ArgSchema {
  std::string name;
  SchemaType type;
  bool kw_only = false;
  bool is_mutable = false;  // written in place (Tensor(a!))
  bool has_default = false;
  std::string default_text;  // as in the table ("1", "None", "[]")
  Argument default_value;    // parsed; lists expanded to list_size ("1" -> [1, 1])
};

struct OpSchema {
  OpName op;
  std::vector<ArgSchema> args;
  std::vector<SchemaType> returns;
  std::string out_variant;  // "aten::add.out", "" if none
  bool is_view = false;
  bool is_inplace = false;
  std::string declared_at;  // "ops.yaml:3" for a custom operator (--custom_ops), "" if built in

  // Index of the argument called `name`, -1 if none.
  int arg_index(const std::string& name) const;
  // "aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor"
  std::string to_string() const;
};

// Parses one table line (format above). Errors name the line and the bad token.
Result<OpSchema> parse_op_schema_line(const std::string& line);
// The type and default grammars above, for other schema readers (function_schema.h).
Result<SchemaType> parse_schema_type(const std::string& text);
Result<Argument> parse_schema_default(const SchemaType& type, const std::string& text);

class OpSchemaRegistry {
 public:
  // Adds a schema; a duplicate op name is Error::InvalidArgument.
  Error add(OpSchema schema);
  // Parses a whole table (blank lines and lines starting with '#' are skipped).
  Error add_table(const std::string& table);
  // nullptr if unknown.
  const OpSchema* find(const OpName& op) const;
  const OpSchema* find(const std::string& qualified) const;  // "aten::add.Tensor"
  size_t size() const { return schemas_.size(); }
  const std::map<std::string, OpSchema>& all() const { return schemas_; }

 private:
  std::map<std::string, OpSchema> schemas_;  // keyed by qualified name
};

// The built-in ATen table (parsed once on first use; a parse failure of our own table is
// reported by builtin_op_schema_status() and leaves the registry empty).
const OpSchemaRegistry& builtin_op_schemas();
Error builtin_op_schema_status();
// The raw built-in table text.
const char* builtin_op_schema_table();

// The schema of `op` in the built-in table, else among the graph's custom operators
// (Graph::custom_op_schemas(), lower --custom_ops); nullptr if neither has it. Passes that
// may meet a custom operator look schemas up here rather than in builtin_op_schemas().
const OpSchema* find_op_schema(const Graph& graph, const OpName& op);
const OpSchema* find_op_schema(const Graph& graph, const std::string& qualified);

// The schema of `schema.out_variant` derived by ATen's rules: the functional arguments,
// minus the TensorOptions (dtype, layout, device, pin_memory) of factory-like ops that take
// layout and device, plus one keyword-only mutable Tensor per return, named "out" (one
// return) or as ATen names them for the common multi-output ops (max_pool2d_with_indices:
// out, indices; native_batch_norm: out, save_mean, save_invstd; max.dim: max, max_values;
// topk: values, indices; otherwise out0, out1, ...). Error::NotFound if there is no out variant.
Result<OpSchema> derive_out_variant_schema(const OpSchema& schema);

// Whether an argument of kind `kind` may be passed for `type` (wrapped numbers are
// accepted for Tensor, ints for float, literals for Sym types).
bool argument_matches(const SchemaType& type, const Argument& arg);

// Full argument list of `node` in schema order with omitted defaults filled in.
// Errors (Error::InvalidProgram) name the node: unknown argument names, missing required
// arguments, argument kinds that do not fit the schema type.
Result<std::vector<Argument>> bind_arguments(const OpSchema& schema, const Node& node);

}  // namespace ember::aot
