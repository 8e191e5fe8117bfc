#!/bin/bash
# Runs //tests/fuzz:demo_bytecode_fuzz (the DemoBackend bytecode verifier + interpreter)
# for SECONDS (default 60) under libFuzzer + ASan/UBSan (fuzz_common.sh) on the seeds of
# demo_write_seeds.
set -euo pipefail
SECONDS_TO_RUN="${1:-60}"
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$ROOT"
source tests/fuzz/fuzz_common.sh
fuzz_workdir ember-demo-fuzz

bazel run //tests/fuzz:demo_write_seeds -- "$CORPUS" >/dev/null
run_fuzzer demo_bytecode_fuzz "$SECONDS_TO_RUN" -rss_limit_mb=2048 -max_len=65536
