#!/usr/bin/env python3
"""run_peers.py: Ember (xnnpack and portable recipes) against ONNX Runtime and PyTorch eager on
the same fixtures and inputs. Not part of CI; see benchmarks/peers/README.md.

  benchmarks/peers/run_peers.py [--threads 1,2] [--rounds 10] [--models a,b] [--engines ...]

Host Python 3, standard library only. Needs (see README.md): `bazel build -c opt
//benchmarks/peers:ember_runner //apps/lower`, onnxruntime-node installed in
$EMBER_PEERS_NODE_MODULES (default /work/peers_env/node_modules), the sid torch chroot with
python3-onnx, and the ONNX files written by export_onnx.py (it is run here when a model's
sidecar is missing). Every measurement is a fresh process; rounds interleave the engines
(order rotated every round); each process runs the same warmup and iteration count; its
output is checked against the fixture's reference. Prints a markdown table per thread count
and writes all raw figures as JSON.
"""
import argparse
import array
import datetime
import glob
import json
import os
import platform
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.dont_write_bytecode = True  # no __pycache__ in the checkout
sys.path.insert(0, HERE)
import peer_common  # noqa: E402

ENGINES = ["ember_xnnpack", "ember_portable", "onnxruntime", "torch"]
LABELS = {"ember_xnnpack": "Ember+XNNPACK", "ember_portable": "Ember portable",
          "onnxruntime": "ONNX Runtime", "torch": "PyTorch eager"}
# Test fixtures that are not models (formats, dtypes, state): left out unless named.
NOT_MODELS = {"buffers_consts"}
ARRAY_CODES = {"float32": "f", "float64": "d", "int64": "q", "int32": "i", "uint8": "B",
               "bool": "B", "int8": "b"}


# --bin-dir: where lower / ember_runner / executor_runner are read (bazel-bin follows the last
# bazel command's configuration, so a fastbuild test run during a benchmark repoints it).
BIN_DIR = [os.environ.get("EMBER_PEERS_BIN_DIR") or os.path.join(REPO, "bazel-bin")]
# --variant NAME=DIR: engine "ember_xnnpack@NAME" runs the ember_runner copied into DIR (for
# example one linked against another XNNPACK build) on the same .pte, interleaved with the rest.
VARIANTS = {}


def label(engine):
    base, _, variant = engine.partition("@")
    return LABELS[base] + (" @" + variant if variant else "")


def bazel_bin(name, variant=""):
    d = VARIANTS[variant] if variant else BIN_DIR[0]

    flat = os.path.join(d, os.path.basename(name))  # a directory of copied binaries
    return flat if not os.path.exists(os.path.join(d, name)) and os.path.exists(flat) else os.path.join(d, name)


def lower(spec, recipe, pte_dir):
    """Lowers the spec's .pt2 with the recipe (cached by modification time)."""
    pte = os.path.join(pte_dir, "%s.%s.pte" % (spec["model"], recipe))
    tool = bazel_bin("apps/lower/lower")
    if (os.path.exists(pte) and os.path.getmtime(pte) >= os.path.getmtime(spec["pt2"])
            and os.path.getmtime(pte) >= os.path.getmtime(tool)):
        return pte
    log = subprocess.run([tool, spec["pt2"], "-o", pte, "--recipe", recipe],
                         capture_output=True, text=True)
    if log.returncode != 0:
        raise RuntimeError("lower %s %s failed:\n%s%s" % (spec["model"], recipe, log.stdout, log.stderr))
    with open(pte + ".lower.txt", "w") as f:
        f.write(log.stdout + log.stderr)
    return pte


