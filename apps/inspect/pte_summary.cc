// summarize_pte and its text/JSON renderings (see pte_summary.h).
#include "apps/inspect/pte_summary.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <nlohmann/json.hpp>

#include "aot/ir/scalar_type.h"
#include "aot/planning/memory_planner.h"
#include "runtime/executor/pte_container.h"
#include "apps/common/printable.h"
#include "schema/flatbuffer_elements.h"
#include "schema/program_generated.h"

namespace ember::aot {
namespace {

namespace fb = executorch_flatbuffer;
using apps::printable;

const char* tag_name(fb::KernelTypes t) {
  switch (t) {
    case fb::KernelTypes::Int: return "int";
    case fb::KernelTypes::Bool: return "bool";
    case fb::KernelTypes::Double: return "double";
    case fb::KernelTypes::String: return "string";
    case fb::KernelTypes::Null: return "none";
    default: return "list";
  }
}

PteTensorInfo info_of(const fb::ExecutionPlan* plan, int32_t index) {
  PteTensorInfo info;
  const auto* values = plan->values();
  if (values == nullptr || index < 0 || static_cast<uint32_t>(index) >= values->size()) {
    info.dtype = "<bad index>";
    return info;
  }
  const fb::EValue* v = values->Get(static_cast<uint32_t>(index));
  if (v->val_type() != fb::KernelTypes::Tensor) {
    info.dtype = std::string("<") + tag_name(v->val_type()) + ">";
    return info;
  }
  const fb::Tensor* t = v->val_as_Tensor();
  info.dtype = to_string(static_cast<ScalarType>(t->scalar_type()));
  if (t->sizes() != nullptr) info.sizes.assign(t->sizes()->begin(), t->sizes()->end());
  info.dynamic = t->shape_dynamism() != fb::TensorShapeDynamism::STATIC;
  return info;
}

// Planned tensor byte size (16-aligned), 0 if not planned.
uint64_t planned_bytes(const fb::EValue* v) {
  if (v->val_type() != fb::KernelTypes::Tensor) return 0;
  const fb::Tensor* t = v->val_as_Tensor();
  if (t->allocation_info() == nullptr || t->sizes() == nullptr) return 0;
  uint64_t n = element_size(static_cast<ScalarType>(t->scalar_type()));
  for (int32_t s : *t->sizes()) n *= static_cast<uint64_t>(std::max(s, 0));
  return (n + 15) / 16 * 16;
}

void compute_lower_bound(const fb::ExecutionPlan* plan, PteMethodSummary* m) {
  const auto* values = plan->values();
  if (values == nullptr) return;
  size_t nv = values->size();
  std::vector<int32_t> first(nv, -1), last(nv, -1);
  auto touch = [&](int64_t idx, int32_t t) {
    if (idx < 0 || static_cast<size_t>(idx) >= nv) return;
    size_t k = static_cast<size_t>(idx);
    if (first[k] < 0) first[k] = t;
    last[k] = std::max(last[k], t);
    const fb::EValue* v = values->Get(static_cast<uint32_t>(k));
    if (v->val_type() == fb::KernelTypes::TensorList && v->val_as_TensorList()->items() != nullptr) {
      for (int32_t item : *v->val_as_TensorList()->items()) {
        if (item >= 0 && static_cast<size_t>(item) < nv) {
          if (first[static_cast<size_t>(item)] < 0) first[static_cast<size_t>(item)] = t;
          last[static_cast<size_t>(item)] = std::max(last[static_cast<size_t>(item)], t);
        }
      }
    }
  };
  if (plan->inputs() != nullptr) {
    for (int32_t i : *plan->inputs()) touch(i, 0);
  }
  int32_t t = 0;
  if (plan->chains() != nullptr) {
    for (const fb::Chain* chain : *plan->chains()) {
      if (chain->instructions() == nullptr) continue;
      for (const fb::Instruction* ins : *chain->instructions()) {
        const flatbuffers::Vector<int32_t>* args = nullptr;
        if (ins->instr_args_type() == fb::InstructionArguments::KernelCall) {
          args = ins->instr_args_as_KernelCall()->args();
        } else if (ins->instr_args_type() == fb::InstructionArguments::DelegateCall) {
          args = ins->instr_args_as_DelegateCall()->args();
        }
        if (args != nullptr) {
          for (int32_t a : *args) touch(a, t);
        }
        ++t;
      }
    }
  }
  if (plan->outputs() != nullptr) {
    for (int32_t o : *plan->outputs()) touch(o, std::max(t - 1, 0));
  }
  std::vector<PlanItem> items;
  for (size_t k = 0; k < nv; ++k) {
    uint64_t bytes = planned_bytes(values->Get(static_cast<uint32_t>(k)));
    if (bytes == 0 || first[k] < 0) continue;
    items.push_back({bytes, first[k], last[k]});
  }
  m->planned_tensors = items.size();
  m->lower_bound = live_size_lower_bound(items);
}

// The verifier accepts a union whose tag is set but whose member is absent; the accessors
// then return null. Reject such a value or instruction before anything reads it.
Error check_unions(const fb::ExecutionPlan* plan, const std::string& method) {
  if (plan->values() != nullptr) {
    for (uint32_t k = 0; k < plan->values()->size(); ++k) {
      const fb::EValue* v = plan->values()->Get(k);
      if (v->val_type() != fb::KernelTypes::NONE && v->val() == nullptr) {
        return invalid_program("method '" + method + "' value " + std::to_string(k) + ": tagged " +
                               fb::EnumNameKernelTypes(v->val_type()) + " but holds no " +
                               fb::EnumNameKernelTypes(v->val_type()));
      }
    }
  }
  if (plan->chains() == nullptr) return Error::Ok;
  for (uint32_t c = 0; c < plan->chains()->size(); ++c) {
    const auto* instructions = plan->chains()->Get(c)->instructions();
    if (instructions == nullptr) continue;
    for (uint32_t i = 0; i < instructions->size(); ++i) {
      const fb::Instruction* ins = instructions->Get(i);
      if (ins->instr_args_type() != fb::InstructionArguments::NONE && ins->instr_args() == nullptr) {
        return invalid_program("method '" + method + "' chain " + std::to_string(c) + " instruction " +
                               std::to_string(i) + ": tagged " +
                               fb::EnumNameInstructionArguments(ins->instr_args_type()) + " but has no arguments");
      }
    }
  }
  return Error::Ok;
}

// The dtypes of the tensors a kernel call names (tensor lists: their items).
void add_dtypes(const fb::ExecutionPlan* plan, const flatbuffers::Vector<int32_t>* args, std::set<int>* dtypes) {
  const auto* values = plan->values();
  if (args == nullptr || values == nullptr) return;
  auto add = [&](int32_t index) {
    if (index < 0 || static_cast<uint32_t>(index) >= values->size()) return;
    const fb::EValue* v = values->Get(static_cast<uint32_t>(index));
    if (v->val_type() == fb::KernelTypes::Tensor) dtypes->insert(static_cast<int>(v->val_as_Tensor()->scalar_type()));
  };
  for (int32_t a : *args) {
    add(a);
    if (a < 0 || static_cast<uint32_t>(a) >= values->size()) continue;
    const fb::EValue* v = values->Get(static_cast<uint32_t>(a));
    if (v->val_type() == fb::KernelTypes::TensorList && v->val_as_TensorList()->items() != nullptr) {
      for (int32_t item : *v->val_as_TensorList()->items()) add(item);
    }
  }
}

Result<PteMethodSummary> summarize_plan(const fb::ExecutionPlan* plan) {
  PteMethodSummary m;
  m.name = plan->name() == nullptr ? "" : plan->name()->str();
  EMBER_TRY(check_unions(plan, m.name));
  if (plan->inputs() != nullptr) {
    for (int32_t i : *plan->inputs()) m.inputs.push_back(info_of(plan, i));
  }
  if (plan->outputs() != nullptr) {
    for (int32_t o : *plan->outputs()) m.outputs.push_back(info_of(plan, o));
  }
  m.num_values = plan->values() == nullptr ? 0 : plan->values()->size();
  std::vector<std::string> ops;
  if (plan->operators() != nullptr) {
    for (const fb::Operator* op : *plan->operators()) {
      std::string key = op->name() == nullptr ? "" : op->name()->str();
      if (op->overload() != nullptr && op->overload()->size() > 0) key += "." + op->overload()->str();
      ops.push_back(key);
    }
  }
  if (plan->chains() != nullptr) {
    for (const fb::Chain* chain : *plan->chains()) {
      if (chain->instructions() == nullptr) continue;
      for (const fb::Instruction* ins : *chain->instructions()) {
        ++m.num_instructions;
        if (ins->instr_args_type() == fb::InstructionArguments::KernelCall) {
          const fb::KernelCall* call = ins->instr_args_as_KernelCall();
          int32_t k = call->op_index();
          const std::string& op = k >= 0 && static_cast<size_t>(k) < ops.size() ? ops[static_cast<size_t>(k)] : "<bad op index>";
          ++m.op_histogram[op];
          add_dtypes(plan, call->args(), &m.op_dtypes[op]);
        } else if (ins->instr_args_type() == fb::InstructionArguments::DelegateCall) {
          ++m.op_histogram["<delegate call>"];
        }
      }
    }
  }
  if (plan->non_const_buffer_sizes() != nullptr) {
    const auto* sizes = plan->non_const_buffer_sizes();
    for (size_t i = 0; i < sizes->size(); ++i) m.buffer_sizes.push_back(schema::load_element(sizes, i));
    for (size_t i = 1; i < m.buffer_sizes.size(); ++i) m.arena_bytes += static_cast<uint64_t>(std::max<int64_t>(m.buffer_sizes[i], 0));
  }
  compute_lower_bound(plan, &m);
  return m;
}

}  // namespace

std::string PteTensorInfo::to_string() const {
  std::string out = dtype;
  if (dtype.empty() || dtype[0] == '<') return out;
  out += "[";
  for (size_t i = 0; i < sizes.size(); ++i) out += (i ? ", " : "") + std::to_string(sizes[i]);
  return out + "]" + (dynamic ? " (dynamic, upper bounds)" : "");
}

Result<PteSummary> summarize_pte(const std::vector<uint8_t>& bytes) {
  EMBER_ASSIGN_OR_RETURN(runtime::PteContainer container,
                         runtime::PteContainer::open(bytes.data(), bytes.size()));
  PteSummary s;
  s.file_bytes = bytes.size();
  s.extended_header = container.layout().has_extended_header;
  const fb::Program* p = static_cast<const fb::Program*>(container.program_root());
  s.num_segments = p->segments() == nullptr ? 0 : p->segments()->size();
  if (p->constant_segment() != nullptr && p->segments() != nullptr &&
      p->constant_segment()->segment_index() < p->segments()->size()) {
    s.constants_bytes = p->segments()->Get(p->constant_segment()->segment_index())->size();
    if (p->constant_segment()->offsets() != nullptr && p->constant_segment()->offsets()->size() > 0) {
      s.num_constants = p->constant_segment()->offsets()->size() - 1;
    }
  } else if (p->constant_buffer() != nullptr) {
    for (const fb::Buffer* b : *p->constant_buffer()) {
      if (b->storage() != nullptr) s.constants_bytes += b->storage()->size();
    }
    s.num_constants = p->constant_buffer()->size() > 0 ? p->constant_buffer()->size() - 1 : 0;
  }
  if (p->named_data() != nullptr) {
    s.num_named_data = p->named_data()->size();
    for (const fb::NamedData* nd : *p->named_data()) {
      if (p->segments() != nullptr && nd->segment_index() < p->segments()->size()) {
        s.named_data_bytes += p->segments()->Get(nd->segment_index())->size();
      }
    }
  }
  if (p->execution_plan() != nullptr) {
    for (const fb::ExecutionPlan* plan : *p->execution_plan()) {
      EMBER_ASSIGN_OR_RETURN(PteMethodSummary m, summarize_plan(plan));
      if (plan->delegates() != nullptr) {
        for (const fb::BackendDelegate* d : *plan->delegates()) {
          uint64_t blob = 0;
          const fb::BackendDelegateDataReference* ref = d->processed();
          if (ref != nullptr && ref->location() == fb::DataLocation::SEGMENT && p->segments() != nullptr &&
              ref->index() < p->segments()->size()) {
            blob = p->segments()->Get(ref->index())->size();
          } else if (ref != nullptr && p->backend_delegate_data() != nullptr &&
                     ref->index() < p->backend_delegate_data()->size()) {
            const auto* data = p->backend_delegate_data()->Get(ref->index())->data();
            blob = data == nullptr ? 0 : data->size();
          }
          m.delegates.push_back({d->id() == nullptr ? "" : d->id()->str(), blob});
        }
      }
      s.methods.push_back(std::move(m));
    }
  }
  return s;
}

std::string pte_summary_text(const PteSummary& s) {
  std::string out = "pte: " + std::to_string(s.file_bytes) + " bytes" +
                    (s.extended_header ? ", eh00 header" : "") + ", " + std::to_string(s.num_segments) +
                    " segment(s)\nconstants: " + std::to_string(s.num_constants) + " tensor(s), " +
                    std::to_string(s.constants_bytes) + " bytes\nnamed data: " +
                    std::to_string(s.num_named_data) + " entr" + (s.num_named_data == 1 ? "y, " : "ies, ") +
                    std::to_string(s.named_data_bytes) + " bytes\n";
  for (const PteMethodSummary& m : s.methods) {
    out += "method '" + printable(m.name) + "': " + std::to_string(m.num_instructions) + " instructions, " +
           std::to_string(m.num_values) + " values\n";
    for (size_t i = 0; i < m.inputs.size(); ++i) out += "  input " + std::to_string(i) + ": " + m.inputs[i].to_string() + "\n";
    for (size_t i = 0; i < m.outputs.size(); ++i) out += "  output " + std::to_string(i) + ": " + m.outputs[i].to_string() + "\n";
    out += "  operators:\n";
    for (const auto& [op, n] : m.op_histogram) out += "    " + std::to_string(n) + "  " + printable(op) + "\n";
    if (m.delegates.empty()) out += "  delegates: none\n";
    for (const auto& [id, blob] : m.delegates) out += "  delegate " + printable(id) + ": " + std::to_string(blob) + " byte blob\n";
    char line[200];
    std::snprintf(line, sizeof(line), "  memory plan: arena %llu B in %zu buffer(s), lower bound %llu B (ratio %.3f), %zu planned tensors\n",
                  static_cast<unsigned long long>(m.arena_bytes), m.buffer_sizes.empty() ? 0 : m.buffer_sizes.size() - 1,
                  static_cast<unsigned long long>(m.lower_bound),
                  m.lower_bound == 0 ? 1.0 : static_cast<double>(m.arena_bytes) / static_cast<double>(m.lower_bound),
                  m.planned_tensors);
    out += line;
  }
  return out;
}

std::string pte_summary_json(const PteSummary& s) {
  nlohmann::json j;
  j["format"] = "pte";
  j["file_bytes"] = s.file_bytes;
  j["extended_header"] = s.extended_header;
  j["constants"] = {{"count", s.num_constants}, {"bytes", s.constants_bytes}};
  j["segments"] = s.num_segments;
  j["named_data"] = {{"count", s.num_named_data}, {"bytes", s.named_data_bytes}};
  j["methods"] = nlohmann::json::array();
  auto tensors = [](const std::vector<PteTensorInfo>& v) {
    nlohmann::json a = nlohmann::json::array();
    for (const auto& t : v) a.push_back({{"dtype", t.dtype}, {"sizes", t.sizes}, {"dynamic", t.dynamic}});
    return a;
  };
  for (const PteMethodSummary& m : s.methods) {
    nlohmann::json jm;
    jm["name"] = m.name;
    jm["inputs"] = tensors(m.inputs);
    jm["outputs"] = tensors(m.outputs);
    jm["operators"] = m.op_histogram;
    jm["delegates"] = nlohmann::json::array();
    for (const auto& [id, blob] : m.delegates) jm["delegates"].push_back({{"id", id}, {"blob_bytes", blob}});
    jm["instructions"] = m.num_instructions;
    jm["memory_plan"] = {{"buffer_sizes", m.buffer_sizes}, {"arena_bytes", m.arena_bytes},
                         {"lower_bound_bytes", m.lower_bound}, {"planned_tensors", m.planned_tensors}};
    j["methods"].push_back(jm);
  }
  // Names from the file may hold any bytes: JSON escapes control bytes, invalid UTF-8 becomes U+FFFD.
  return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

}  // namespace ember::aot
