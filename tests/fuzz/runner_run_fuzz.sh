#!/bin/bash
# Runs //tests/fuzz:runner_inputs_fuzz (executor_runner's --input_shapes and --inputs
# handling on a fixed program) for SECONDS (default 60) under libFuzzer + ASan/UBSan
# (fuzz_common.sh), from a few hand-written seeds (raw and .npy input files).
set -euo pipefail
SECONDS_TO_RUN="${1:-60}"
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$ROOT"
source tests/fuzz/fuzz_common.sh
fuzz_workdir ember-runner-fuzz
printf '\x02\n%b' '\x00\x00\x80\x3f\x00\x00\x00\x40\x00\x00\x80\x3f\x00\x00\x00\x40' > "$CORPUS/two_files"
printf '\x02%s\n%b' '1;1' '\x00\x00\x80\x3f\x00\x00\x00\x40' > "$CORPUS/shapes"
printf '\x81%s\n' '2;2' > "$CORPUS/directory"
printf '\x00\n' > "$CORPUS/ones"
# Two float32[2] .npy files (byte 0 bit 6: the files are named *.npy): numpy's 1.0 header.
npy_dict="{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }"
npy_file() { printf '\x93NUMPY\x01\x00\x76\x00%s%*s\n' "$npy_dict" $((117 - ${#npy_dict})) ''; printf '\x00\x00\x80\x3f\x00\x00\x00\x40'; }
{ printf '\x42\n'; npy_file; npy_file; } > "$CORPUS/npy_files"
run_fuzzer runner_inputs_fuzz "$SECONDS_TO_RUN" -rss_limit_mb=2048 -malloc_limit_mb=1024 -max_len=4096
