// dump_compare (see dump_compare.h).
#include "apps/compare/dump_compare.h"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>

#include <nlohmann/json.hpp>

#include "apps/common/printable.h"
#include "apps/diagnostics/npy.h"
#include "runtime/loader/file_data_loader.h"

namespace ember::aot {
namespace {

using Json = nlohmann::json;

bool get_string(const Json& j, const char* key, std::string* out) {
  const auto it = j.find(key);
  if (it == j.end()) return true;  // optional
  if (!it->is_string()) return false;
  *out = it->get<std::string>();
  return true;
}

// A dump's file name must stay inside its directory.
bool safe_name(const std::string& f) {
  return !f.empty() && f.find('/') == std::string::npos && f.find('\\') == std::string::npos && f != "." &&
         f != "..";
}

Result<std::vector<double>> read_values(const Dump& d, const DumpEntry& e) {
  const std::string path = d.dir + "/" + e.file;
  Result<runtime::NpyArray> a = runtime::read_npy(path);
  if (!a.ok()) return a.error();
  std::vector<double> v(a->header.data_size / runtime::element_size(a->header.dtype));
  for (size_t i = 0; i < v.size(); ++i) v[i] = runtime::element_value(a->header.dtype, a->data(), i);
  return v;
}

std::string shape_text(const std::vector<int64_t>& shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i) s += (i ? "," : "") + std::to_string(shape[i]);
  return s + "]";
}

}  // namespace

Result<Dump> load_dump(const std::string& dir) {
  const std::string path = dir + "/index.json";
  // Through the runtime's file loader: a FIFO, device or directory is refused before open()
  // can block or a read can run forever (issue #33: index.json as /dev/zero aborted compare).
  Result<runtime::FileDataLoader> file = runtime::FileDataLoader::from(path.c_str());
  if (!file.ok()) return annotate(file.error(), "dump index");
  constexpr size_t kMaxIndexBytes = size_t(1) << 30;  // an index lists values: far below 1 GiB
  if (*file->size() > kMaxIndexBytes) {
    return fail(Error::InvalidArgument, "dump index '" + path + "' has " + std::to_string(*file->size()) +
                                            " bytes, more than the 1 GiB an index can have");
  }
  std::string text(*file->size(), '\0');
  if (!text.empty()) EMBER_TRY(file->load_into(0, text.size(), runtime::SegmentInfo{}, text.data()));
  const Json doc = Json::parse(text, nullptr, /*allow_exceptions=*/false);
  auto bad = [&](const std::string& why) { return fail(Error::InvalidArgument, "dump index '" + path + "': " + why); };
  if (doc.is_discarded() || !doc.is_object()) return bad("not a JSON object");
  if (!doc.contains("format") || doc["format"] != "ember.dump") return bad("format is not \"ember.dump\"");
  if (!doc.contains("version") || doc["version"] != 1) return bad("unsupported version (this tool reads version 1)");
  Dump d;
  d.dir = dir;
  if (!get_string(doc, "model", &d.model) || !get_string(doc, "method", &d.method)) return bad("model/method not strings");
  const auto entries = doc.find("entries");
  if (entries == doc.end() || !entries->is_array()) return bad("no \"entries\" array");
  for (const Json& j : *entries) {
    DumpEntry e;
    if (!j.is_object() || !get_string(j, "name", &e.name) || e.name.empty() || !get_string(j, "op", &e.op) ||
        !get_string(j, "source", &e.source) || !get_string(j, "module", &e.module) ||
        !get_string(j, "kind", &e.kind) || !get_string(j, "dtype", &e.dtype) || !get_string(j, "file", &e.file)) {
      return bad("an entry is malformed");
    }
    if (!e.file.empty() && !safe_name(e.file)) return bad("entry '" + e.name + "' names a file outside the dump");
    if (const auto shape = j.find("shape"); shape != j.end()) {
      if (!shape->is_array()) return bad("entry '" + e.name + "': shape is not an array");
      for (const Json& s : *shape) {
        if (!s.is_number_integer()) return bad("entry '" + e.name + "': shape is not integers");
        e.shape.push_back(s.get<int64_t>());
      }
    }
    if (const auto ins = j.find("instruction"); ins != j.end() && ins->is_number_unsigned()) {
      e.instruction = ins->get<size_t>();
    }
    d.entries.push_back(std::move(e));
  }
  return d;
}

