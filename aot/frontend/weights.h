// Weights of a .pt2: loading the payloads and attaching them to graph values.
//
// Payloads come in three forms (pt2-format.md §3): torch.save pickles (legacy zip
// serialized_state_dict.pt / serialized_constants.pt, and torch 2.8's data/*/model.pt),
// or raw storages described by data/weights/model_weights_config.json (torch >= 2.9).
// attach_weights() gives every parameter, buffer and lifted constant input its
// ConstantData, after checking dtype, shape and byte size against the graph's TensorSpec.
#pragma once

#include <set>
#include <string>

#include "aot/frontend/loaded_tensor.h"
#include "aot/frontend/zip_reader.h"
#include "aot/ir/graph.h"

namespace ember::aot {

// Reads a PayloadConfig JSON ({"config": {fqn: {path_name, use_pickle, tensor_meta}}}) and
// the raw storage records it names under `dir` ("<root>/data/weights/") in `zip`. Only the
// FQNs in `wanted` (the graph's parameters, buffers and constants) are decoded and their
// records read; a zero-length record becomes zeros charged to the zip's ReadBudget.
Result<TensorMap> read_raw_payload(const ZipReader& zip, const std::string& config_path,
                                   const std::string& dir, const std::set<std::string>& wanted);

// The state-dict names (FQNs) of the graph inputs that take weights: parameters, buffers and
// lifted tensor constants. Only these are read from a .pt2's payloads.
std::set<std::string> weight_names(const Graph& graph);

// Attaches `tensors` (FQN -> tensor) to the graph inputs that the signature marks as
// parameters, buffers or tensor constants. Missing FQNs are Error::NotFound; dtype, shape or
// byte-size mismatches kInvalidExternalData; all name the FQN and the graph value.
Error attach_weights(const TensorMap& tensors, Graph* graph);

}  // namespace ember::aot
