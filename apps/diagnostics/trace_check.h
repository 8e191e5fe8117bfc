// A checker for Chrome trace-event JSON, written from the format's public description
// ("Trace Event Format", JSON Object Format): the document is {"traceEvents": [...]} (or a
// bare array); every event is an object with a string "name" and "ph", integer "pid" and
// "tid", and a non-negative number "ts" (metadata events, "ph": "M", may omit ts);
// complete events ("X") have a non-negative "dur"; on each (pid, tid) complete events nest
// (one starting inside another ends inside it) and B/E events pair up. Used by the trace
// tests and by `trace_check FILE` in the end-to-end profiling test.
#pragma once

#include <string>

namespace ember::runtime {

// True when `text` is valid; otherwise false with the first problem in `why`.
bool check_trace_events(const std::string& text, std::string* why);

}  // namespace ember::runtime
