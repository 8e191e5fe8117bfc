#!/bin/bash
# executor_runner as a benchmark tool (issue #17): run statistics (text and --json, with the
# old keys kept), --duration_s with progress lines, .npy inputs, --random_inputs, a sequence
# of input sets for a stateful model, and --expected/--atol/--rtol. Expected outputs are
# PyTorch's (the fixtures' reference .bin files, refgen/fixtures/pt2_models.py): the MLP's
# output for its input, and the stateful BufferMutation model's second case, which PyTorch
# recorded after running the first case on the same instance.
set -u
LOWER="$1"
RUNNER="$2"
DIR=$(dirname "$3")  # tests/fixtures/pt2
T="${TEST_TMPDIR}"
fail() { echo "FAIL: $*"; exit 1; }
M="$DIR/mlp.core_aten.torch2_6"
B="$DIR/buffer_mutation.core_aten.torch2_6"
"$LOWER" "$M.pt2" -o "$T/mlp.pte" > /dev/null 2>&1 || fail "lowering the MLP"
"$LOWER" "$B.pt2" -o "$T/bm.pte" > /dev/null 2>&1 || fail "lowering BufferMutation"

# Statistics: the old JSON keys (microseconds) and the new ones, consistent with each other.
out=$("$RUNNER" --model_path "$T/mlp.pte" --inputs "$M.input0.bin" --num_executions 50 --warmup 2 --json \
  --print_output none 2> "$T/err.txt") || fail "json run: $(cat $T/err.txt)"
for key in load_us first_us median_us min_us max_us mean_us stddev_us p50_us p90_us p99_us peak_rss_kb; do
  echo "$out" | grep -qE "\"$key\":[0-9]+(\.[0-9]+)?[,}]" || fail "--json has no numeric $key: $out"
done
echo "$out" | grep -q '"iterations":50' || fail "iterations: $out"
get() { echo "$out" | grep -oE "\"$1\":[0-9.]+" | cut -d: -f2; }
awk -v mn="$(get min_us)" -v p50="$(get p50_us)" -v p90="$(get p90_us)" -v p99="$(get p99_us)" -v mx="$(get max_us)" \
  -v med="$(get median_us)" -v rss="$(get peak_rss_kb)" \
  'BEGIN { exit !(mn <= p50 && p50 <= p90 && p90 <= p99 && p99 <= mx && med == p50 && rss > 1000) }' \
  || fail "statistics out of order: $out"
"$RUNNER" --model_path "$T/mlp.pte" --num_executions 5 --print_output none > /dev/null 2> "$T/err.txt" || fail "text run"
for line in '^init: [0-9.]+ ms$' '^first run: ' '^runs: 5, mean [0-9.]+ ms, std ' '^percentiles: p50 .* p90 .* p99 ' \
  '^peak memory \(VmHWM\): [0-9.]+ MB$'; do
  grep -qE "$line" "$T/err.txt" || fail "no '$line' in: $(cat $T/err.txt)"
done

# --duration_s: runs until the budget is spent, with progress lines (every --progress_s).
out=$("$RUNNER" --model_path "$T/mlp.pte" --duration_s 1 --progress_s 0.3 --json --print_output none 2> "$T/err.txt") \
  || fail "--duration_s: $(cat $T/err.txt)"
n=$(echo "$out" | grep -oE '"iterations":[0-9]+' | cut -d: -f2)
[ "$n" -gt 50 ] || fail "--duration_s 1 ran only $n executions"
[ "$(grep -c '^executor_runner: progress: [0-9]* runs in ' "$T/err.txt")" -ge 2 ] || fail "no progress lines: $(cat $T/err.txt)"
out=$("$RUNNER" --model_path "$T/mlp.pte" --duration_s 100 --num_executions 7 --json --print_output none 2>/dev/null)
echo "$out" | grep -q '"iterations":7' || fail "--num_executions does not cap --duration_s: $out"

# --expected: PyTorch's output passes; a changed one fails (exit 3) naming output and element.
"$RUNNER" --model_path "$T/mlp.pte" --inputs "$M.input0.bin" --expected "$M.output0.bin" --atol 1e-5 --rtol 1e-4 \
  --print_output none > /dev/null 2> "$T/err.txt" || fail "--expected with PyTorch's output: $(cat $T/err.txt)"
grep -q '^output 0: ok' "$T/err.txt" || fail "no ok line: $(cat $T/err.txt)"
cp "$M.output0.bin" "$T/wrong.bin"
printf '\x00\x00\x20\x41' | dd of="$T/wrong.bin" bs=1 seek=12 conv=notrunc 2>/dev/null  # element 3 = 10.0
"$RUNNER" --model_path "$T/mlp.pte" --inputs "$M.input0.bin" --expected "$T/wrong.bin" --print_output none \
  > /dev/null 2> "$T/err.txt"
