#!/bin/bash
# Runs //tests/fuzz:program_fuzz (Program::load + load_method + execute on arbitrary
# .pte bytes) for SECONDS (default 60) under libFuzzer + ASan/UBSan (fuzz_common.sh) on a
# seed corpus assembled at run time: the hand-made bad files of write_seeds and the .pte
# files of ../shared (never committed) when present.
set -euo pipefail
SECONDS_TO_RUN="${1:-60}"
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$ROOT"
source tests/fuzz/fuzz_common.sh
fuzz_workdir ember-fuzz

bazel run //tests/fuzz:write_seeds -- "$CORPUS" >/dev/null
SHARED="${EMBER_SHARED_DIR:-$ROOT/../shared}"
if [ -d "$SHARED/fixtures/executorch-pte" ]; then
  find "$SHARED/fixtures/executorch-pte" -maxdepth 1 -name '*.pte' -size -2M -exec cp {} "$CORPUS/" \;
fi
run_fuzzer program_fuzz "$SECONDS_TO_RUN" -rss_limit_mb=2048 -max_len=2000000
