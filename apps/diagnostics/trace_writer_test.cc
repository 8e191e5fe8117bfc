// TraceWriter output against the trace-event format (trace_check.h), and the checker itself
// against hand-written good and bad traces.
#include "apps/diagnostics/trace_writer.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "apps/diagnostics/debug_info.h"
#include "apps/diagnostics/trace_check.h"

namespace ember::runtime {
namespace {

TEST(TraceWriter, NestedEventsInMicrosecondsFromTheFirstStart) {
  TraceWriter t;
  t.complete("instruction 0", "kernel", 2000, 2500, {{"op", "aten::relu"}});
  t.complete("instruction 1", "delegate", 2500, 4000);
  t.complete("execute", "runtime", 1500, 4100);  // recorded after its instructions
  const std::string text = t.json();
  std::string why;
  EXPECT_TRUE(check_trace_events(text, &why)) << why;
  auto j = nlohmann::json::parse(text);
  const auto& ev = j["traceEvents"];
  ASSERT_EQ(ev.size(), 5u);  // process and thread names, then the three events
  EXPECT_EQ(ev[0]["ph"], "M");
  EXPECT_EQ(ev[2]["name"], "instruction 0");
  EXPECT_EQ(ev[2]["ph"], "X");
  EXPECT_DOUBLE_EQ(ev[2]["ts"].get<double>(), 0.5);   // (2000 - 1500) ns
  EXPECT_DOUBLE_EQ(ev[2]["dur"].get<double>(), 0.5);  // 500 ns
  EXPECT_EQ(ev[2]["args"]["op"], "aten::relu");
  EXPECT_DOUBLE_EQ(ev[4]["ts"].get<double>(), 0.0);
  EXPECT_DOUBLE_EQ(ev[4]["dur"].get<double>(), 2.6);
}

TEST(TraceWriter, EndBeforeStartIsAZeroDuration) {
  TraceWriter t;
  t.complete("x", "kernel", 10, 5);
  auto j = nlohmann::json::parse(t.json());
  EXPECT_DOUBLE_EQ(j["traceEvents"][2]["dur"].get<double>(), 0.0);
}

// Issue #33: --trace grew without bound on a long run; events past the cap are counted, not
// kept, and the written file holds the first ones.
TEST(TraceWriter, EventsPastTheCapAreCountedNotKept) {
  TraceWriter t(3);
  for (uint64_t i = 0; i < 1000; ++i) t.complete("e" + std::to_string(i), "kernel", i * 10, i * 10 + 5);
  EXPECT_EQ(t.size(), 3u);
  EXPECT_EQ(t.dropped(), 997u);
  auto j = nlohmann::json::parse(t.json());
  ASSERT_EQ(j["traceEvents"].size(), 5u);  // two metadata events + the first three
  EXPECT_EQ(j["traceEvents"][4]["name"], "e2");
}

TEST(TraceWriter, UnwritablePathIsAccessFailed) {
  TraceWriter t;
  EXPECT_EQ(t.write("/nonexistent-dir/trace.json"), Error::AccessFailed);
}

bool valid(const std::string& text) {
  std::string why;
  return check_trace_events(text, &why);
}

TEST(TraceCheck, AcceptsTheFormatsShapes) {
  EXPECT_TRUE(valid(R"({"traceEvents":[{"name":"a","ph":"X","ts":0,"dur":5,"pid":1,"tid":1},
                                       {"name":"b","ph":"X","ts":1,"dur":2,"pid":1,"tid":1},
                                       {"name":"c","ph":"X","ts":3,"dur":4,"pid":1,"tid":2}]})"));
  EXPECT_TRUE(valid(R"([{"name":"a","ph":"B","ts":0,"pid":1,"tid":1},{"name":"a","ph":"E","ts":2,"pid":1,"tid":1}])"));
  EXPECT_TRUE(valid(R"({"traceEvents":[{"name":"process_name","ph":"M","pid":1,"tid":1,"args":{"name":"p"}}]})"));
}

TEST(TraceCheck, RejectsWhatViewersCannotShow) {
  EXPECT_FALSE(valid("not json"));
  EXPECT_FALSE(valid(R"({"events":[]})"));
  EXPECT_FALSE(valid(R"([{"name":"a","ts":0,"dur":1,"pid":1,"tid":1}])"));               // no ph
  EXPECT_FALSE(valid(R"([{"name":"a","ph":"X","ts":0,"dur":1,"tid":1}])"));              // no pid
  EXPECT_FALSE(valid(R"([{"name":"a","ph":"X","ts":0,"dur":1,"pid":1}])"));              // no tid
  EXPECT_FALSE(valid(R"([{"ph":"X","ts":0,"dur":1,"pid":1,"tid":1}])"));                 // no name
  EXPECT_FALSE(valid(R"([{"name":"a","ph":"X","dur":1,"pid":1,"tid":1}])"));             // no ts
  EXPECT_FALSE(valid(R"([{"name":"a","ph":"X","ts":0,"dur":-1,"pid":1,"tid":1}])"));     // negative dur
  EXPECT_FALSE(valid(R"([{"name":"a","ph":"X","ts":0,"pid":1,"tid":1}])"));              // X without dur
  EXPECT_FALSE(valid(R"([{"name":"a","ph":"X","ts":-3,"dur":1,"pid":1,"tid":1}])"));     // negative ts
  EXPECT_FALSE(valid(R"([{"name":"a","ph":"E","ts":0,"pid":1,"tid":1}])"));              // E without B
  EXPECT_FALSE(valid(R"([{"name":"a","ph":"B","ts":0,"pid":1,"tid":1}])"));              // B never ends
  // b starts inside a and ends after it, on the same thread.
  EXPECT_FALSE(valid(R"([{"name":"a","ph":"X","ts":0,"dur":5,"pid":1,"tid":1},
                         {"name":"b","ph":"X","ts":4,"dur":5,"pid":1,"tid":1}])"));
}

TEST(DebugInfo, ReadsTheSidecarAndRefusesOthers) {
  auto info = DebugInfo::parse(R"({"format":"ember.ptdbg","version":1,"pte":{"size":3,"sha256":"ab"},
      "methods":[{"name":"forward","instructions":[
        {"index":0,"kind":"kernel","node":"addmm","op":"aten::addmm","source":"net.py:7","module":"fc"},
        {"index":1,"kind":"delegate","node":"delegate_call_0","op":"ember::delegate_call","source":"","module":"",
         "backend":"XnnpackBackend","delegated":[{"node":"relu","op":"aten::relu","source":"net.py:8","module":""}]}]}]})",
                               "test");
  ASSERT_TRUE(info.ok());
  EXPECT_EQ(info->pte_size(), 3u);
  const InstructionDebug* d = info->find("forward", 0);
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(describe(d->origin), "addmm  aten::addmm  net.py:7");
  const InstructionDebug* call = info->find("forward", 1);
  ASSERT_NE(call, nullptr);
  EXPECT_EQ(call->backend, "XnnpackBackend");
  ASSERT_EQ(call->delegated.size(), 1u);
  EXPECT_EQ(call->delegated[0].source, "net.py:8");
  EXPECT_EQ(info->find("forward", 2), nullptr);
  EXPECT_EQ(info->find("other", 0), nullptr);
  EXPECT_FALSE(DebugInfo::parse("{}", "test").ok());
  EXPECT_FALSE(DebugInfo::parse(R"({"format":"ember.ptdbg","version":2,"methods":[]})", "test").ok());
  EXPECT_FALSE(DebugInfo::parse(R"({"format":"ember.ptdbg","version":1,"methods":[{"name":"f","instructions":[{"node":3}]}]})",
                                "test").ok());
  EXPECT_EQ(DebugInfo::load("/nonexistent.ptdbg").error(), Error::NotFound);
}

}  // namespace
}  // namespace ember::runtime
