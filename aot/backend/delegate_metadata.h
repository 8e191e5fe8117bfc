// What a delegate-call node carries in its metadata, from the to_backend stage (or
// call_delegated) to the emit step: the backend id, the preprocessed blob, the compile specs
// written into the program's BackendDelegate, and the named data the blob refers to by key
// (program-level `named_data`, e.g. XNNPACK weights keyed by the SHA-256 of their bytes).
//
// Metadata values are strings, so lists of (key, bytes) records are encoded as
//   u32 count, then per record: u32 key length, key, u32 value length, value
// (little-endian). Decoding checks every length against the text.
//
//   call.metadata[kDelegateNamedDataKey] = encode_named_data(result.named_data);
//   auto named = decode_named_data(call.metadata.at(kDelegateNamedDataKey));   // Result
#pragma once

#include <string>
#include <vector>

#include "aot/backend/backend_data.h"
#include "aot/ir/error.h"
#include "aot/ir/node.h"

namespace ember::aot {

// Metadata keys of a delegate-call node.
inline constexpr const char* kDelegateBackendKey = "ember.delegate.backend";
inline constexpr const char* kDelegateBlobKey = "ember.delegate.blob";
inline constexpr const char* kDelegateCompileSpecsKey = "ember.delegate.compile_specs";
inline constexpr const char* kDelegateNamedDataKey = "ember.delegate.named_data";
// The provenance of the nodes a delegate call replaced (encode_delegated_nodes).
inline constexpr const char* kDelegateNodesKey = "ember.delegate.nodes";

std::string encode_compile_specs(const std::vector<CompileSpec>& specs);
Result<std::vector<CompileSpec>> decode_compile_specs(const std::string& text);

// Named data keeps its alignment only as the default (16, what upstream's XNNPACK
// exporter uses); backends needing another alignment are not known yet.
std::string encode_named_data(const std::vector<NamedData>& items);
Result<std::vector<NamedData>> decode_named_data(const std::string& text);

// Provenance of a node: its name, "ns::name" of its ATen op (the functional op a converted
// out-variant node came from), source_location() and the innermost nn_module_stack path.
NodeProvenance provenance_of(const Node& node);

// Node provenance as one record per node (key = node name, value = op, source and module
// separated by '\n').
std::string encode_delegated_nodes(const std::vector<NodeProvenance>& nodes);
Result<std::vector<NodeProvenance>> decode_delegated_nodes(const std::string& text);

// Adds `items` to `into`, skipping a key already present with the same bytes;
// InvalidProgram when a key is already present with different bytes.
Error add_named_data(std::vector<NamedData> items, std::vector<NamedData>* into);

}  // namespace ember::aot
