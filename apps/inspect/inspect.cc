// inspect: prints what a torch.export .pt2 file or an ExecuTorch .pte file contains.
//
//   bazel run //apps/inspect -- model.pt2 [--json] [--graph=false] [--dot out.dot]
//   bazel run //apps/inspect -- model.pte [--json]
//   bazel run //apps/inspect -- model.pte --debug model.ptdbg
//   bazel run //apps/inspect -- model.bpte [--json] [--extract_program inner.pte]
//
// For a .pte (recognized by its "ET12" identifier): methods, inputs/outputs with dtypes
// and shapes, an operator histogram, delegates, constants size, and the memory plan with
// the arena against a lower bound recomputed from the program (pte_summary.h). When its
// forward is a decoder LLM (token ids and positions in, logits out; llm/runner), an "llm"
// section adds the context length, vocabulary and the memory one conversation needs (the
// file, planned memory with the KV cache, temp), as ember_llm_estimate_memory reports it. With
// --debug FILE.ptdbg (lower --debug_out) it then lists every instruction's node, ATen op,
// source line and module, the nodes inside each delegate call, and whether the sidecar's
// SHA-256 matches the .pte (docs/profiling.md). For a bundled program (.bpte, "BP08"): its
// version, every method's test cases (inputs and expected outputs), then the inner program
// as above; --extract_program FILE writes the inner .pte (bundled_summary.h).
//
// Shows user inputs/outputs with dtypes and shapes (symbolic dims by name, with their
// ranges), an op histogram, parameter/buffer/constant sizes, buffer mutations and the
// graph (one node per line with the user's source line). For a .ptd (external data, "FT01"):
// its keys and their sizes. Relative paths are resolved against $BUILD_WORKING_DIRECTORY
// (the directory `bazel run` was started in). Every string from the file is escaped
// (apps/common/printable.h); --dot and --extract_program are written atomically and may
// not name the input or --debug (status 2). Exit status 1 with the error's name and message
// when the file cannot be read or an output cannot be written.
#include <gflags/gflags.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "aot/emit/sha256.h"
#include "aot/frontend/pt2_reader.h"
#include "apps/inspect/bundled_summary.h"
#include "apps/inspect/graph_dot.h"
#include "apps/inspect/pt2_summary.h"
#include "apps/inspect/pte_summary.h"
#include "apps/common/atomic_file.h"
#include "apps/common/path_collision.h"
#include "apps/common/printable.h"
#include "apps/common/unknown_flags.h"
#include "apps/diagnostics/debug_info.h"
#include "apps/inspect/printable_graph.h"
#include "llm/runner/pte_logits_model.h"
#include "runtime/executor/pte_container.h"
#include "runtime/loader/buffer_data_loader.h"
#include "runtime/loader/flat_tensor_data_map.h"
#include <nlohmann/json.hpp>

DEFINE_bool(json, false, "print the summary as JSON");
DEFINE_bool(graph, true, "include the graph, one node per line");
DEFINE_bool(weights, true, "load and check the weights (slower for large models)");
DEFINE_string(debug, "", "(.pte) list the provenance sidecar (lower --debug_out) per instruction");
DEFINE_string(extract_program, "", "(.bpte) also write the inner program (.pte) to this file");
DEFINE_string(dot, "", "(.pt2) also write a Graphviz picture of the graph to this file");

