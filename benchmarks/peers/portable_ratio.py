#!/usr/bin/env python3
"""Portable / XNNPACK whole-model ratio from interleaved executor_runner runs (issue #20 item 3).

  benchmarks/peers/portable_ratio.py RUNNER ROUNDS MODEL[,MODEL...]

RUNNER is an `executor_runner` built with -c opt; the `.pte` files are the peer suite's
(`<model>.xnnpack.pte` / `<model>.portable.pte` in $EMBER_PEERS_PTE, default
/work/large_fixtures/peers/pte, written by run_peers.py). Each round runs, per model, one
process per recipe back to back (order alternating by round), 1 thread, 3 warmup runs and
~200 ms of timed runs (`--json`). Prints a Markdown table: medians of the per-process
medians (smallest minimum), the median over rounds of the per-round ratio, and the ratio of
the minima (the least load-sensitive figure on a shared machine). Standard library only.
"""
import json, os, subprocess, sys, statistics, time
P = os.environ.get("EMBER_PEERS_PTE", "/work/large_fixtures/peers/pte")
runner = sys.argv[1]; rounds = int(sys.argv[2]); models = sys.argv[3].split(",")
def run(m, recipe, n):
    out = subprocess.run([runner, f"--model_path={P}/{m}.{recipe}.pte", "--cpu_threads=1", "--warmup=3",
                          f"--num_executions={n}", "--json", "--print_output=none"],
                         capture_output=True, text=True).stdout
    d = json.loads(out.strip().splitlines()[-1]); return d["median_us"], d["min_us"]
counts = {}
for m in models:
    for r in ("xnnpack", "portable"):
        med, _ = run(m, r, 3); counts[(m, r)] = max(10, min(400, int(200000 / max(med, 1))))
res = {m: [] for m in models}
t0 = time.strftime("%H:%M"); l0 = open("/proc/loadavg").read().split()[0]
for i in range(rounds):
    for m in models:
        order = ("xnnpack", "portable") if i % 2 == 0 else ("portable", "xnnpack")
        v = {r: run(m, r, counts[(m, r)]) for r in order}
        res[m].append(v)
t1 = time.strftime("%H:%M"); l1 = open("/proc/loadavg").read().split()[0]
print(f"# {runner} {rounds} rounds {t0}-{t1} UTC load {l0} -> {l1}")
print("| model | XNNPACK median (min) us | portable median (min) us | portable / XNNPACK median of rounds (range) | ratio of minima |")
print("|---|---|---|---|---|")
for m in models:
    xs = [v["xnnpack"] for v in res[m]]; ps = [v["portable"] for v in res[m]]
    ratios = [p[0] / x[0] for p, x in zip(ps, xs)]
    xm = statistics.median(a for a, _ in xs); pm = statistics.median(a for a, _ in ps)
    xmin = min(b for _, b in xs); pmin = min(b for _, b in ps)
    print(f"| {m} | {xm:.1f} ({xmin:.1f}) | {pm:.1f} ({pmin:.1f}) | **{statistics.median(ratios):.2f}** ({min(ratios):.2f}-{max(ratios):.2f}) | {pmin / xmin:.2f} |")
