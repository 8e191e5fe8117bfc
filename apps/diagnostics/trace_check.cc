// check_trace_events (see trace_check.h).
#include "apps/diagnostics/trace_check.h"

#include <algorithm>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace ember::runtime {
namespace {

using Json = nlohmann::json;

struct Span {
  double ts, end;
  size_t index;
};

bool problem(std::string* why, size_t i, const std::string& what) {
  *why = "event " + std::to_string(i) + ": " + what;
  return false;
}

}  // namespace

bool check_trace_events(const std::string& text, std::string* why) {
  const Json doc = Json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded()) {
    *why = "not JSON";
    return false;
  }
  const Json* events = &doc;
  if (doc.is_object()) {
    auto it = doc.find("traceEvents");
    if (it == doc.end()) {
      *why = "object without \"traceEvents\"";
      return false;
    }
    events = &*it;
  }
  if (!events->is_array()) {
    *why = "\"traceEvents\" is not an array";
    return false;
  }
  const std::string phases = "BEXiIPCbnesftMNODSTpRcv(),";  // every phase letter the format defines
  std::map<std::pair<int64_t, int64_t>, std::vector<Span>> complete;
  std::map<std::pair<int64_t, int64_t>, std::vector<std::string>> open;  // B/E stacks
  for (size_t i = 0; i < events->size(); ++i) {
    const Json& e = (*events)[i];
    if (!e.is_object()) return problem(why, i, "not an object");
    auto ph = e.find("ph");
    if (ph == e.end() || !ph->is_string() || ph->get<std::string>().size() != 1 ||
        phases.find(ph->get<std::string>()[0]) == std::string::npos) {
      return problem(why, i, "\"ph\" missing or not a phase letter");
    }
    const char phase = ph->get<std::string>()[0];
    auto name = e.find("name");
    if (name == e.end() || !name->is_string()) return problem(why, i, "\"name\" missing or not a string");
    for (const char* id : {"pid", "tid"}) {
      auto v = e.find(id);
      if (v == e.end() || !v->is_number_integer()) return problem(why, i, std::string("\"") + id + "\" missing or not an integer");
    }
    auto ts = e.find("ts");
    if (ts == e.end()) {
      if (phase != 'M') return problem(why, i, "\"ts\" missing");
    } else if (!ts->is_number() || ts->get<double>() < 0) {
      return problem(why, i, "\"ts\" is not a non-negative number");
    }
    const auto key = std::make_pair(e["pid"].get<int64_t>(), e["tid"].get<int64_t>());
    if (phase == 'X') {
      auto dur = e.find("dur");
      if (dur == e.end() || !dur->is_number() || dur->get<double>() < 0) {
        return problem(why, i, "complete event without a non-negative \"dur\"");
      }
      const double start = ts->get<double>();
      complete[key].push_back({start, start + dur->get<double>(), i});
    } else if (phase == 'B') {
      open[key].push_back(name->get<std::string>());
    } else if (phase == 'E') {
      if (open[key].empty()) return problem(why, i, "\"E\" without a matching \"B\"");
      open[key].pop_back();
    }
  }
  for (const auto& [key, stack] : open) {
    if (!stack.empty()) {
      *why = "\"B\" event '" + stack.back() + "' never ends";
      return false;
    }
  }
  // Nesting: sorted by start (longer first on ties), every span must end inside the
  // innermost span it starts in. Timestamps are microseconds with ns digits: allow 1 ns.
  constexpr double kSlack = 1e-3;
  for (auto& [key, spans] : complete) {
    std::sort(spans.begin(), spans.end(), [](const Span& a, const Span& b) {
      return a.ts != b.ts ? a.ts < b.ts : a.end > b.end;
    });
    std::vector<Span> stack;
    for (const Span& s : spans) {
      while (!stack.empty() && s.ts >= stack.back().end - kSlack) stack.pop_back();
      if (!stack.empty() && s.end > stack.back().end + kSlack) {
        return problem(why, s.index, "overlaps event " + std::to_string(stack.back().index) +
                                         " on the same thread without nesting inside it");
      }
      stack.push_back(s);
    }
  }
  return true;
}

}  // namespace ember::runtime
