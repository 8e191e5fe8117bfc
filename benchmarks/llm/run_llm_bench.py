#!/usr/bin/env python3
"""The LLM decode benchmark: Ember's runner against llama.cpp on the same random weights.

  python3 benchmarks/llm/run_llm_bench.py --shape smol135 --dir /work/large_fixtures/llm_bench \
      --rounds 3 --threads 1,2 --json benchmarks/results/llm_bench_smol135.json

Prepares what is missing in DIR/SHAPE (kept between runs): the models (make_models.py in the sid
chroot: HF checkpoint + tokenizer + .pt2), the GGUF files (convert_gguf.py, then llama-quantize
q8_0 / q4_0), Ember's programs (`lower` -c opt --llm_last_logits with xnnpack, xnnpack-8da8w,
xnnpack-8da4w, portable, portable-8da8w and portable-8da4w: the last position's logits only, as
llama-bench computes; --all_logits_rows adds each lowered without it; each lowering's log, with
the accuracy report, and its flags beside it) and the binaries (copied
into DIR/bin from `bazel build -c opt`). Then it measures the single-thread streaming read
bandwidth (stream_read) and runs, in interleaved rounds, for each thread count:
  llama-bench -p 64 -n 32 -r 1 -t T (f32, q8_0, q4_0 GGUF; peak RSS of the process)
  ember_llm --prompt_ids <64 ids> --max_new_tokens 33 --threads T --warmup --json (each .pte)
(both warm up first: llama-bench by default, ember_llm with --warmup; --cold drops Ember's, whose
first-call times are recorded either way as cold_prefill_ms / cold_decode_step_ms)
and prints prefill tok/s (64-token prompt), decode tok/s (32 steps), peak RSS and the fraction of
the bandwidth limit (bandwidth / weight bytes per token at the row's precision), medians over
the rounds, with `uptime`'s load before and after. Everything runs under `nice -n 19`.
"""
import argparse
import datetime
import json
import os
import shutil
import statistics
import subprocess
import sys

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
RUN_SH = os.path.join(REPO, "refgen", "torch_env", "run.sh")
DISK_CACHE = os.path.expanduser("~/.cache/ember-bazel-disk")

# (row name, kind, file, bytes per weight for the bandwidth limit)
GGUF = [("llama.cpp f32", "f32.gguf", 4.0), ("llama.cpp q8_0", "q8_0.gguf", 34 / 32),
        ("llama.cpp q4_0", "q4_0.gguf", 18 / 32)]
EMBER = [("Ember xnnpack (fp32)", "xnnpack", 4.0), ("Ember xnnpack-8da8w", "xnnpack-8da8w", 1.0),
         ("Ember xnnpack-8da4w", "xnnpack-8da4w", 0.5 + 2 / 32),
         ("Ember portable (fp32)", "portable", 4.0),
         ("Ember portable-8da8w", "portable-8da8w", 1.0),
         ("Ember portable-8da4w", "portable-8da4w", 0.5 + 4 / 32)]
NICE = ["nice", "-n", "19"]
# Ember's programs compute the last position's logits only, as llama-bench (and ExecuTorch's
# export_llama by default) does: the head runs on one row of the prompt, not 64.
LOWER_FLAGS = ["--llm_last_logits"]
ALL_LOGITS = ".all_logits"  # a row's file stem ending so is lowered without LOWER_FLAGS (A/B)


def lower_args(stem):
    """The recipe and the extra lower flags of an Ember row's file stem."""
    if stem.endswith(ALL_LOGITS):
        return stem[:-len(ALL_LOGITS)], []
    return stem, LOWER_FLAGS


def log(*a):
    print(*a, file=sys.stderr, flush=True)


def chroot(script, *args, bind):
    env = dict(os.environ, EMBER_EXTRA_BIND=bind)
    return subprocess.run(NICE + [RUN_SH, "sid", script] + list(args), env=env, cwd=REPO,
                          capture_output=True, text=True)


def must(proc, what):
    if proc.returncode != 0:
        sys.exit("%s failed (%d):\n%s\n%s" % (what, proc.returncode, proc.stdout[-3000:],
                                             proc.stderr[-3000:]))
    return proc