namespace {

bool looks_like_pte(const std::vector<uint8_t>& bytes) {
  return ember::runtime::PteContainer::has_program_identifier(bytes.data(), bytes.size());
}

bool looks_like_bpte(const std::vector<uint8_t>& bytes) {
  return bytes.size() >= 8 && std::string(bytes.begin() + 4, bytes.begin() + 8) == "BP08";
}

bool looks_like_ptd(const std::vector<uint8_t>& bytes) {
  return bytes.size() >= 8 && std::string(bytes.begin() + 4, bytes.begin() + 8) == "FT01";
}

int report(ember::aot::Error err, int status = 1) {
  std::fprintf(stderr, "inspect: %s\n", ember::apps::printable_message(ember::aot::format_error(err)).c_str());
  return status;
}

using ember::apps::printable;

// A .ptd: its named tensors' keys and byte sizes (text or JSON).
int inspect_ptd(const std::string& path, const std::vector<uint8_t>& bytes) {
  ember::runtime::BufferDataLoader loader(bytes.data(), bytes.size());
  auto map = ember::runtime::FlatTensorDataMap::load(&loader);
  if (!map.ok()) return report(ember::aot::annotate(map.error(), path));
  std::string text = "external data (.ptd): " + printable(path) + "\n  " + std::to_string(bytes.size()) +
                     " bytes, " + std::to_string(map->num_keys()) + " named tensor(s)\n";
  std::string json = "{\"file\":" + ember::apps::json_quoted(path) + ",\"bytes\":" + std::to_string(bytes.size()) +
                     ",\"keys\":[";
  for (size_t i = 0; i < map->num_keys(); ++i) {
    auto key = map->key_at(i);
    if (!key.ok()) return report(ember::aot::annotate(key.error(), path));
    auto data = map->get_data(*key);
    if (!data.ok()) return report(ember::aot::annotate(data.error(), path));
    text += "  " + printable(*key) + " : " + std::to_string(data->size()) + " bytes\n";
    json += std::string(i ? "," : "") + "{\"key\":" + ember::apps::json_quoted(*key) +
            ",\"bytes\":" + std::to_string(data->size()) + "}";
  }
  const std::string out = FLAGS_json ? json + "]}\n" : text;
  std::fwrite(out.data(), 1, out.size(), stdout);
  return 0;
}

std::string where(const ember::runtime::NodeDebug& n) {
  std::string s = n.source.empty() ? "-" : n.source;
  return n.module.empty() ? s : s + "  [" + n.module + "]";
}

// The --debug listing: one line per instruction, one per delegated node.
int list_provenance(const std::vector<uint8_t>& pte) {
  std::string path = FLAGS_debug;
  const char* cwd = std::getenv("BUILD_WORKING_DIRECTORY");
  if (!path.empty() && path[0] != '/' && cwd != nullptr) path = std::string(cwd) + "/" + path;
  auto info = ember::runtime::DebugInfo::load(path);
  if (!info.ok()) {
    std::fprintf(stderr, "inspect: %s\n", ember::apps::printable_message(ember::aot::format_error(info.error())).c_str());
    return 1;
  }
  const bool matches = info->pte_sha256() == ember::aot::sha256_hex(pte);
  std::printf("provenance (%s): %s\n", printable(FLAGS_debug).c_str(),
              matches ? "written for this .pte" : "WARNING: written for another .pte (SHA-256 differs)");
  for (const ember::runtime::MethodDebug& m : info->methods()) {
    std::printf("  method %s: %zu instructions\n", printable(m.name).c_str(), m.instructions.size());
    for (size_t i = 0; i < m.instructions.size(); ++i) {
      const ember::runtime::InstructionDebug& d = m.instructions[i];
      std::printf("    %-4zu %-9s %-28s %-30s %s\n", i, printable(d.kind).c_str(), printable(d.origin.node).c_str(),
                  printable(d.origin.op).c_str(), printable(where(d.origin)).c_str());
      for (const ember::runtime::NodeDebug& n : d.delegated) {
        std::printf("           > %-26s %-30s %s\n", printable(n.node).c_str(), printable(n.op).c_str(),
                    printable(where(n)).c_str());
      }
    }
  }
  return 0;
}

// The decoder view, or "" when forward is not a decoder.
std::string llm_section(const std::string& path, std::string summary) {
  auto m = ember::llm::estimate_memory(path);
  if (!m.ok()) return summary;
  if (FLAGS_json) {
    nlohmann::json j = nlohmann::json::parse(summary, nullptr, false);
    if (j.is_discarded()) return summary;
    j["llm"] = {{"context_length", m->context_length}, {"max_seq_len", m->max_seq_len},
                {"vocab_size", m->vocab_size},         {"file_bytes", m->file_bytes},
                {"planned_bytes", m->planned_bytes},   {"kv_cache_bytes", m->state_bytes},
                {"temp_bytes", m->temp_bytes},         {"total_bytes", m->total_bytes()}};
    return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
  }
  char text[512];
  std::snprintf(text, sizeof(text),
                "llm: decoder, context %d positions, prefill up to %d tokens, vocab %d\n"
                "  memory for one conversation: %llu bytes = file %llu (weights, mapped) + "
                "planned %llu (KV cache %llu) + temp %llu; each further conversation: %llu\n",
                m->context_length, m->max_seq_len, m->vocab_size,
                static_cast<unsigned long long>(m->total_bytes()),
                static_cast<unsigned long long>(m->file_bytes),
                static_cast<unsigned long long>(m->planned_bytes),
                static_cast<unsigned long long>(m->state_bytes),
                static_cast<unsigned long long>(m->temp_bytes),
                static_cast<unsigned long long>(m->planned_bytes + m->temp_bytes));
  return summary + text;
}

int inspect_pte(const std::string& path, const std::vector<uint8_t>& bytes) {
  auto summary = ember::aot::summarize_pte(bytes);
  if (!summary.ok()) return report(ember::aot::annotate(summary.error(), path));
  std::string out = FLAGS_json ? ember::aot::pte_summary_json(summary.get())
                               : ember::aot::pte_summary_text(summary.get());
  out = llm_section(path, std::move(out));
  std::fwrite(out.data(), 1, out.size(), stdout);
  return FLAGS_debug.empty() ? 0 : list_provenance(bytes);
}

std::string resolve(const std::string& path) {
  const char* cwd = std::getenv("BUILD_WORKING_DIRECTORY");
  return path.empty() || path[0] == '/' || cwd == nullptr ? path : std::string(cwd) + "/" + path;
}

int inspect_bpte(const std::string& path, const std::vector<uint8_t>& bytes) {
  auto out = FLAGS_json ? ember::aot::bundled_summary_json(bytes) : ember::aot::bundled_summary_text(bytes);
  if (!out.ok()) return report(ember::aot::annotate(out.error(), path));
  std::fwrite(out->data(), 1, out->size(), stdout);
  if (FLAGS_extract_program.empty()) return 0;
  auto inner = ember::aot::bundled_inner_program(bytes);
  if (!inner.ok()) return report(inner.error());
  const std::string target = resolve(FLAGS_extract_program);
  if (auto err = ember::apps::write_file_atomically(target, inner->data(), inner->size()); err != ember::aot::Error::Ok) {
    return report(err);
  }
  std::fprintf(stderr, "inspect: wrote the inner program to %s (%zu bytes)\n", printable(target).c_str(), inner->size());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  gflags::SetUsageMessage("inspect FILE.pt2 [--json] [--graph=false] [--weights=false]");
  if (auto err = ember::apps::check_unknown_flags(argc, argv); err != ember::aot::Error::Ok) return report(err, 2);
  gflags::ParseCommandLineFlags(&argc, &argv, true);
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s FILE.pt2 [--json] [--graph=false]\n", argv[0]);
    return 2;
  }
  std::string path = argv[1];
  const char* cwd = std::getenv("BUILD_WORKING_DIRECTORY");
  if (!path.empty() && path[0] != '/' && cwd != nullptr) path = std::string(cwd) + "/" + path;
  // Issue #33: `inspect m.pt2 --dot m.pt2` and `--extract_program <input>` destroyed the input.
  std::vector<ember::apps::PathUse> inputs = {{"FILE", path}};
  if (!FLAGS_debug.empty()) inputs.push_back({"--debug", resolve(FLAGS_debug)});
  std::vector<ember::apps::PathUse> outputs;
  if (!FLAGS_dot.empty()) outputs.push_back({"--dot", resolve(FLAGS_dot)});
  if (!FLAGS_extract_program.empty()) outputs.push_back({"--extract_program", resolve(FLAGS_extract_program)});
  if (auto err = ember::apps::check_path_collisions(inputs, outputs); err != ember::aot::Error::Ok) {
    return report(err, 2);
  }
  auto bytes = ember::aot::read_file_bytes(path);
  if (!bytes.ok()) return report(bytes.error());
  if (looks_like_pte(*bytes)) return inspect_pte(path, *bytes);
  if (looks_like_bpte(*bytes)) return inspect_bpte(path, *bytes);
  if (looks_like_ptd(*bytes)) return inspect_ptd(path, *bytes);
  ember::aot::Pt2ReadOptions options;
  options.load_weights = FLAGS_weights;
  auto graph = ember::aot::read_pt2_buffer(bytes->data(), bytes->size(), path, options);
  if (!graph.ok()) return report(graph.error());
  // Every string the file put into the graph, escaped before it is printed as text or
  // Graphviz; the JSON form quotes them itself (invalid UTF-8 replaced).
  if (FLAGS_json) {
    const std::string out = ember::aot::summarize_pt2_json(graph.get(), FLAGS_graph);
    std::fwrite(out.data(), 1, out.size(), stdout);
  }
  ember::aot::make_printable(&graph.get());
  if (!FLAGS_json) {
    const std::string out = ember::aot::summarize_pt2_text(graph.get(), FLAGS_graph);
    std::fwrite(out.data(), 1, out.size(), stdout);
  }
  if (!FLAGS_dot.empty()) {
    const std::string dot = ember::aot::graph_to_dot(graph.get());
    if (auto err = ember::apps::write_file_atomically(resolve(FLAGS_dot), dot); err != ember::aot::Error::Ok) {
      return report(err);
    }
  }
  return 0;
}