def command(engine, spec, ptes, threads, warmup, iterations, prefix, args):
    if engine.startswith("ember_"):
        engine, _, variant = engine.partition("@")
        inputs = ",".join(e["file"] for e in spec["inputs"])
        if args.ember_runner == "ember_runner":
            return [bazel_bin("benchmarks/peers/ember_runner", variant), ptes[engine], str(threads),
                    str(warmup), str(iterations), prefix, inputs]
        return [bazel_bin("apps/executor_runner/executor_runner", variant), "--model_path", ptes[engine],
                "--inputs", inputs, "--cpu_threads", str(threads), "--warmup", str(warmup),
                "--num_executions", str(iterations), "--json", "--print_output", "none",
                "--output_file", prefix]
    if engine == "onnxruntime":
        return ["node", os.path.join(HERE, "ort_runner.js"), spec["sidecar"], str(threads),
                str(warmup), str(iterations), prefix]
    return [os.path.join(REPO, "refgen", "torch_env", "run.sh"), "sid",
            os.path.join(HERE, "torch_runner.py"), spec["sidecar"], str(threads), str(warmup),
            str(iterations), prefix]


def parse_times(engine, stdout):
    """Figures from the engine's JSON line: wall median_us / min_us, the process's CPU time per
    run cpu_median_us / cpu_min_us / cpu_mean_us (None from runners that predate them) and
    cpu_clock_us (what the CPU clock reads around an empty interval: its own cost, included),
    load_ms, version, os_threads. executor_runner's --json reports *_us (newer) or *_ms with 4
    decimals (older); both are read."""
    line = [l for l in stdout.splitlines() if l.startswith("{")][-1]
    j = json.loads(line)
    if "median_us" in j:
        med, mn = j["median_us"], j["min_us"]
    else:
        med, mn = j["median_ms"] * 1000.0, j["min_ms"] * 1000.0
    return {"median_us": med, "min_us": mn, "cpu_median_us": j.get("cpu_median_us"),
            "cpu_min_us": j.get("cpu_min_us"), "cpu_mean_us": j.get("cpu_mean_us"),
            "cpu_clock_us": j.get("cpu_clock_us"),
            "load_ms": j.get("load_ms", j.get("load_us", 0.0) / 1000.0),
            "version": j.get("version", ""), "os_threads": j.get("os_threads")}


def check_outputs(spec, prefix):
    """Largest |got - ref| and whether every element is within atol + rtol*|ref| (exact for
    integer outputs)."""
    atol, rtol = spec["tolerance"]["atol"], spec["tolerance"]["rtol"]
    worst, ok = 0.0, True
    for i, e in enumerate(spec["outputs"]):
        ref, got = array.array(ARRAY_CODES[e["dtype"]]), array.array(ARRAY_CODES[e["dtype"]])
        with open(e["file"], "rb") as f:
            ref.frombytes(f.read())
        path = "%s-%d.bin" % (prefix, i)
        if not os.path.exists(path):
            return float("inf"), False
        with open(path, "rb") as f:
            data = f.read()
        if len(data) != len(ref) * ref.itemsize:
            return float("inf"), False
        got.frombytes(data)
        exact = e["dtype"] not in ("float32", "float64")
        for g, r in zip(got, ref):
            d = abs(g - r)
            worst = max(worst, d)
            if (d != 0) if exact else not (d <= atol + rtol * abs(r)):
                ok = False
        os.remove(path)
    return worst, ok


def run_one(engine, spec, ptes, threads, warmup, iterations, out_dir, args):
    prefix = os.path.join(out_dir, "%s.%s" % (spec["model"], engine))
    cmd = command(engine, spec, ptes, threads, warmup, iterations, prefix, args)
    env = dict(os.environ)
    env["NODE_PATH"] = args.node_modules
    if engine == "torch":
        env["EMBER_EXTRA_BIND"] = ":".join(sorted({os.path.dirname(spec["sidecar"]), out_dir,
                                                   os.path.dirname(spec["pt2"])}))
    p = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if p.returncode != 0:
        raise RuntimeError("%s on %s failed (%d):\n%s\n%s" % (engine, spec["model"], p.returncode,
                                                              p.stdout[-2000:], p.stderr[-2000:]))
    figures = parse_times(engine, p.stdout)
    diff, ok = check_outputs(spec, prefix)
    figures.update(max_abs_diff=diff, ok=ok)
    return figures