def prepare(args, d, bind):
    bench = os.path.join(REPO, "benchmarks", "llm")
    if not os.path.exists(os.path.join(d, "model.pt2")):
        log("making models in", d)
        must(chroot(os.path.join(bench, "make_models.py"), "--shape", args.shape, "--out", d,
                    bind=bind), "make_models.py")
    if not os.path.exists(os.path.join(d, "f32.gguf")):
        log("converting to GGUF")
        must(chroot(os.path.join(bench, "convert_gguf.py"), os.path.join(d, "hf"), "--outtype",
                    "f32", "--outfile", os.path.join(d, "f32.gguf"), bind=bind), "convert")
    for q in ("q8_0", "q4_0"):
        if not os.path.exists(os.path.join(d, q + ".gguf")):
            log("llama-quantize", q)
            must(chroot(os.path.join(bench, "chroot_exec.py"), "llama-quantize",
                        os.path.join(d, "f32.gguf"), os.path.join(d, q + ".gguf"), q, bind=bind),
                 "llama-quantize " + q)
    bindir = os.path.join(args.dir, "bin")
    if args.rebuild or not os.path.exists(os.path.join(bindir, "ember_llm")):
        targets = ["//apps/lower", "//apps/llm:ember_llm", "//benchmarks/llm:stream_read"]
        must(subprocess.run(NICE + ["bazel", "build", "-c", "opt", "--jobs=2",
                                    "--disk_cache=" + DISK_CACHE] + targets, cwd=REPO,
                            capture_output=True, text=True), "bazel build")
        os.makedirs(bindir, exist_ok=True)
        # Bazel 4.2's cquery has no --output=files: take the outputs from bazel-bin by label.
        info = must(subprocess.run(["bazel", "info", "-c", "opt", "bazel-bin"], cwd=REPO,
                                   capture_output=True, text=True), "bazel info")
        bazel_bin = info.stdout.strip()
        for t in targets:
            package, name = t[2:].split(":") if ":" in t else (t[2:], t[2:].split("/")[-1])
            src = os.path.join(bazel_bin, package, name)
            dst = os.path.join(bindir, name)
            if os.path.exists(dst):
                os.remove(dst)  # the old copy may be read-only or hard-linked elsewhere
            shutil.copy2(src, dst)
            log("copied", src)
    for _, stem, _ in EMBER:
        pte = os.path.join(d, stem + ".pte")
        recipe, flags = lower_args(stem)
        # The flags a .pte was lowered with are kept beside it; other flags lower it again.
        stamp = os.path.join(d, stem + ".lower.flags")
        stamped = open(stamp).read().strip() if os.path.exists(stamp) else None
        if args.rebuild or not os.path.exists(pte) or stamped != " ".join(flags):
            log("lower --recipe", recipe, *flags)
            p = must(subprocess.run(NICE + [os.path.join(bindir, "lower"),
                                            os.path.join(d, "model.pt2"), "-o", pte,
                                            "--recipe", recipe] + flags,
                                    capture_output=True, text=True),
                     "lower " + stem)
            with open(os.path.join(d, stem + ".lower.log"), "w") as f:
                f.write(p.stdout + p.stderr)
            with open(stamp, "w") as f:
                f.write(" ".join(flags) + "\n")
    return bindir


def uptime():
    return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()


def drop_page_cache(paths):
    # A file just written (a fresh `lower`) sits in the page cache in large folios, and a fault on
    # one page of a mapping then maps the whole folio: a decoder's embedding rows add ~10 MB of
    # file pages to the peak RSS that the same file read back from disk does not. Dropping the
    # files' clean pages first (no privileges needed) makes every row start from the disk.
    for path in paths:
        if os.path.exists(path):
            fd = os.open(path, os.O_RDONLY)
            try:
                os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
            finally:
                os.close(fd)


def run_llama(d, gguf, threads, bind):
    p = must(chroot(os.path.join(REPO, "benchmarks", "llm", "chroot_exec.py"), "llama-bench",
                    "-m", os.path.join(d, gguf), "-p", "64", "-n", "32", "-r", "1", "-t",
                    str(threads), "-o", "json", bind=bind), "llama-bench " + gguf)
    rows = json.loads(p.stdout[p.stdout.index("["):])
    rss = int(p.stderr.strip().split("peak_rss_kb")[-1])
    pp = [r["avg_ts"] for r in rows if r["n_prompt"] > 0][0]
    tg = [r["avg_ts"] for r in rows if r["n_gen"] > 0][0]
    return {"prefill_tok_s": pp, "decode_tok_s": tg, "peak_rss_mb": rss / 1024.0}


