#!/bin/bash
# Builds //tests/fuzz:program_fuzz with clang + libFuzzer + ASan/UBSan in a
# separate Bazel output base (the main cache is untouched) and runs it for
# SECONDS (default 60) on a seed corpus assembled at run time: the .pte files
# of ../shared (never committed) and the hand-made bad files of write_seeds.
# Exits non-zero on any crash, leak, timeout or sanitizer report.
set -euo pipefail
SECONDS_TO_RUN="${1:-60}"
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$ROOT"
WORK="$(mktemp -d /tmp/ember-fuzz.XXXXXX)"
CORPUS="$WORK/corpus"
mkdir -p "$CORPUS" "$WORK/artifacts"

# Seeds: hand-made files (ordinary build), then the shared corpus when present.
bazel run //tests/fuzz:write_seeds -- "$CORPUS" >/dev/null
SHARED="${EMBER_SHARED_DIR:-$ROOT/../shared}"
if [ -d "$SHARED/fixtures/executorch-pte" ]; then
  find "$SHARED/fixtures/executorch-pte" -maxdepth 1 -name '*.pte' -size -2M -exec cp {} "$CORPUS/" \;
fi
echo "seed corpus: $(ls "$CORPUS" | wc -l) files"

bazel --output_base="$HOME/.cache/ember-fuzz" build --symlink_prefix=/ -c dbg \
  --repo_env=CC=clang --repo_env=CXX=clang++ \
  --copt=-fsanitize=fuzzer-no-link,address,undefined --copt=-fno-sanitize-recover=undefined \
  --linkopt=-fsanitize=address,undefined --linkopt=-fsanitize-link-c++-runtime \
  //tests/fuzz:program_fuzz
FUZZER="$(bazel --output_base="$HOME/.cache/ember-fuzz" info -c dbg --repo_env=CC=clang \
  --repo_env=CXX=clang++ bazel-bin 2>/dev/null)/tests/fuzz/program_fuzz"

ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1 \
UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  "$FUZZER" -max_total_time="$SECONDS_TO_RUN" -timeout=20 -rss_limit_mb=2048 -max_len=2000000 \
  -artifact_prefix="$WORK/artifacts/" -print_final_stats=1 "$CORPUS"
echo "fuzzing finished cleanly after ${SECONDS_TO_RUN}s (work dir $WORK)"
