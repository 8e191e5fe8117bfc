// TraceWriter (see trace_writer.h).
#include "apps/diagnostics/trace_writer.h"

#include <cstdio>

#include <nlohmann/json.hpp>

#include "apps/common/atomic_file.h"
#include "runtime/core/diagnostics.h"

namespace ember::runtime {

void TraceWriter::complete(const std::string& name, const std::string& category, uint64_t start_ns,
                           uint64_t end_ns, Args args, uint32_t tid) {
  if (events_.size() >= max_events_) {
    ++dropped_;
    return;
  }
  if (!has_origin_ || start_ns < origin_ns_) {
    // Events arrive outer-last (an execution after its instructions), so keep the earliest.
    origin_ns_ = start_ns;
    has_origin_ = true;
  }
  events_.push_back({name, category, start_ns, end_ns > start_ns ? end_ns - start_ns : 0, tid, std::move(args)});
}

std::string TraceWriter::json() const {
  using Json = nlohmann::ordered_json;
  Json events = Json::array();
  events.push_back(Json{{"name", "process_name"}, {"ph", "M"}, {"pid", 1}, {"tid", 1},
                        {"args", Json{{"name", process_name_}}}});
  events.push_back(Json{{"name", "thread_name"}, {"ph", "M"}, {"pid", 1}, {"tid", 1},
                        {"args", Json{{"name", "main"}}}});
  for (const Event& e : events_) {
    Json args = Json::object();
    for (const auto& [k, v] : e.args) args[k] = v;
    // Microseconds with nanosecond digits: the format's unit is the microsecond.
    events.push_back(Json{{"name", e.name},
                          {"cat", e.category},
                          {"ph", "X"},
                          {"ts", double(e.start_ns - origin_ns_) / 1e3},
                          {"dur", double(e.dur_ns) / 1e3},
                          {"pid", 1},
                          {"tid", e.tid},
                          {"args", std::move(args)}});
  }
  Json doc{{"traceEvents", std::move(events)}, {"displayTimeUnit", "ms"}};
  return doc.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

Error TraceWriter::write(const std::string& path) const {
  return apps::write_file_atomically(path, json());  // AccessFailed naming the file and step
}

}  // namespace ember::runtime
