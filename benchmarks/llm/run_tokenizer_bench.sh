#!/bin/bash
# Ember's tokenizers against the Python libraries in the same session, one thread, interleaved:
# ROUNDS times (default 3) the Ember benchmark then the Python peer, on DIR (the agreement
# corpus and tokenizers, refgen/llm_tokenizers/). Prints each run's bytes/s per tokenizer; the
# README quotes the medians.
#
#   benchmarks/llm/run_tokenizer_bench.sh /tmp/ember_tok [ROUNDS] [NAMES]
set -euo pipefail
DIR="${1:?usage: run_tokenizer_bench.sh DIR [ROUNDS] [NAMES]}"
ROUNDS="${2:-3}"
NAMES="${3:-gpt2,llama3,qwen,smollm,llama2,spm_unigram,spm_bpe,tiktoken}"
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$ROOT"
# EMBER_BENCH_BIN: an already built tokenizer_benchmark (skips the bazel build).
BIN="${EMBER_BENCH_BIN:-}"
if [ -z "$BIN" ]; then
  bazel build -c opt --disk_cache=/work/bazel-disk --jobs=3 //benchmarks/llm:tokenizer_benchmark >/dev/null 2>&1
  BIN="$(bazel info -c opt bazel-bin 2>/dev/null)/benchmarks/llm/tokenizer_benchmark"
fi
for ((r = 1; r <= ROUNDS; r++)); do
  taskset -c 0 "$BIN" --dir="$DIR" --names="$NAMES" --benchmark_format=json 2>/dev/null |
    python3 -c '
import json, sys
for b in json.load(sys.stdin)["benchmarks"]:
    print(json.dumps({"round": '"$r"', "impl": "ember", "name": b["name"].split("/")[1],
                      "bytes_per_second": b["bytes_per_second"]}))'
  RAYON_NUM_THREADS=1 EMBER_EXTRA_BIND="$DIR" taskset -c 0 \
    refgen/torch_env/run.sh sid benchmarks/llm/python_encode_peer.py "$DIR" "$NAMES" |
    python3 -c '
import json, sys
for line in sys.stdin:
    d = json.loads(line)
    print(json.dumps({"round": '"$r"', "impl": "python", "name": d["name"],
                      "bytes_per_second": d["per_call_bytes_per_second"],
                      "batch_bytes_per_second": d["batch_bytes_per_second"]}))'
done