def run_ember(bindir, d, recipe, threads, prompt, cold=False):
    # --warmup: the prompt and one decode step run once first, as llama-bench's warm-up does
    # (a prompt run and one generated token before the timed ones); the cold figures (the first
    # call at each shape, which builds the XNNPACK delegates' plans) are kept beside them.
    p = must(subprocess.run(NICE + [os.path.join(bindir, "ember_llm"), "--model",
                                    os.path.join(d, recipe + ".pte"), "--prompt_ids", prompt,
                                    "--max_new_tokens", "33", "--threads", str(threads),
                                    "--json"] + ([] if cold else ["--warmup"]),
                            capture_output=True, text=True),
             "ember_llm " + recipe)
    j = json.loads(p.stdout.strip().splitlines()[-1])
    r = {"prefill_tok_s": j["prefill_tokens_per_s"], "decode_tok_s": j["decode_tokens_per_s"],
         "peak_rss_mb": j["peak_rss_kb"] / 1024.0, "decode_steps": j["decode_steps"],
         "load_ms": j["load_ms"], "warm": not cold}
    if "warmup_prefill_ms" in j:
        r["cold_prefill_ms"] = j["warmup_prefill_ms"]
        r["cold_decode_step_ms"] = j.get("warmup_decode_ms", 0.0)
    return r


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--shape", choices=["tiny", "smol135"], default="smol135")
    ap.add_argument("--dir", default="/work/large_fixtures/llm_bench")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--json", default="")
    ap.add_argument("--rebuild", action="store_true", help="rebuild binaries and .pte files")
    ap.add_argument("--cold", action="store_true",
                    help="no --warmup for ember_llm (llama-bench still warms up)")
    ap.add_argument("--rows", default="",
                    help="comma-separated substrings; only rows whose name contains one run")
    ap.add_argument("--all_logits_rows", action="store_true",
                    help="also run each Ember row lowered without --llm_last_logits (every "
                         "position's logits), interleaved, as '<row>, all logits'")
    args = ap.parse_args()
    if args.rows:
        keep = lambda name: any(k in name for k in args.rows.split(","))
        GGUF[:] = [g for g in GGUF if keep(g[0])]
        EMBER[:] = [e for e in EMBER if keep(e[0])]
    if args.all_logits_rows:
        EMBER[:] = [r for e in EMBER for r in (e, (e[0] + ", all logits", e[1] + ALL_LOGITS, e[2]))]
    d = os.path.join(os.path.abspath(args.dir), args.shape)
    os.makedirs(d, exist_ok=True)
    bind = os.path.abspath(args.dir)
    bindir = prepare(args, d, bind)
    with open(os.path.join(d, "prompt_ids.txt")) as f:
        prompt = f.read().strip()
    with open(os.path.join(d, "hf", "config.json")) as f:
        config = json.load(f)
    # Weights read per decode step: every parameter once (a tied matrix counted once).
    n_params = sum(os.path.getsize(os.path.join(d, "hf", f)) for f in os.listdir(
        os.path.join(d, "hf")) if f.endswith(".safetensors")) / 4.0
    bw = json.loads(subprocess.run(NICE + [os.path.join(bindir, "stream_read")],
                                   capture_output=True, text=True).stdout)
    result = {"date": datetime.datetime.utcnow().isoformat() + "Z", "shape": args.shape,
              "config": {k: config.get(k) for k in ("hidden_size", "num_hidden_layers",
                                                     "num_attention_heads", "num_key_value_heads",
                                                     "vocab_size", "tie_word_embeddings")},
              "params": n_params, "stream_read": bw, "uptime_before": uptime(), "runs": []}
    threads = [int(t) for t in args.threads.split(",")]
    drop_page_cache([os.path.join(d, g) for _, g, _ in GGUF] +
                    [os.path.join(d, r + ".pte") for _, r, _ in EMBER])
    for rnd in range(args.rounds):
        for t in threads:
            for name, gguf, _ in GGUF:
                r = dict(run_llama(d, gguf, t, bind), row=name, threads=t, round=rnd)
                result["runs"].append(r)
                log(json.dumps(r))
            for name, recipe, _ in EMBER:
                r = dict(run_ember(bindir, d, recipe, t, prompt, args.cold), row=name, threads=t,
                         round=rnd)
                result["runs"].append(r)
                log(json.dumps(r))
    result["uptime_after"] = uptime()
    for _, recipe, _ in EMBER:
        logp = os.path.join(d, recipe + ".lower.log")
        if os.path.exists(logp):
            with open(logp) as f:
                lines = f.read().splitlines()
            result.setdefault("accuracy", {})[recipe] = [
                x for x in lines if "SQNR" in x or "greedy tokens" in x or "wrote" in x]
    if args.json:
        with open(args.json, "w") as f:
            json.dump(result, f, indent=1)
            f.write("\n")
    print_table(result)


def print_table(result):
    bw = result["stream_read"]
    print("%s, %s; params %.1f M; stream read %.1f GB/s (best) / %.1f (median)" % (
        result["date"], result["shape"], result["params"] / 1e6, bw["best_gbps"],
        bw["median_gbps"]))
    print("load before: %s\nload after:  %s" % (result["uptime_before"], result["uptime_after"]))
    print("| engine | threads | prefill 64 tok/s | decode tok/s | % of bandwidth limit | "
          "peak RSS MB |")
    print("|---|---|---|---|---|---|")
    per_byte = {name: b for name, _, b in GGUF + EMBER}
    for t in sorted({r["threads"] for r in result["runs"]}):
        for name in [n for n, _, _ in GGUF + EMBER]:
            rs = [r for r in result["runs"] if r["row"] == name and r["threads"] == t]
            if not rs:
                continue
            pp = statistics.median(r["prefill_tok_s"] for r in rs)
            tg = statistics.median(r["decode_tok_s"] for r in rs)
            rss = max(r["peak_rss_mb"] for r in rs)
            limit = bw["median_gbps"] * 1e9 / (result["params"] * per_byte[name])
            print("| %s | %d | %.1f | %.1f | %.0f%% | %.0f |" % (name, t, pp, tg,
                                                               100 * tg / limit, rss))


if __name__ == "__main__":
    main()
