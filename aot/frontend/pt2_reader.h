// The .pt2 reader: torch.export files (torch 2.2 ... current) into an aot::Graph.
//
// Accepts both containers (pt2-format.md §1): the legacy zip of torch 2.1-2.7
// (serialized_exported_program.json + torch.save pickles) and the PT2 archive of torch
// >= 2.8 (<root>/models/model.json, raw or pickled weights). The result is the ATen
// graph exactly as exported (training IR or core ATen; defaults not filled in), with
// parameters, buffers and lifted constants attached as TensorSpec constant data, the
// signature, and the symbolic-dim range constraints. Every malformed input is a Error
// naming the file, the entry and what is wrong; nothing throws.
//
//   auto graph = ember::aot::read_pt2_file("model.pt2");
//   if (!graph.ok()) { std::cerr << format_error(graph.error()); ... }
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "aot/frontend/read_budget.h"
#include "aot/ir/graph.h"

namespace ember::aot {

struct Pt2ReadOptions {
  bool load_weights = true;  // attach parameters / buffers / constants
  bool verify = true;        // run verify_graph() (schemas checked where known)
  // Most bytes one read may decompress or materialise (read_budget.h): also never more than
  // 1024x the file. Entries the graph does not reference are not read.
  uint64_t max_read_bytes = kDefaultMaxReadBytes;
};

// Reads a whole regular file; AccessFailed naming the path for a directory, a device or a
// failed read, NotFound for a missing path.
Result<std::vector<uint8_t>> read_file_bytes(const std::string& path);
// Reads a .pt2 file from disk.
Result<Graph> read_pt2_file(const std::string& path, const Pt2ReadOptions& options = {});
// Reads a .pt2 held in memory (the bytes are only borrowed during the call); `name`
// names it in messages and in ProgramInfo::source.
Result<Graph> read_pt2_buffer(const uint8_t* data, size_t size, const std::string& name,
                              const Pt2ReadOptions& options = {});

}  // namespace ember::aot
