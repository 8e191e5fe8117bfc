#!/bin/bash
# Runs //tests/fuzz:inspect_fuzz (what `inspect` does with a .pte or a .pt2) for SECONDS
# (default 60) under libFuzzer + ASan/UBSan (fuzz_common.sh), seeded with the committed
# .pt2 fixtures under 256 KiB (raw and as entries) and the .pte files of ../shared when
# present.
set -euo pipefail
SECONDS_TO_RUN="${1:-60}"
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$ROOT"
source tests/fuzz/fuzz_common.sh
fuzz_workdir ember-inspect-fuzz
bazel run //tests/fuzz:pt2_write_seeds -- "$CORPUS" "$ROOT" "${EMBER_PT2_SEED_BYTES:-262144}" >/dev/null
SHARED="${EMBER_SHARED_DIR:-$ROOT/../shared}"
if [ -d "$SHARED/fixtures/executorch-pte" ]; then
  find "$SHARED/fixtures/executorch-pte" -maxdepth 1 -name '*.pte' -size -2M -exec cp {} "$CORPUS/" \;
fi
run_fuzzer inspect_fuzz "$SECONDS_TO_RUN" -rss_limit_mb=3072 -malloc_limit_mb=2048 -max_len=2100000