double sqnr_db(const std::vector<double>& a, const std::vector<double>& b, double* max_abs) {
  double signal = 0, noise = 0;
  *max_abs = 0;
  for (size_t i = 0; i < a.size() && i < b.size(); ++i) {
    const bool na = std::isnan(a[i]), nb = std::isnan(b[i]);
    if (na && nb) continue;
    if (na || nb || std::isinf(a[i]) || std::isinf(b[i])) {
      if (a[i] == b[i]) continue;  // the same infinity
      *max_abs = INFINITY;
      noise = INFINITY;
      continue;
    }
    const double e = b[i] - a[i];
    *max_abs = std::max(*max_abs, std::fabs(e));
    signal += a[i] * a[i];
    noise += e * e;
  }
  if (noise == 0) return INFINITY;
  if (signal == 0 || std::isinf(noise)) return -INFINITY;
  return 10 * std::log10(signal / noise);
}

Result<CompareReport> compare_dumps(const Dump& a, const Dump& b, const JumpRule& rule) {
  std::map<std::string, const DumpEntry*> in_b;
  for (const DumpEntry& e : b.entries) in_b.emplace(e.name, &e);
  CompareReport r;
  double lowest = INFINITY;
  size_t matched_b = 0;
  for (const DumpEntry& ea : a.entries) {
    auto it = in_b.find(ea.name);
    if (it == in_b.end()) {
      ++r.only_in_a;
      continue;
    }
    ++matched_b;
    const DumpEntry& eb = *it->second;
    LayerDiff L;
    L.name = ea.name;
    L.op = ea.op;
    L.source = ea.source;
    L.shape = shape_text(ea.shape);
    if (ea.file.empty() || eb.file.empty()) {
      L.note = "no data in one dump";
    } else if (ea.shape != eb.shape) {
      L.note = "shape differs: " + shape_text(ea.shape) + " vs " + shape_text(eb.shape);
    } else {
      EMBER_ASSIGN_OR_RETURN(std::vector<double> va, read_values(a, ea));
      EMBER_ASSIGN_OR_RETURN(std::vector<double> vb, read_values(b, eb));
      if (va.size() != vb.size()) {
        L.note = "element counts differ";
      } else {
        L.compared = true;
        L.numel = va.size();
        L.sqnr_db = sqnr_db(va, vb, &L.max_abs);
        if (r.first_jump < 0 && L.sqnr_db < rule.max_db && L.sqnr_db <= lowest - rule.drop_db) {
          L.jump = true;
          r.first_jump = int(r.layers.size());
        }
        lowest = std::min(lowest, L.sqnr_db);
      }
    }
    r.layers.push_back(std::move(L));
  }
  r.only_in_b = b.entries.size() - std::min(b.entries.size(), matched_b);
  return r;
}

// The layer's strings (from the dumps' index.json) escaped for the text report.
static LayerDiff printable_layer(LayerDiff L) {
  for (std::string* s : {&L.name, &L.op, &L.source, &L.shape, &L.note}) *s = apps::printable(*s);
  return L;
}

std::string format_report(const Dump& a, const Dump& b, const CompareReport& r, const JumpRule& rule) {
  std::string out;
  char line[512];
  snprintf(line, sizeof(line), "reference %s (%zu entries) vs %s (%zu entries): %zu lined up by name, %zu only in "
           "the reference, %zu only in the other\n", apps::printable(a.dir).c_str(), a.entries.size(), apps::printable(b.dir).c_str(),
           b.entries.size(), r.layers.size(), r.only_in_a, r.only_in_b);
  out += line;
  snprintf(line, sizeof(line), "%-4s %-28s %-26s %-22s %-16s %12s %10s\n", "#", "name", "op", "source", "shape",
           "max_abs", "sqnr_db");
  out += line;
  for (size_t i = 0; i < r.layers.size(); ++i) {
    const LayerDiff L = printable_layer(r.layers[i]);
    if (!L.compared) {
      snprintf(line, sizeof(line), "%-4zu %-28s %-26s %-22s %-16s (%s)\n", i, L.name.c_str(), L.op.c_str(),
               L.source.empty() ? "-" : L.source.c_str(), L.shape.c_str(), L.note.c_str());
    } else {
      snprintf(line, sizeof(line), "%-4zu %-28s %-26s %-22s %-16s %12.4g %10.2f%s\n", i, L.name.c_str(),
               L.op.c_str(), L.source.empty() ? "-" : L.source.c_str(), L.shape.c_str(), L.max_abs, L.sqnr_db,
               L.jump ? "  <- first jump" : "");
    }
    out += line;
  }
  if (r.first_jump >= 0) {
    const LayerDiff L = printable_layer(r.layers[size_t(r.first_jump)]);
    snprintf(line, sizeof(line), "first jump: %s  %s  %s  (SQNR %.2f dB, max_abs %.4g)\n", L.name.c_str(),
             L.op.c_str(), L.source.empty() ? "-" : L.source.c_str(), L.sqnr_db, L.max_abs);
  } else {
    snprintf(line, sizeof(line), "first jump: none (no lined-up layer is below %g dB and %g dB under the "
             "layers before it)\n", rule.max_db, rule.drop_db);
  }
  out += line;
  return out;
}

}  // namespace ember::aot
