// executor_runner's profile output (see profile_report.h).
#include "apps/executor_runner/profile_report.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <string>
#include <utility>

#include "apps/common/printable.h"

namespace ember::runtime {
namespace {

// Names from the .pte and the sidecar (operators, nodes, sources, backend ids) reach the
// terminal escaped (issue #33: a crafted operator name forged an "OK" line).
std::string esc(const std::string& s) { return apps::printable(s); }

const InstructionDebug* lookup(const DebugInfo* debug, const Method& method, size_t i) {
  return debug == nullptr ? nullptr : debug->find(method.name(), i);
}

uint64_t total_of(const std::vector<InstructionProfile>& profile) {
  uint64_t total = 0;
  for (const InstructionProfile& p : profile) total += p.total_ns;
  return total;
}

// Backends whose delegate call is one opaque row, and why (docs/profiling.md).
const char* opaque_reason(const std::string& backend) {
  if (backend == "XnnpackBackend") {
    return "Debian 12's XNNPACK has no per-operator profiling API (no xnn_get_runtime_profiling_info): "
           "the delegate call is timed as a whole";
  }
  return "the backend reports no per-operator times: the delegate call is timed as a whole";
}

}  // namespace

void DelegateOpRecorder::fold() {
  for (const Event& e : *this) {
    Total& t = totals_[{e.instruction, e.op}];
    t.name = e.name;
    t.calls += 1;
    t.total_ns += e.end_ns > e.start_ns ? e.end_ns - e.start_ns : 0;
  }
  size_ = 0;
}

namespace {

std::string where(const NodeDebug& n) {
  return !n.source.empty() ? n.source : n.module.empty() ? "-" : "[" + n.module + "]";
}

// The inner rows of delegate call `i`: its nodes, with times when the backend reported them.
void print_inner_rows(size_t i, const InstructionDebug* d, const DelegateOpRecorder* ops, double all_us,
                      std::map<std::string, bool>* noted) {
  std::vector<std::pair<uint32_t, DelegateOpRecorder::Total>> timed;
  if (ops != nullptr) {
    for (auto it = ops->totals().lower_bound({i, 0}); it != ops->totals().end() && it->first.first == i; ++it) {
      timed.emplace_back(it->first.second, it->second);
    }
  }
  const size_t nodes = d != nullptr ? d->delegated.size() : 0;
  size_t rows = nodes;
  for (const auto& t : timed) rows = std::max(rows, size_t(t.first) + 1);
  for (size_t k = 0; k < rows; ++k) {
    const DelegateOpRecorder::Total* t = nullptr;
    for (const auto& [op, total] : timed) {
      if (op == k) t = &total;
    }
    const std::string node = esc(k < nodes ? d->delegated[k].node : std::string(t != nullptr ? t->name : "?"));
    const std::string op =
        esc(k < nodes ? d->delegated[k].op : "(backend op " + std::string(t != nullptr ? t->name : "?") + ")");
    const std::string src = esc(k < nodes ? where(d->delegated[k]) : "-");
    if (t == nullptr) {
      printf("      %-26s %-30s %-26s %8s %12s %10s %7s\n", ("> " + node).c_str(), op.c_str(), src.c_str(), "", "-",
             "-", "");
    } else {
      const double us = double(t->total_ns) / 1e3;
      printf("      %-26s %-30s %-26s %8llu %12.3f %10.3f %6.1f%%\n", ("> " + node).c_str(), op.c_str(), src.c_str(),
             static_cast<unsigned long long>(t->calls), us, t->calls ? us / double(t->calls) : 0.0,
             all_us > 0 ? 100.0 * us / all_us : 0.0);
    }
  }
  if (timed.empty() && d != nullptr && !(*noted)[d->backend]) {
    (*noted)[d->backend] = true;
    printf("      (%s: %s)\n", esc(d->backend).c_str(), opaque_reason(d->backend));
  }
}

}  // namespace

void print_profile(const Method& method, const std::vector<InstructionProfile>& profile,
                   const DebugInfo* debug, const DelegateOpRecorder* ops) {
  const double all_us = double(total_of(profile)) / 1e3;
  std::map<std::string, bool> noted;
  if (debug == nullptr) {
    printf("%-5s %-48s %8s %12s %10s %7s\n", "#", "instruction", "calls", "total_us", "mean_us", "%");
  } else {
    printf("%-5s %-28s %-30s %-26s %8s %12s %10s %7s\n", "#", "node", "op", "source", "calls", "total_us",
           "mean_us", "%");
  }
  for (size_t i = 0; i < profile.size(); ++i) {
    const InstructionProfile& p = profile[i];
    const double total_us = double(p.total_ns) / 1e3;
    const double mean_us = p.calls ? total_us / double(p.calls) : 0.0;
    const double share = all_us > 0 ? 100.0 * total_us / all_us : 0.0;
    const InstructionDebug* d = lookup(debug, method, i);
    if (debug == nullptr) {
      printf("%-5zu %-48s %8llu %12.3f %10.3f %6.1f%%\n", i, esc(method.instruction_name(i)).c_str(),
             static_cast<unsigned long long>(p.calls), total_us, mean_us, share);
    } else {
      const NodeDebug unknown{method.instruction_name(i), "?", "", ""};
      const NodeDebug& n = d != nullptr ? d->origin : unknown;
      printf("%-5zu %-28s %-30s %-26s %8llu %12.3f %10.3f %6.1f%%\n", i, esc(n.node).c_str(), esc(n.op).c_str(),
             esc(where(n)).c_str(), static_cast<unsigned long long>(p.calls), total_us, mean_us, share);
    }
    const bool delegate_call = d != nullptr ? d->kind == "delegate"
                                            : ops != nullptr && ops->totals().lower_bound({i, 0}) != ops->totals().end() &&
                                                  ops->totals().lower_bound({i, 0})->first.first == i;
    if (delegate_call) print_inner_rows(i, d, ops, all_us, &noted);
  }
  if (ops != nullptr && ops->dropped() != 0) {
    fprintf(stderr, "executor_runner: warning: %llu delegate operator event(s) did not fit the recorder\n",
            static_cast<unsigned long long>(ops->dropped()));
  }
  if (debug != nullptr && debug->method(method.name()) == nullptr) {
    fprintf(stderr, "executor_runner: warning: the debug file has no method '%s'\n", esc(method.name()).c_str());
  }
}

void print_summary(const Method& method, const std::vector<InstructionProfile>& profile,
                   const DebugInfo* debug) {
  struct Row {
    uint64_t count = 0, calls = 0, total_ns = 0;
  };
  std::map<std::string, Row> by_op;
  for (size_t i = 0; i < profile.size(); ++i) {
    const InstructionDebug* d = lookup(debug, method, i);
    std::string op = d != nullptr ? d->origin.op : method.instruction_name(i);
    if (d != nullptr && d->kind == "delegate") op = "delegate:" + d->backend;
    Row& r = by_op[op];
    r.count += 1;
    r.calls += profile[i].calls;
    r.total_ns += profile[i].total_ns;
  }
  std::vector<std::pair<std::string, Row>> rows(by_op.begin(), by_op.end());
  std::stable_sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) { return a.second.total_ns > b.second.total_ns; });
  const double all_us = double(total_of(profile)) / 1e3;
  double cumulative = 0;
  printf("%-40s %8s %8s %12s %10s %7s %7s\n", "op type", "nodes", "calls", "total_us", "avg_us", "%", "cdf%");
  for (const auto& [op, r] : rows) {
    const double total_us = double(r.total_ns) / 1e3;
    const double share = all_us > 0 ? 100.0 * total_us / all_us : 0.0;
    cumulative += share;
    printf("%-40s %8llu %8llu %12.3f %10.3f %6.1f%% %6.1f%%\n", esc(op).c_str(), static_cast<unsigned long long>(r.count),
           static_cast<unsigned long long>(r.calls), total_us, r.calls ? total_us / double(r.calls) : 0.0, share,
           cumulative);
  }
}

