// IntermediateDumper (see dump.h).
#include "apps/diagnostics/dump.h"

#include "apps/common/atomic_file.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include <nlohmann/json.hpp>

#include "apps/common/atomic_file.h"
#include "runtime/core/diagnostics.h"
#include "runtime/core/tensor.h"
#include "apps/diagnostics/npy.h"

namespace ember::runtime {

std::string safe_file_part(const std::string& name) {
  std::string out;
  for (char c : name) {
    if (out.size() == 80) break;
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
                    c == '-' || c == '.';
    out += ok ? c : '_';
  }
  if (out.empty() || out[0] == '.') out.insert(out.begin(), '_');
  return out;
}

IntermediateDumper::IntermediateDumper(const Method& method, std::string dir, const DebugInfo* debug)
    : method_(method), dir_(std::move(dir)), debug_(debug) {
  if (debug_ != nullptr) method_debug_ = debug_->method(method.name());
  if (method_debug_ != nullptr && method_debug_->instructions.size() != method.num_instructions()) {
    method_debug_ = nullptr;  // another program's sidecar: runner warned; do not trust its value indices
  }
  if (method_debug_ == nullptr) return;
  std::map<std::string, std::vector<size_t>> by_node;
  base_names_.resize(method_debug_->instructions.size());
  for (size_t i = 0; i < method_debug_->instructions.size(); ++i) {
    const InstructionDebug& d = method_debug_->instructions[i];
    base_names_[i] = d.origin.node;
    if (!d.origin.node.empty() && (d.kind == "kernel" || d.kind == "delegate")) by_node[d.origin.node].push_back(i);
  }
  for (const auto& [node, list] : by_node) {
    for (size_t k = 0; k + 1 < list.size(); ++k) base_names_[list[k]] = node + "#" + std::to_string(k);
  }
}

Error IntermediateDumper::prepare() {
  if (dir_.empty()) return fail(Error::InvalidArgument, "--dump_intermediates needs a directory");
  if (mkdir(dir_.c_str(), 0755) != 0 && errno != EEXIST) {
    return fail(Error::AccessFailed, "--dump_intermediates: cannot create '%s': %s", dir_.c_str(), strerror(errno));
  }
  struct stat st;
  if (stat(dir_.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
    return fail(Error::AccessFailed, "--dump_intermediates: '%s' is not a directory", dir_.c_str());
  }
  return Error::Ok;
}

void IntermediateDumper::after_instruction(size_t instruction, Span<EValue* const> args) {
  const InstructionDebug* d = method_debug_ != nullptr ? &method_debug_->instructions[instruction] : nullptr;
  const char* kind = args.empty() ? "" : "instruction";
  if (d != nullptr && d->has_outputs) {
    for (size_t k = 0; k < d->outputs.size(); ++k) {
      const size_t v = size_t(d->outputs[k]);
      if (v >= method_.num_values()) continue;  // a malformed sidecar: skip, never index past the table
      dump_value(instruction, k, d->outputs.size(), method_.get_value(v), kind);
    }
    return;
  }
  if (args.empty() || args[args.size() - 1] == nullptr) return;  // move, jump_false, free
  const EValue& last = *args[args.size() - 1];
  if (last.is_tensor_list()) {
    const TensorList list = last.to_tensor_list();
    for (size_t k = 0; k < list.size(); ++k) {
      dump_value(instruction, k, list.size(), EValue(&list[k]), kind);
    }
  } else {
    dump_value(instruction, 0, 1, last, kind);
  }
}

void IntermediateDumper::dump_value(size_t instruction, size_t k, size_t count, const EValue& value,
                                    const char* kind) {
  auto [slot, added] = by_slot_.emplace(std::make_pair(instruction, k), entries_.size());
  if (added) {
    Entry e;
    e.instruction = instruction;
    e.output = k;
    e.kind = kind;
    const InstructionDebug* d = method_debug_ != nullptr ? &method_debug_->instructions[instruction] : nullptr;
    std::string base;
    if (d != nullptr && !d->origin.node.empty()) {
      base = base_names_[instruction];
      e.op = d->origin.op;
      e.source = d->origin.source;
      e.module = d->origin.module;
    } else {
      base = std::string(method_.instruction_name(instruction)) + "@" + std::to_string(instruction);
      e.op = method_.instruction_name(instruction);
    }
    e.name = count > 1 ? base + ":" + std::to_string(k) : base;
    char prefix[32];
    snprintf(prefix, sizeof(prefix), "%04zu_", instruction);
    e.file = prefix + safe_file_part(e.name) + ".npy";
    entries_.push_back(std::move(e));
  }
  Entry& e = entries_[slot->second];
  e.runs += 1;  // a loop body runs again: its file is overwritten with the last run
  if (value.is_tensor()) {
    write_entry(&e, value.to_tensor());
    return;
  }
  // Scalars (sym_size results, prim ops) as 0-d arrays.
  if (value.is_int() || value.is_double() || value.is_bool()) {
    int64_t i = value.is_int() ? value.to_int() : 0;
    double f = value.is_double() ? value.to_double() : 0;
    bool b = value.is_bool() && value.to_bool();
    const ScalarType type = value.is_int() ? ScalarType::Long : value.is_double() ? ScalarType::Double : ScalarType::Bool;
    const void* p = value.is_int() ? static_cast<const void*>(&i) : value.is_double() ? static_cast<const void*>(&f)
                                                                                       : static_cast<const void*>(&b);
    e.dtype = scalar_type_name(type);
    e.shape.clear();
    if (Error err = write_npy(dir_ + "/" + e.file, type, {}, p, element_size(type)); err != Error::Ok && error_ == Error::Ok) {
      error_ = err;
    }
    return;
  }
  e.file.clear();
  e.note = std::string("not a tensor or scalar (") + tag_name(value.tag()) + ")";
}

void IntermediateDumper::write_entry(Entry* e, const Tensor& t) {
  e->dtype = scalar_type_name(t.scalar_type());
  e->shape.assign(t.sizes().begin(), t.sizes().end());
  if (t.const_data_ptr() == nullptr && t.numel() > 0) {
    e->note = "no data (freed or not allocated)";
    e->file.clear();
    return;
  }
  if (npy_descr(t.scalar_type()) == nullptr) {
    e->note = std::string(".npy has no dtype for ") + e->dtype;
    e->file.clear();
    return;
  }
  const size_t elem = t.element_size();
  const uint8_t* src = static_cast<const uint8_t*>(t.const_data_ptr());
  std::vector<uint8_t> logical;
  if (!t.is_contiguous_dim_order() && t.numel() > 0) {
    // .npy is C order over the logical shape: gather through the strides (channels-last).
    logical.resize(t.nbytes());
    std::vector<int32_t> index(t.dim(), 0);
    for (size_t n = 0; n < t.numel(); ++n) {
      size_t offset = 0;
      for (size_t d = 0; d < t.dim(); ++d) offset += size_t(index[d]) * size_t(t.strides()[d]);
      memcpy(&logical[n * elem], src + offset * elem, elem);
      for (size_t d = t.dim(); d-- > 0;) {
        if (++index[d] < t.size(d)) break;
        index[d] = 0;
      }
    }
    src = logical.data();
  }
  Error err = write_npy(dir_ + "/" + e->file, t.scalar_type(),
                        Span<const int32_t>(e->shape.data(), e->shape.size()), src, t.nbytes());
  if (err != Error::Ok && error_ == Error::Ok) error_ = err;
}

Error IntermediateDumper::finish(const Method& method, const std::string& model_path) {
  for (size_t i = 0; i < method.outputs_size(); ++i) {
    const EValue& v = method.get_output(i);
    Entry e;
    e.name = "output:" + std::to_string(i);
    e.kind = "output";
    e.instruction = method.num_instructions();
    e.output = i;
    e.file = "output_" + std::to_string(i) + ".npy";
    e.runs = 1;
    entries_.push_back(std::move(e));
    if (v.is_tensor()) {
      write_entry(&entries_.back(), v.to_tensor());
    } else {
      entries_.back().file.clear();
      entries_.back().note = std::string("not a tensor (") + tag_name(v.tag()) + ")";
    }
  }
  using Json = nlohmann::ordered_json;
  Json list = Json::array();
  for (const Entry& e : entries_) {
    Json j{{"name", e.name}, {"op", e.op}, {"source", e.source}, {"module", e.module}, {"kind", e.kind},
           {"instruction", e.instruction}, {"output", e.output}, {"dtype", e.dtype}, {"shape", e.shape},
           {"file", e.file}, {"runs", e.runs}};
    if (!e.note.empty()) j["note"] = e.note;
    list.push_back(std::move(j));
  }
  Json doc{{"format", "ember.dump"}, {"version", kDumpFormatVersion}, {"model", model_path},
           {"method", method.name()}, {"provenance", method_debug_ != nullptr}, {"entries", std::move(list)}};
  const std::string path = dir_ + "/index.json";
  const std::string text = doc.dump(1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
  EMBER_TRY(apps::write_file_atomically(path, text));
  return error_;
}

}  // namespace ember::runtime