def relocate_fixture_files(spec):
    """A sidecar names the fixture files by the absolute paths of the checkout that exported
    it; when that checkout is gone, take the same file names from this checkout's
    tests/fixtures/pt2 or the large fixtures directory."""
    dirs = [os.path.join(REPO, "tests", "fixtures", "pt2"),
            os.path.join(peer_common.large_fixtures_dir(REPO), "pt2")]

    def find(path):
        if os.path.exists(path):
            return path
        for d in dirs:
            p = os.path.join(d, os.path.basename(path))
            if os.path.exists(p):
                return p
        return path

    before = json.dumps(spec, sort_keys=True)
    spec["pt2"] = find(spec["pt2"])
    for io in spec.get("inputs", []) + spec.get("outputs", []):
        io["file"] = find(io["file"])
    if json.dumps(spec, sort_keys=True) != before:  # the other runners read the sidecar too
        with open(spec["sidecar"], "w") as f:
            json.dump({k: v for k, v in spec.items() if k != "sidecar"}, f, indent=1, sort_keys=True)


def load_specs(args):
    onnx_dir = os.path.join(args.work_dir, "onnx")
    specs = {}
    for path in sorted(glob.glob(os.path.join(onnx_dir, "*.peers.json"))):
        with open(path) as f:
            s = json.load(f)
        s["sidecar"] = path
        relocate_fixture_files(s)
        specs[s["model"]] = s
    wanted = [m for m in args.models.split(",") if m] or [m for m in specs if m not in NOT_MODELS]
    missing = [m for m in wanted if m not in specs]
    if missing:
        raise SystemExit("run_peers: no ONNX export for %s: run benchmarks/peers/export_onnx.py "
                         "(see README.md)" % ", ".join(missing))
    return [specs[m] for m in wanted]


def fmt_us(us):
    if us >= 1000:
        return "%.3g ms" % (us / 1000) if us < 10000 else "%.1f ms" % (us / 1000)
    return "%.3g us" % us if us < 100 else "%.0f us" % us


def summarize(models, rounds_data, engines):
    """Per model: per-engine median of the per-process medians and min of the minima, of the
    wall time and of the CPU time, and per-round ratios (same round, adjacent processes)
    summarized by their median and range: "ratios" of wall medians, "cpu_ratios" of CPU
    medians (absent when a runner reported no CPU time)."""
    summary = {}
    for m in models:
        runs = rounds_data[m]
        row = {}
        for e in engines:
            meds = [r[e]["median_us"] for r in runs]
            row[e] = {"median_us": statistics.median(meds), "min_us": min(r[e]["min_us"] for r in runs),
                      "all_ok": all(r[e]["ok"] for r in runs),
                      "max_abs_diff": max(r[e]["max_abs_diff"] for r in runs)}
            if all(r[e].get("cpu_median_us") is not None for r in runs):
                row[e]["cpu_median_us"] = statistics.median(r[e]["cpu_median_us"] for r in runs)
                row[e]["cpu_min_us"] = min(r[e]["cpu_min_us"] for r in runs)
        row["ratios"], row["ratio_ranges"], row["cpu_ratios"], row["cpu_ratio_ranges"] = {}, {}, {}, {}
        row["min_ratios"] = {}
        pairs = [("ember_xnnpack", "onnxruntime"), ("ember_portable", "ember_xnnpack"),
                 ("ember_portable", "onnxruntime"), ("torch", "onnxruntime")]
        pairs += [(e, "onnxruntime") for e in engines if "@" in e]
        for a, b in pairs:
            if a in engines and b in engines:
                per_round = [r[a]["median_us"] / r[b]["median_us"] for r in runs]
                row["ratios"][a + "/" + b] = statistics.median(per_round)
                row["ratio_ranges"][a + "/" + b] = [min(per_round), max(per_round)]
                row["min_ratios"][a + "/" + b] = row[a]["min_us"] / row[b]["min_us"]
                if "cpu_median_us" in row[a] and "cpu_median_us" in row[b]:
                    per_round = [r[a]["cpu_median_us"] / r[b]["cpu_median_us"] for r in runs]
                    row["cpu_ratios"][a + "/" + b] = statistics.median(per_round)
                    row["cpu_ratio_ranges"][a + "/" + b] = [min(per_round), max(per_round)]
        summary[m] = row
    return summary


