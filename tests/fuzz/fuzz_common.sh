#!/bin/bash
# Sourced by the run_*fuzz.sh scripts: builds a libFuzzer target with clang + ASan/UBSan in
# a separate Bazel output base (~/.cache/ember-fuzz; the main cache and the checkout's
# bazel-* symlinks are untouched) and runs it on a seed corpus.
#
#   source tests/fuzz/fuzz_common.sh
#   fuzz_workdir ember-demo-fuzz          # sets WORK, CORPUS (created) and ARTIFACTS
#   bazel run //tests/fuzz:demo_write_seeds -- "$CORPUS" >/dev/null
#   run_fuzzer demo_bytecode_fuzz SECONDS -rss_limit_mb=2048 -max_len=65536
# EMBER_FUZZ_SEED fixes libFuzzer's seed (CI uses 1; unset or 0: a random seed) and
# EMBER_FUZZ_MAX_RUNS caps the number of inputs (unset: only the time limit).
# EMBER_FUZZ_MAX_LEN overrides the script's -max_len; EMBER_PT2_SEED_BYTES (the .pt2 scripts)
# caps the size of the committed .pt2 fixtures taken as seeds (default 256 KiB).
# EMBER_FUZZ_COPT adds compiler flags (the long campaigns use "-O2": same sanitizers, several
# times the executions per second of the default -O0 debug build).
# EMBER_FUZZ_MODE is Bazel's compilation mode (default dbg; the session 11 campaign used
# "opt": -O2 with NDEBUG, the README's optional -c opt configuration, in the same output base).
# EMBER_FUZZ_SANITIZERS replaces the sanitizer list "address,undefined" (the .pt2 campaigns
# also ran "undefined" alone: about 1.6x the executions per second, docs/fuzzing.md); any
# other list builds in its own output base (~/.cache/ember-fuzz-<list>).
# EMBER_FUZZ_OUTPUT_BASE replaces that output base (a second checkout fuzzing beside another
# one: a Bazel server serves one workspace, so sharing ~/.cache/ember-fuzz would restart it).
# EMBER_FUZZ_ARGS appends libFuzzer flags (the campaigns: "-fork=1 -ignore_crashes=1
# -ignore_timeouts=1 -ignore_ooms=1 -entropic=0"); ASAN_OPTIONS given by the caller are appended
# to the script's (the campaigns: "malloc_context_size=0", no allocation stacks in reports).
# UBSan's vptr check is off: it needs the typeinfo of every polymorphic class, and the runtime
# side is compiled with -fno-rtti (.bazelrc's --per_file_copt), so test code that uses a runtime
# class would not link.
# Exits non-zero on any crash, leak, timeout or sanitizer report.

fuzz_workdir() {
  WORK="$(mktemp -d "/tmp/$1.XXXXXX")"
  CORPUS="$WORK/corpus"
  ARTIFACTS="$WORK/artifacts"
  mkdir -p "$CORPUS" "$ARTIFACTS"
}

# run_fuzzer TARGET SECONDS [libFuzzer flags...]
run_fuzzer() {
  local target="$1" seconds="$2"
  shift 2
  echo "seed corpus: $(ls "$CORPUS" | wc -l) files"
  # Warnings are GCC's business (the default build is -Werror); clang only builds the fuzzers.
  local flags=(-c "${EMBER_FUZZ_MODE:-dbg}" --repo_env=CC=clang --repo_env=CXX=clang++ --copt=-Wno-error --copt=-Wno-unknown-warning-option)
  local copt
  for copt in ${EMBER_FUZZ_COPT:-}; do flags+=("--copt=$copt"); done
  local sanitizers="${EMBER_FUZZ_SANITIZERS:-address,undefined}" base="$HOME/.cache/ember-fuzz"
  [ "$sanitizers" = "address,undefined" ] || base="$base-${sanitizers//,/-}"
  base="${EMBER_FUZZ_OUTPUT_BASE:-$base}"
  bazel --output_base="$base" build --symlink_prefix=/ "${flags[@]}" \
    --copt=-fsanitize=fuzzer-no-link,"$sanitizers" --copt=-fno-sanitize-recover=undefined \
    --copt=-fno-sanitize=vptr \
    --linkopt=-fsanitize="$sanitizers" --linkopt=-fsanitize-link-c++-runtime \
    "//tests/fuzz:$target"
  local fuzzer
  fuzzer="$(bazel --output_base="$base" info "${flags[@]}" bazel-bin 2>/dev/null)/tests/fuzz/$target"
  ASAN_OPTIONS="detect_leaks=1:allocator_may_return_null=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}" \
  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    "$fuzzer" -max_total_time="$seconds" -timeout=20 -seed="${EMBER_FUZZ_SEED:-0}" \
    -runs="${EMBER_FUZZ_MAX_RUNS:--1}" "$@" ${EMBER_FUZZ_MAX_LEN:+-max_len=$EMBER_FUZZ_MAX_LEN} \
    ${EMBER_FUZZ_ARGS:-} -artifact_prefix="$ARTIFACTS/" -print_final_stats=1 "$CORPUS"
  echo "fuzzing finished cleanly (limit ${seconds}s; work dir $WORK)"
}
