// DebugInfo (see debug_info.h).
#include "apps/diagnostics/debug_info.h"

#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "runtime/core/diagnostics.h"
#include "runtime/loader/file_data_loader.h"

namespace ember::runtime {
namespace {

using Json = nlohmann::json;

// A string field, "" when absent; false when present but not a string.
bool get_string(const Json& j, const char* key, std::string* out) {
  auto it = j.find(key);
  if (it == j.end()) return true;
  if (!it->is_string()) return false;
  *out = it->get<std::string>();
  return true;
}

bool get_node(const Json& j, NodeDebug* n) {
  return j.is_object() && get_string(j, "node", &n->node) && get_string(j, "op", &n->op) &&
         get_string(j, "source", &n->source) && get_string(j, "module", &n->module);
}

}  // namespace

Result<DebugInfo> DebugInfo::load(const std::string& path) {
  // The runtime's file loader: a FIFO, device or directory is refused before open() can block
  // or a read run forever (issue #33).
  Result<FileDataLoader> file = FileDataLoader::from(path.c_str());
  if (!file.ok()) return annotate(file.error(), "debug file");
  std::string text(*file->size(), '\0');
  if (!text.empty()) EMBER_TRY(file->load_into(0, text.size(), SegmentInfo{}, text.data()));
  return parse(text, "debug file '" + path + "'");
}

Result<DebugInfo> DebugInfo::parse(const std::string& text, const std::string& what) {
  const Json doc = Json::parse(text, nullptr, /*allow_exceptions=*/false);
  auto bad = [&](const char* why) { return fail(Error::InvalidArgument, "%s: %s", what.c_str(), why); };
  if (doc.is_discarded() || !doc.is_object()) return bad("not a JSON object");
  if (doc.value("format", std::string()) != "ember.ptdbg") return bad("format is not \"ember.ptdbg\"");
  const auto version = doc.find("version");
  if (version == doc.end() || !version->is_number_integer() || version->get<int64_t>() != 1) {
    return bad("unsupported version (this runner reads version 1)");
  }
  DebugInfo info;
  if (const auto pte = doc.find("pte"); pte != doc.end() && pte->is_object()) {
    if (const auto size = pte->find("size"); size != pte->end() && size->is_number_unsigned()) {
      info.pte_size_ = size->get<uint64_t>();
    }
    if (!get_string(*pte, "sha256", &info.pte_sha256_)) return bad("pte.sha256 is not a string");
  }
  const auto methods = doc.find("methods");
  if (methods == doc.end() || !methods->is_array()) return bad("no \"methods\" array");
  for (const Json& m : *methods) {
    MethodDebug md;
    if (!m.is_object() || !get_string(m, "name", &md.name)) return bad("a method is not an object with a name");
    const auto ins = m.find("instructions");
    if (ins == m.end() || !ins->is_array()) return bad("a method has no \"instructions\" array");
    for (const Json& i : *ins) {
      InstructionDebug d;
      if (!get_node(i, &d.origin) || !get_string(i, "kind", &d.kind) || !get_string(i, "backend", &d.backend)) {
        return bad("an instruction entry is malformed");
      }
      if (const auto inside = i.find("delegated"); inside != i.end()) {
        if (!inside->is_array()) return bad("\"delegated\" is not an array");
        for (const Json& n : *inside) {
          NodeDebug nd;
          if (!get_node(n, &nd)) return bad("a delegated node entry is malformed");
          d.delegated.push_back(std::move(nd));
        }
      }
      if (const auto outs = i.find("outputs"); outs != i.end()) {  // absent in older sidecars
        if (!outs->is_array()) return bad("\"outputs\" is not an array");
        for (const Json& v : *outs) {
          if (!v.is_number_integer() || v.get<int64_t>() < 0 || v.get<int64_t>() > INT32_MAX) {
            return bad("an \"outputs\" entry is not a value index");
          }
          d.outputs.push_back(v.get<int32_t>());
        }
        d.has_outputs = true;
      }
      md.instructions.push_back(std::move(d));
    }
    info.methods_.push_back(std::move(md));
  }
  return info;
}

const MethodDebug* DebugInfo::method(const std::string& name) const {
  for (const MethodDebug& m : methods_) {
    if (m.name == name) return &m;
  }
  return nullptr;
}

const InstructionDebug* DebugInfo::find(const std::string& method_name, size_t instruction) const {
  const MethodDebug* m = method(method_name);
  if (m == nullptr || instruction >= m->instructions.size()) return nullptr;
  return &m->instructions[instruction];
}

std::string describe(const NodeDebug& n) {
  std::string s = n.node + "  " + n.op;
  if (!n.source.empty()) {
    s += "  " + n.source;
  } else if (!n.module.empty()) {
    s += "  [" + n.module + "]";
  }
  return s;
}

}  // namespace ember::runtime