def table(summary, engines, models, threads=1):
    """One thread: CPU time per run is the figure (preemption by other processes on a shared
    machine is not counted), wall time beside it. More threads: wall time (what the threads
    are for), median and minimum, and the CPU ratio beside it."""
    use_cpu = threads == 1 and all("cpu_median_us" in summary[m][e] for m in models for e in engines)
    if use_cpu:
        head = "| model | " + " | ".join("%s CPU (wall)" % label(e) for e in engines)
        head += " | **XNNPACK / ORT, CPU** (range) | XNNPACK / ORT, wall | portable / XNNPACK, CPU |"
    else:
        head = "| model | " + " | ".join("%s median (min)" % label(e) for e in engines)
        head += " | **XNNPACK / ORT, wall median** (range) | by wall minima | by CPU | portable / XNNPACK |"
    lines = [head, "|" + "---|" * (len(engines) + (4 if use_cpu else 5))]
    key = "ember_xnnpack/onnxruntime"
    for m in models:
        row = summary[m]
        cells = []
        for e in engines:
            if use_cpu:
                c = "%s (%s)" % (fmt_us(row[e]["cpu_median_us"]), fmt_us(row[e]["median_us"]))
            else:
                c = "%s (%s)" % (fmt_us(row[e]["median_us"]), fmt_us(row[e]["min_us"]))
            cells.append(c if row[e]["all_ok"] else c + " WRONG")

        def ratio(kind, k=key, bold=False):
            x, xr = row[kind].get(k), row.get(kind.replace("ratios", "ratio_ranges"), {}).get(k)
            if x is None:
                return "-"
            return ("**%.2f**" if bold else "%.2f") % x + (" (%.2f-%.2f)" % tuple(xr) if xr else "")

        p = "ember_portable/ember_xnnpack"
        if use_cpu:
            tail = [ratio("cpu_ratios", bold=True), ratio("ratios"), "%.2f" % row["cpu_ratios"][p]
                    if p in row["cpu_ratios"] else "-"]
        else:
            mr = row["min_ratios"].get(key)
            tail = [ratio("ratios", bold=True), "-" if mr is None else "%.2f" % mr,
                    "-" if key not in row["cpu_ratios"] else "%.2f" % row["cpu_ratios"][key],
                    "%.2f" % row["ratios"][p] if p in row["ratios"] else "-"]
        lines.append("| %s | %s | %s |" % (m, " | ".join(cells), " | ".join(tail)))
    variants = [e for e in engines if e.startswith("ember_xnnpack") and "onnxruntime" in engines]
    if any("@" in e for e in variants):  # one ratio column per XNNPACK build
        kind = "cpu_ratios" if use_cpu else "ratios"
        lines += ["", "| model | " + " | ".join("%s / ORT, %s" % (label(e), "CPU" if use_cpu else "wall")
                                               for e in variants) + " |",
                  "|---|" + "---|" * len(variants)]
        for m in models:
            r = summary[m]
            lines.append("| %s | %s |" % (m, " | ".join(
                "%.2f (%.2f-%.2f)" % ((r[kind][e + "/onnxruntime"],)
                                      + tuple(r[kind.replace("ratios", "ratio_ranges")][e + "/onnxruntime"]))
                for e in variants)))
    return "\n".join(lines)


