#!/bin/bash
# Runs //tests/fuzz:xnnpack_blob_fuzz (XnnpackBackend init + execute on arbitrary delegate
# payloads: XH00 header + XN01 FlatBuffer + constants) for SECONDS (default 60) under
# libFuzzer + ASan/UBSan (fuzz_common.sh) on the seeds of xnnpack_write_seeds: hand-built
# graphs plus the XnnpackBackend payloads of ../shared's .pte files when present. The
# delegate bounds a plan's activations at 2 GiB (shape_plan.h), so single allocations stay
# under -malloc_limit_mb.
set -euo pipefail
SECONDS_TO_RUN="${1:-60}"
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$ROOT"
source tests/fuzz/fuzz_common.sh
fuzz_workdir ember-xnnpack-fuzz

SHARED="${EMBER_SHARED_DIR:-$ROOT/../shared}"
bazel run //tests/fuzz:xnnpack_write_seeds -- "$CORPUS" "$SHARED/fixtures/executorch-pte" >/dev/null
run_fuzzer xnnpack_blob_fuzz "$SECONDS_TO_RUN" -rss_limit_mb=2560 -malloc_limit_mb=2200 -max_len=1100000
