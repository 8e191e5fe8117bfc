// executor_runner --dump_intermediates DIR: an InstructionObserver that writes every
// instruction's outputs (kernel and delegate calls) as .npy files into DIR, named by
// provenance from the --debug sidecar, plus the method's outputs and an index.json that
// lists them (format: docs/profiling.md, "Dumping intermediate outputs"). //apps/compare
// lines up two dumps. Writing files allocates, so the observer is set only for the dumped
// execution; with dumping off nothing here runs.
//
//   IntermediateDumper dump(method, "out/", debug);   // debug may be null
//   method.set_instruction_observer(&dump); method.execute(); method.set_instruction_observer(nullptr);
//   Error err = dump.finish(method, "model.pte");
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "runtime/executor/method.h"
#include "apps/diagnostics/debug_info.h"

namespace ember::runtime {

inline constexpr int kDumpFormatVersion = 1;

class IntermediateDumper final : public InstructionObserver {
 public:
  // `dir` is created if missing (its parent must exist). `debug` may be null: names are then
  // "<kernel>@<instruction>" and a delegate call's outputs are its last argument only. When
  // several instructions come from one node (a decomposed linear: a weight permute, then the
  // matmul), the last keeps the node name (it computes the node's value) and the earlier ones
  // are "<node>#0", "<node>#1", ...
  IntermediateDumper(const Method& method, std::string dir, const DebugInfo* debug);

  // Creates the directory; call before execute().
  Error prepare();
  void after_instruction(size_t instruction, Span<EValue* const> args) override;
  // Writes the method's outputs and index.json. Returns the first error of the run (a file
  // that could not be written), else Ok.
  Error finish(const Method& method, const std::string& model_path);
  size_t num_entries() const { return entries_.size(); }

 private:
  struct Entry {
    std::string name, op, source, module, kind, file, note;
    size_t instruction = 0, output = 0;
    std::string dtype;
    std::vector<int32_t> shape;
    uint64_t runs = 0;
  };
  void dump_value(size_t instruction, size_t k, size_t count, const EValue& value, const char* kind);
  void write_entry(Entry* e, const Tensor& t);

  const Method& method_;
  std::string dir_;
  const DebugInfo* debug_;
  const MethodDebug* method_debug_ = nullptr;
  std::vector<std::string> base_names_;  // per instruction, from the sidecar (unique, see .cc)
  std::vector<Entry> entries_;
  std::map<std::pair<size_t, size_t>, size_t> by_slot_;  // (instruction, output) -> entry
  Error error_ = Error::Ok;
};

// "conv2d_3" -> "conv2d_3"; anything outside [A-Za-z0-9_.-] becomes '_' (names come from
// an untrusted sidecar and must not leave the directory); at most 80 characters.
std::string safe_file_part(const std::string& name);

}  // namespace ember::runtime