def report(path):
    """Prints the tables of an earlier run's JSON again (summaries recomputed)."""
    with open(path) as f:
        result = json.load(f)
    for threads, mode in sorted(result["modes"].items()):
        models = list(mode["rounds"])
        summary = summarize(models, mode["rounds"], result["engines"])
        print("\n%s thread(s), %d interleaved rounds, %s, load %.2f -> %.2f, %s\n" % (
            threads, mode.get("rounds_done", result["rounds"]), mode.get("started", result["date"]),
            mode["loadavg_before"][0], mode["loadavg_after"][0], result["machine"]))
        print(table(summary, result["engines"], models, int(threads)))
    print("\nversions: %s" % ", ".join("%s %s" % (label(e), v or "(this checkout)")
                                       for e, v in result["versions"].items()))


def iterations_for(spec, ptes, engines, args, out_dir):
    """Per engine: about --target-ms of timed runs per process (at least --min-iterations),
    from one short probe process of that engine; warmup = a tenth of that, at least 3.
    Engines differ by up to 100x on one model, so one shared count would either starve the
    fast ones of samples or make the slow ones run for minutes."""
    counts = {}
    for e in engines:
        probe = run_one(e, spec, ptes, 1, 2, 5, out_dir, args)
        n = int(args.target_ms * 1000 / max(probe["median_us"], 0.05))
        n = max(args.min_iterations, min(args.max_iterations, n))
        counts[e] = (n, max(3, n // 10))
    return counts


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--threads", default="1,2", help="comma-separated thread counts (one table each)")
    p.add_argument("--rounds", type=int, default=10)
    p.add_argument("--models", default="", help="comma-separated (default: every exported model)")
    p.add_argument("--engines", default=",".join(ENGINES))
    p.add_argument("--target-ms", type=float, default=300.0, help="timed time per process")
    p.add_argument("--min-iterations", type=int, default=20)
    p.add_argument("--max-iterations", type=int, default=20000)
    p.add_argument("--work-dir", default=peer_common.work_dir(REPO))
    p.add_argument("--node-modules", default=os.environ.get("EMBER_PEERS_NODE_MODULES",
                                                            "/work/peers_env/node_modules"))
    p.add_argument("--json-out", default="", help="default: <work-dir>/results/peers-<time>.json")
    p.add_argument("--ember-runner", choices=["ember_runner", "executor_runner"], default="",
                   help="default: bazel-bin/benchmarks/peers/ember_runner when built (its threads "
                        "reach the XNNPACK delegate), else executor_runner --json")
    p.add_argument("--report", default="", help="only print the tables of this earlier JSON")
    p.add_argument("--bin-dir", default=BIN_DIR[0],
                   help="bazel-bin of an opt build, or a directory holding copies of lower, "
                        "ember_runner, executor_runner (default $EMBER_PEERS_BIN_DIR, else bazel-bin)")
    p.add_argument("--variant", action="append", default=[], metavar="NAME=DIR",
                   help="also time engine ember_xnnpack@NAME: the ember_runner (or executor_runner) "
                        "copied into DIR, on the same .pte (repeatable)")
    args = p.parse_args()
    BIN_DIR[0] = args.bin_dir
    for v in args.variant:
        name, sep, d = v.partition("=")
        if not sep or not name or "@" in name:
            raise SystemExit("run_peers: --variant wants NAME=DIR, got '%s'" % v)
        if not os.path.isdir(d):
            raise SystemExit("run_peers: --variant %s: no directory '%s'" % (name, d))
        VARIANTS[name] = os.path.abspath(d)
    if args.report:
        return report(args.report)
    engines = [e for e in args.engines.split(",") if e]
    engines += ["ember_xnnpack@" + n for n in VARIANTS if "ember_xnnpack@" + n not in engines]
    if not args.ember_runner:
        built = os.path.exists(bazel_bin("benchmarks/peers/ember_runner"))
        args.ember_runner = "ember_runner" if built else "executor_runner"
    if args.ember_runner == "executor_runner":
        print("run_peers: timing Ember with executor_runner: its --cpu_threads does not reach the "
              "XNNPACK delegate (bazel build -c opt //benchmarks/peers:ember_runner)", file=sys.stderr)
    specs = load_specs(args)
    out_dir = os.path.join(args.work_dir, "out")
    pte_dir = os.path.join(args.work_dir, "pte")
    for d in (out_dir, pte_dir, os.path.join(args.work_dir, "results")):
        os.makedirs(d, exist_ok=True)
    started = datetime.datetime.now(datetime.timezone.utc)
    result = {"date": started.strftime("%Y-%m-%d %H:%M UTC"), "machine": machine(),
              "engines": engines, "rounds": args.rounds, "modes": {},
              "ember_timed_by": args.ember_runner, "variants": dict(VARIANTS)}
    ptes, iters = {}, {}
    for s in specs:
        ptes[s["model"]] = {"ember_" + r: lower(s, r, pte_dir) for r in ("xnnpack", "portable")}
        iters[s["model"]] = iterations_for(s, ptes[s["model"]], engines, args, out_dir)
    out = args.json_out or os.path.join(args.work_dir, "results",
                                        "peers-%s.json" % started.strftime("%Y%m%d-%H%M%S"))
    result["versions"] = {}
    result["inputs"] = {s["model"]: [(e["dtype"], e["shape"]) for e in s["inputs"]] for s in specs}
    result["fixtures"] = {s["model"]: s["pt2_base"] for s in specs}
    models = [s["model"] for s in specs]
    for threads in [int(t) for t in args.threads.split(",") if t]:
        mode = {"threads": threads, "loadavg_before": os.getloadavg(), "iterations_warmup": iters,
                "started": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
                "rounds": {m: [] for m in models}}
        result["modes"][str(threads)] = mode
        for rnd in range(args.rounds):
            order = engines[rnd % len(engines):] + engines[:rnd % len(engines)]
            for s in specs:
                entry = {}
                for e in order:
                    n, w = iters[s["model"]][e]
                    entry[e] = run_one(e, s, ptes[s["model"]], threads, w, n, out_dir, args)
                    result["versions"].setdefault(e, entry[e]["version"])
                mode["rounds"][s["model"]].append(entry)
            # Written after every round, so an interrupted run keeps what it measured.
            mode.setdefault("loadavg_rounds", []).append(os.getloadavg()[0])
            mode.update(rounds_done=rnd + 1, loadavg_after=os.getloadavg(),
                        summary=summarize(models, mode["rounds"], engines))
            write_json(out, result)
            print("threads %d: round %d/%d done (load %.2f)" % (threads, rnd + 1, args.rounds,
                                                               os.getloadavg()[0]), file=sys.stderr)
        print("\n%d thread(s), %d interleaved rounds, %s, load %.2f -> %.2f\n" % (
            threads, args.rounds, mode["started"], mode["loadavg_before"][0], mode["loadavg_after"][0]))
        print(table(mode["summary"], engines, models, threads))
        sys.stdout.flush()
    print("\nversions: %s\nJSON: %s" % (", ".join("%s %s" % (label(e), v or "(this checkout)")
                                                   for e, v in result["versions"].items()), out))


def write_json(path, result):
    with open(path + ".tmp", "w") as f:
        json.dump(result, f, indent=1, sort_keys=True)
        f.write("\n")
    os.replace(path + ".tmp", path)


def machine():
    model = ""
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return {"cpu": model, "cores": os.cpu_count(), "kernel": platform.release(),
            "git": subprocess.run(["git", "-C", REPO, "rev-parse", "--short", "HEAD"],
                                  capture_output=True, text=True).stdout.strip()}


if __name__ == "__main__":
    main()