[ $? -eq 3 ] || fail "a mismatch does not exit 3: $(cat $T/err.txt)"
grep -qE '^executor_runner: output 0 does not match .*1 of 40 elements .*worst at \[0, 3\] \(flat 3\).*expected 10,' \
  "$T/err.txt" || fail "mismatch message: $(cat $T/err.txt)"
"$RUNNER" --model_path "$T/mlp.pte" --expected "$T/nope.bin" --print_output none > /dev/null 2> "$T/err.txt"
[ $? -eq 1 ] || fail "a missing --expected file does not exit 1"
grep -qE '^executor_runner: NotFound \(0x20\): ' "$T/err.txt" || fail "missing file error: $(cat $T/err.txt)"

# .npy inputs: the same bytes behind numpy's header give the same output; wrong dtype or shape
# and Fortran order are named errors.
npy() {  # npy DESCR SHAPE FORTRAN DATA OUT: a version 1.0 .npy, header padded as numpy pads it
  local dict="{'descr': '$1', 'fortran_order': $3, 'shape': $2, }"
  local len=$(( (10 + ${#dict} + 1 + 63) / 64 * 64 - 10 ))
  { printf '\x93NUMPY\x01\x00'; printf "\\x$(printf %02x $((len % 256)))\\x$(printf %02x $((len / 256)))";
    printf '%s' "$dict"; printf "%$((len - ${#dict} - 1))s" ''; printf '\n'; cat "$4"; } > "$5"
}
npy '<f4' '(4, 16)' False "$M.input0.bin" "$T/x.npy"
"$RUNNER" --model_path "$T/mlp.pte" --inputs "$T/x.npy" --expected "$M.output0.bin" --atol 1e-5 --rtol 1e-4 \
  --print_output none > /dev/null 2> "$T/err.txt" || fail ".npy input: $(cat $T/err.txt)"
grep -qE '^executor_runner: input 0: float32\[4, ?16\] min -?[0-9.e-]+ max [0-9.e-]+$' "$T/err.txt" \
  || fail "no input range line: $(cat $T/err.txt)"
npy '<i4' '(4, 16)' False "$M.input0.bin" "$T/i.npy"
npy '<f4' '(8, 8)' False "$M.input0.bin" "$T/s.npy"
npy '<f4' '(4, 16)' True "$M.input0.bin" "$T/f.npy"
for case in "i.npy:InvalidType \(0x13\): input 0: .* holds int32, the input is float32" \
            "s.npy:InvalidArgument \(0x12\): input 0: .* has shape float32\[8, ?8\], the input is float32\[4, ?16\]" \
            "f.npy:NotSupported \(0x10\): input 0: npy .*fortran_order True"; do
  "$RUNNER" --model_path "$T/mlp.pte" --inputs "$T/${case%%:*}" --print_output none > /dev/null 2> "$T/err.txt"
  [ $? -eq 1 ] || fail "${case%%:*} does not fail"
  grep -qE "^executor_runner: ${case#*:}" "$T/err.txt" || fail "${case%%:*}: $(cat $T/err.txt)"
done

# --random_inputs: seeded (same seed, same output; another seed, another output), in [-1, 1).
r() { "$RUNNER" --model_path "$T/mlp.pte" --random_inputs --random_seed "$1" --print_output all 2> "$T/err.txt"; }
[ "$(r 3)" = "$(r 3)" ] || fail "--random_inputs is not reproducible"
[ "$(r 3)" != "$(r 4)" ] || fail "--random_seed changes nothing"
r 3 > /dev/null
grep -qE '^executor_runner: input 0: float32\[4, ?16\] min -0\.[0-9]+ max 0\.[0-9]+$' "$T/err.txt" \
  || fail "random range: $(cat $T/err.txt)"

# Input sets, run in order on one method: BufferMutation's case 1 matches PyTorch only after
# case 0 ran first.
"$RUNNER" --model_path "$T/bm.pte" --inputs "$B.input0.bin" --inputs "$B.case1.input0.bin" --num_executions 2 \
  --expected "$B.case1.output0.bin" --atol 1e-5 --rtol 1e-4 --print_output none > /dev/null 2> "$T/err.txt" \
  || fail "input sets: $(cat $T/err.txt)"
grep -q '^executor_runner: set 1 input 0: float32' "$T/err.txt" || fail "sets are not described: $(cat $T/err.txt)"
"$RUNNER" --model_path "$T/bm.pte" --inputs "$B.case1.input0.bin" --expected "$B.case1.output0.bin" --atol 1e-5 \
  --rtol 1e-4 --print_output none > /dev/null 2>&1
[ $? -eq 3 ] || fail "case 1 alone should not match (the state of case 0 is missing)"
"$RUNNER" --model_path "$T/bm.pte" --inputs "$B.input0.bin" --inputs "$T/nope.bin" --print_output none > /dev/null 2> "$T/err.txt"
grep -qE '^executor_runner: NotFound \(0x20\): input set 1: ' "$T/err.txt" || fail "bad set error: $(cat $T/err.txt)"
echo PASS
