// Chrome trace-event JSON ("JSON Object Format": {"traceEvents": [...]}) as Perfetto and
// chrome://tracing open it. executor_runner --trace collects complete events ("ph": "X":
// name, category, start and duration in microseconds, process and thread ids, args) for
// load, method init, every execution and every instruction, then writes them once at the
// end. Collecting happens between executions, never inside execute().
//
//   TraceWriter trace;
//   trace.complete("load", "runtime", start_ns, end_ns, {{"path", "m.pte"}});
//   EMBER_TRY(trace.write("out.json"));
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "runtime/core/error.h"

namespace ember::runtime {

class TraceWriter {
 public:
  using Args = std::vector<std::pair<std::string, std::string>>;  // string-valued "args"

  // At most `max_events` complete events are kept (issue #33: --trace grew by ~200 MB/s on a
  // long run); later ones are counted in dropped() and not stored.
  static constexpr size_t kDefaultMaxEvents = 1000000;
  explicit TraceWriter(size_t max_events = kDefaultMaxEvents) : max_events_(max_events) {}

  // Timestamps are ember_pal_now_ns() values; the first event's start becomes ts 0.
  // An end before its start is clamped to a zero duration.
  void complete(const std::string& name, const std::string& category, uint64_t start_ns, uint64_t end_ns,
                Args args = {}, uint32_t tid = 1);
  // Names the process and the thread in the viewer (metadata events, "ph": "M").
  void name_process(const std::string& name) { process_name_ = name; }

  size_t size() const { return events_.size(); }
  uint64_t dropped() const { return dropped_; }
  std::string json() const;
  // AccessFailed naming the file when it cannot be written.
  Error write(const std::string& path) const;

 private:
  struct Event {
    std::string name, category;
    uint64_t start_ns, dur_ns;
    uint32_t tid;
    Args args;
  };
  std::vector<Event> events_;
  size_t max_events_;
  uint64_t dropped_ = 0;
  uint64_t origin_ns_ = 0;
  bool has_origin_ = false;
  std::string process_name_ = "executor_runner";
};

}  // namespace ember::runtime
