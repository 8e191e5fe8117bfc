// Graph: the AoT IR of one exported program (ATen dialect after the frontend).
//
// Owns the values (indexed by ValueId, never removed), the nodes in topological
// (execution) order, the graph inputs and outputs (as Arguments, usually kTensor), the
// torch.export signature, the range constraints of the symbolic dims, and provenance
// (ProgramInfo). Passes mutate nodes() directly and add values with add_value(); the
// verifier (verifier.h) checks the invariants at stage boundaries.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "aot/ir/argument.h"
#include "aot/ir/node.h"
#include "aot/ir/signature.h"
#include "aot/ir/error.h"
#include "aot/ir/sym_int.h"
#include "aot/ir/value.h"

namespace ember::aot {

class OpSchemaRegistry;  // op_schema.h

// Where the graph came from.
struct ProgramInfo {
  std::string source;    // file name or "<buffer>"
  std::string layout;    // "legacy_zip" or "pt2_archive"
  int schema_major = 0;  // 1, 2 (plain ints in torch 2.1/2.2), 3..8
  int schema_minor = 0;
  std::string torch_version;  // "2.6.0+debian"; "" if the file does not say
  std::string dialect;        // "ATEN" (verifiers[0] or the old top-level dialect)
};

class Graph {
 public:
  // Adds a value; the name must be non-empty and unique (Error::InvalidProgram otherwise).
  Result<ValueId> add_value(Value value);
  // ValueId of the value called `name`, kNoValue if none.
  ValueId find_value(const std::string& name) const;
  // Precondition: 0 <= id < num_values().
  Value& value(ValueId id) { return values_[static_cast<size_t>(id)]; }
  const Value& value(ValueId id) const { return values_[static_cast<size_t>(id)]; }
  size_t num_values() const { return values_.size(); }
  bool valid_id(ValueId id) const { return id >= 0 && static_cast<size_t>(id) < values_.size(); }

  std::vector<Node>& nodes() { return nodes_; }
  const std::vector<Node>& nodes() const { return nodes_; }
  std::vector<Argument>& inputs() { return inputs_; }
  const std::vector<Argument>& inputs() const { return inputs_; }
  std::vector<Argument>& outputs() { return outputs_; }
  const std::vector<Argument>& outputs() const { return outputs_; }

  GraphSignature& signature() { return signature_; }
  const GraphSignature& signature() const { return signature_; }
  // Symbol name ("s0") -> range; unbounded ends are std::nullopt.
  std::map<std::string, SymRange>& range_constraints() { return range_constraints_; }
  const std::map<std::string, SymRange>& range_constraints() const { return range_constraints_; }
  ProgramInfo& info() { return info_; }
  const ProgramInfo& info() const { return info_; }

  // The user's custom operator schemas (lower --custom_ops), nullptr if none. Copies of the
  // graph share them; find_op_schema (op_schema.h) looks here after the built-in table.
  const std::shared_ptr<const OpSchemaRegistry>& custom_op_schemas() const { return custom_ops_; }
  void set_custom_op_schemas(std::shared_ptr<const OpSchemaRegistry> schemas) {
    custom_ops_ = std::move(schemas);
  }

  // ValueIds of the graph inputs whose signature kind is `kind`, in input order.
  std::vector<ValueId> inputs_of_kind(InputKind kind) const;

 private:
  std::vector<Value> values_;
  std::unordered_map<std::string, ValueId> by_name_;
  std::vector<Node> nodes_;
  std::vector<Argument> inputs_;
  std::vector<Argument> outputs_;
  GraphSignature signature_;
  std::map<std::string, SymRange> range_constraints_;
  ProgramInfo info_;
  std::shared_ptr<const OpSchemaRegistry> custom_ops_;
};

}  // namespace ember::aot
