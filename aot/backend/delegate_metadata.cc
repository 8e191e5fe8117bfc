// Delegate-call metadata encoding (see delegate_metadata.h).
#include "aot/backend/delegate_metadata.h"

#include <cstdint>
#include <utility>

namespace ember::aot {
namespace {

struct Record {
  std::string key;
  std::vector<uint8_t> value;
};

void put_u32(std::string* out, size_t v) {
  for (int i = 0; i < 4; ++i) out->push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
}

bool get_u32(const std::string& s, size_t* at, size_t* v) {
  if (*at > s.size() || s.size() - *at < 4) return false;
  *v = 0;
  for (int i = 0; i < 4; ++i) *v |= size_t(static_cast<uint8_t>(s[*at + i])) << (8 * i);
  *at += 4;
  return true;
}

std::string encode_records(const std::vector<Record>& records) {
  std::string out;
  put_u32(&out, records.size());
  for (const Record& r : records) {
    put_u32(&out, r.key.size());
    out += r.key;
    put_u32(&out, r.value.size());
    out.append(r.value.begin(), r.value.end());
  }
  return out;
}

Result<std::vector<Record>> decode_records(const std::string& text, const char* what) {
  auto bad = [what] {
    return invalid_program(std::string("malformed ") + what + " metadata on a delegate call");
  };
  std::vector<Record> records;
  size_t at = 0, n = 0;
  if (!get_u32(text, &at, &n)) return bad();
  for (size_t i = 0; i < n; ++i) {
    size_t len = 0;
    if (!get_u32(text, &at, &len) || text.size() - at < len) return bad();
    Record r;
    r.key = text.substr(at, len);
    at += len;
    if (!get_u32(text, &at, &len) || text.size() - at < len) return bad();
    r.value.assign(text.begin() + static_cast<long>(at), text.begin() + static_cast<long>(at + len));
    at += len;
    records.push_back(std::move(r));
  }
  if (at != text.size()) return bad();
  return records;
}

}  // namespace

std::string encode_compile_specs(const std::vector<CompileSpec>& specs) {
  std::vector<Record> records;
  for (const CompileSpec& s : specs) records.push_back({s.key, s.value});
  return encode_records(records);
}

Result<std::vector<CompileSpec>> decode_compile_specs(const std::string& text) {
  EMBER_ASSIGN_OR_RETURN(std::vector<Record> records, decode_records(text, "compile-spec"));
  std::vector<CompileSpec> specs;
  for (Record& r : records) specs.push_back({std::move(r.key), std::move(r.value)});
  return specs;
}

std::string encode_named_data(const std::vector<NamedData>& items) {
  std::vector<Record> records;
  for (const NamedData& d : items) records.push_back({d.key, d.data});
  return encode_records(records);
}

Result<std::vector<NamedData>> decode_named_data(const std::string& text) {
  EMBER_ASSIGN_OR_RETURN(std::vector<Record> records, decode_records(text, "named-data"));
  std::vector<NamedData> items;
  for (Record& r : records) {
    NamedData d;
    d.key = std::move(r.key);
    d.data = std::move(r.value);
    items.push_back(std::move(d));
  }
  return items;
}

namespace {

// "L__self__,,pkg.Net;L__self___fc1,fc1,torch.nn.Linear" -> "fc1": the path (the middle
// field, which may itself hold commas) of the last entry.
std::string innermost_module(const std::string& stack) {
  const size_t start = stack.rfind(';') == std::string::npos ? 0 : stack.rfind(';') + 1;
  const std::string entry = stack.substr(start);
  const size_t first = entry.find(','), last = entry.rfind(',');
  if (first == std::string::npos || last == first) return "";
  return entry.substr(first + 1, last - first - 1);
}

}  // namespace

NodeProvenance provenance_of(const Node& node) {
  NodeProvenance p;
  p.node = node.name;
  p.op = node.kind == NodeKind::Op ? node.op.ns + "::" + node.op.name : node.op.qualified();
  p.source = node.source_location();
  auto stack = node.metadata.find("nn_module_stack");
  if (stack != node.metadata.end()) p.module = innermost_module(stack->second);
  return p;
}

std::string encode_delegated_nodes(const std::vector<NodeProvenance>& nodes) {
  std::vector<Record> records;
  for (const NodeProvenance& n : nodes) {
    const std::string value = n.op + "\n" + n.source + "\n" + n.module;
    records.push_back({n.node, std::vector<uint8_t>(value.begin(), value.end())});
  }
  return encode_records(records);
}

Result<std::vector<NodeProvenance>> decode_delegated_nodes(const std::string& text) {
  EMBER_ASSIGN_OR_RETURN(std::vector<Record> records, decode_records(text, "delegated-nodes"));
  std::vector<NodeProvenance> nodes;
  for (Record& r : records) {
    const std::string value(r.value.begin(), r.value.end());
    const size_t a = value.find('\n');
    const size_t b = a == std::string::npos ? a : value.find('\n', a + 1);
    if (b == std::string::npos) return invalid_program("malformed delegated-nodes metadata on a delegate call");
    nodes.push_back({std::move(r.key), value.substr(0, a), value.substr(a + 1, b - a - 1), value.substr(b + 1)});
  }
  return nodes;
}

Error add_named_data(std::vector<NamedData> items, std::vector<NamedData>* into) {
  for (NamedData& item : items) {
    bool present = false;
    for (const NamedData& have : *into) {
      if (have.key != item.key) continue;
      if (have.data != item.data) {
        return invalid_program("named data key '" + item.key + "' holds different bytes (" +
                               std::to_string(have.data.size()) + " and " +
                               std::to_string(item.data.size()) + " bytes)");
      }
      present = true;
    }
    if (!present) into->push_back(std::move(item));
  }
  return Error::Ok;
}

}  // namespace ember::aot
