"""Reads a Bazel --execution_log_json_file (concatenated SpawnExec JSON objects) and reports
the spawns of one mnemonic: how many, how many were remote/disk cache hits, their runners,
and each output's path and SHA-256.

    python3 exec_log.py LOG.json EmberLower [--expect-hits all|none] [--expect-count N]

Exit status 1 when an expectation fails (for two_output_bases.sh and remote_cache.sh).
"""
import argparse
import json
import sys


def spawns(path):
    text = open(path, encoding="utf-8").read()
    decoder = json.JSONDecoder()
    i = 0
    while True:
        while i < len(text) and text[i].isspace():
            i += 1
        if i >= len(text):
            return
        obj, i = decoder.raw_decode(text, i)
        yield obj


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("log")
    ap.add_argument("mnemonic")
    ap.add_argument("--expect-hits", choices=["all", "none"])
    ap.add_argument("--expect-count", type=int)
    args = ap.parse_args()
    mine = [s for s in spawns(args.log) if s.get("mnemonic") == args.mnemonic]
    hits = [s for s in mine if s.get("remoteCacheHit")]
    runners = sorted({s.get("runner", "?") for s in mine})
    print("%s: %d spawns, %d cache hits, runners: %s" % (args.mnemonic, len(mine), len(hits), ", ".join(runners)))
    ok = True
    if args.expect_count is not None and len(mine) != args.expect_count:
        print("FAIL: expected %d %s spawns, got %d" % (args.expect_count, args.mnemonic, len(mine)))
        ok = False
    if not mine:
        print("FAIL: no %s spawn in %s" % (args.mnemonic, args.log))
        ok = False
    if args.expect_hits == "all" and len(hits) != len(mine):
        for s in mine:
            if not s.get("remoteCacheHit"):
                print("FAIL: executed, not a cache hit: %s" % s.get("listedOutputs"))
        ok = False
    if args.expect_hits == "none" and hits:
        for s in hits:
            print("FAIL: a cache hit, not executed: %s" % s.get("listedOutputs"))
        ok = False
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