void trace_execution(TraceWriter* trace, const Method& method, const std::vector<InstructionProfile>& profile,
                     const std::vector<uint64_t>& calls_before, const DebugInfo* debug, int run,
                     uint64_t start_ns, uint64_t end_ns, const DelegateOpRecorder* ops) {
  for (size_t i = 0; i < profile.size(); ++i) {
    const InstructionProfile& p = profile[i];
    if (p.calls == calls_before[i]) continue;  // did not run this time (a jump skipped it)
    const InstructionDebug* d = lookup(debug, method, i);
    TraceWriter::Args args{{"instruction", std::to_string(i)}, {"kernel", method.instruction_name(i)}};
    std::string name = method.instruction_name(i);
    std::string category = "instruction";
    if (d != nullptr) {
      name = d->origin.node.empty() ? name : d->origin.node;
      args.push_back({"op", d->origin.op});
      if (!d->origin.source.empty()) args.push_back({"source", d->origin.source});
      if (!d->origin.module.empty()) args.push_back({"module", d->origin.module});
      if (d->kind == "delegate") {
        category = "delegate";
        args.push_back({"backend", d->backend});
        std::string inside;
        for (const NodeDebug& n : d->delegated) {
          inside += (inside.empty() ? "" : "; ") + n.node + " " + n.op + (n.source.empty() ? "" : " " + n.source);
        }
        args.push_back({"delegated_nodes", inside});
        bool timed_inside = false;
        if (ops != nullptr) {
          for (const DelegateOpRecorder::Event& e : *ops) timed_inside = timed_inside || e.instruction == i;
        }
        if (!timed_inside) args.push_back({"note", opaque_reason(d->backend)});
      }
    }
    if (p.calls - calls_before[i] > 1) {
      args.push_back({"runs_this_execution", std::to_string(p.calls - calls_before[i]) + " (the last is shown)"});
    }
    trace->complete(name, category, p.last_start_ns, p.last_end_ns, std::move(args));
    if (ops == nullptr) continue;
    for (const DelegateOpRecorder::Event& e : *ops) {
      // Only the instruction's last run is on the timeline: its operators start inside it.
      if (e.instruction != i || e.start_ns < p.last_start_ns) continue;
      const bool named = d != nullptr && e.op < d->delegated.size();
      TraceWriter::Args inner{{"backend_op", e.name}, {"op_index", std::to_string(e.op)}};
      if (named) {
        inner.push_back({"op", d->delegated[e.op].op});
        if (!d->delegated[e.op].source.empty()) inner.push_back({"source", d->delegated[e.op].source});
      }
      trace->complete(named ? d->delegated[e.op].node : e.name, "delegate_op", e.start_ns, e.end_ns, std::move(inner));
    }
  }
  trace->complete("execute #" + std::to_string(run), "execute", start_ns, end_ns, {{"method", method.name()}});
}

}  // namespace ember::runtime
