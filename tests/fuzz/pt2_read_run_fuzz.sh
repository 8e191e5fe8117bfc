#!/bin/bash
# Runs //tests/fuzz:pt2_read_fuzz (the .pt2 reader alone: zip, JSON, pickle, weights) for
# SECONDS (default 60) under libFuzzer + ASan/UBSan (fuzz_common.sh), seeded with the
# committed .pt2 fixtures under 256 KiB, raw and as entries re-packed with valid CRCs.
set -euo pipefail
SECONDS_TO_RUN="${1:-60}"
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$ROOT"
source tests/fuzz/fuzz_common.sh
fuzz_workdir ember-pt2-read-fuzz
bazel run //tests/fuzz:pt2_write_seeds -- "$CORPUS" "$ROOT" "${EMBER_PT2_SEED_BYTES:-262144}" >/dev/null
run_fuzzer pt2_read_fuzz "$SECONDS_TO_RUN" -rss_limit_mb=3072 -malloc_limit_mb=2048 -max_len=600000
