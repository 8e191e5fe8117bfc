#!/bin/bash
# Builds //tests/fuzz:xnnpack_blob_fuzz (XnnpackBackend init + execute on arbitrary delegate
# payloads: XH00 header + XN01 FlatBuffer + constants) with clang + libFuzzer + ASan/UBSan in
# the separate output base that run_fuzz.sh uses (the main cache is untouched) and runs it
# for SECONDS (default 60) on the seeds of xnnpack_write_seeds: hand-built graphs plus the
# XnnpackBackend payloads of ../shared's .pte files when present. Exits non-zero on any
# crash, leak, timeout or sanitizer report. The delegate bounds a plan's activations at
# 2 GiB (shape_plan.h), so single allocations stay under -malloc_limit_mb.
set -euo pipefail
SECONDS_TO_RUN="${1:-60}"
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$ROOT"
WORK="$(mktemp -d /tmp/ember-xnnpack-fuzz.XXXXXX)"
CORPUS="$WORK/corpus"
mkdir -p "$CORPUS" "$WORK/artifacts"

SHARED="${EMBER_SHARED_DIR:-$ROOT/../shared}"
bazel run //tests/fuzz:xnnpack_write_seeds -- "$CORPUS" "$SHARED/fixtures/executorch-pte" >/dev/null
echo "seed corpus: $(ls "$CORPUS" | wc -l) files"

FUZZ_FLAGS=(-c dbg --repo_env=CC=clang --repo_env=CXX=clang++)
bazel --output_base="$HOME/.cache/ember-fuzz" build --symlink_prefix=/ "${FUZZ_FLAGS[@]}" \
  --copt=-fsanitize=fuzzer-no-link,address,undefined --copt=-fno-sanitize-recover=undefined \
  --linkopt=-fsanitize=address,undefined --linkopt=-fsanitize-link-c++-runtime \
  //tests/fuzz:xnnpack_blob_fuzz
FUZZER="$(bazel --output_base="$HOME/.cache/ember-fuzz" info "${FUZZ_FLAGS[@]}" \
  bazel-bin 2>/dev/null)/tests/fuzz/xnnpack_blob_fuzz"

ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1 \
UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  "$FUZZER" -max_total_time="$SECONDS_TO_RUN" -timeout=20 -rss_limit_mb=2560 -malloc_limit_mb=2200 -max_len=1100000 \
  -artifact_prefix="$WORK/artifacts/" -print_final_stats=1 "$CORPUS"
echo "fuzzing finished cleanly after ${SECONDS_TO_RUN}s (work dir $WORK)"
