#!/bin/bash
# lower with the post-training quantization recipes: --calibrate / --calibration-list, the
# example-input fallback and its warning, the accuracy report, --dump-dir artifacts, and the
# named errors for bad calibration input; the dynamically quantized recipes' report.
set -u
LOWER="$1"
MODEL="$2"       # tests/fixtures/ptq/ptq_mlp.pt2 (one input, f32[4, 16] = 256 bytes)
CAL0="$3"
CAL1="$4"
CORE_ATEN="$5"   # tests/fixtures/pt2/conv_bn_relu.core_aten.torch2_6.pt2
DYNAMIC="$6"     # tests/fixtures/pt2/mlp_dynamic_batch.core_aten.torch2_6.pt2 (x: f32[s0, 16])
T="${TEST_TMPDIR}"
fail() { echo "FAIL: $*"; exit 1; }

"$LOWER" "$MODEL" -o "$T/a.pte" --recipe portable-int8 --calibrate "$CAL0" --calibrate="$CAL1" \
  --dump-dir "$T/dump" > "$T/out.txt" 2>&1 || fail "lowering failed: $(cat $T/out.txt)"
grep -q "^\[quantize *\] *[0-9.]* ms$" "$T/out.txt" || fail "no quantize progress line"
grep -q "quantized vs float on 2 calibration sample(s):" "$T/out.txt" || fail "no accuracy report: $(cat $T/out.txt)"
grep -qE "output 0: +SQNR +[0-9.]+ dB, max error [0-9.e-]+ \(80 elements\)" "$T/out.txt" || fail "no SQNR line: $(cat $T/out.txt)"
[ -s "$T/dump/01_quantize.txt" ] || fail "no converted graph dump"
grep -q "quantize_per_tensor" "$T/dump/01_quantize.txt" || fail "converted graph has no q/dq"
grep -q "linear + relu" "$T/dump/01_quantize_annotated.txt" || fail "no annotations"
grep -q '"observer": "HistogramObserver"' "$T/dump/01_quantize_calibration.json" || fail "no statistics"
[ "$(head -c 8 "$T/a.pte" | tail -c 4)" = "ET12" ] || fail "output is not a .pte"

printf '# calibration batches\n%s\n\n%s  # second\n%s\n' "$CAL0" "$CAL1" "$CAL0" > "$T/list.txt"
"$LOWER" "$MODEL" -o "$T/b.pte" --recipe xnnpack-int8 --calibration-list "$T/list.txt" --verbose \
  > "$T/out.txt" 2>&1 || fail "--calibration-list failed: $(cat $T/out.txt)"
grep -q "quantized vs float on 3 calibration sample(s):" "$T/out.txt" || fail "list samples: $(cat $T/out.txt)"
grep -q "per layer" "$T/out.txt" || fail "--verbose has no per-layer report"
grep -q "xnnpack: .* in 1 partition" "$T/out.txt" || fail "not delegated: $(cat $T/out.txt)"

"$LOWER" "$MODEL" -o "$T/c.pte" --recipe portable-int8 > "$T/out.txt" 2> "$T/err.txt" || fail "example-input fallback failed: $(cat $T/err.txt)"
grep -q "one sample is a weak calibration" "$T/err.txt" || fail "no weak-calibration warning: $(cat $T/err.txt)"
grep -q "quantized vs float on 1 calibration sample(s):" "$T/out.txt" || fail "fallback report"

# Dynamically quantized recipes: the same report against the float program, on the .pt2's
# example input or on --calibrate files; 4-bit weights lose more than 8-bit ones.
sqnr() { sed -nE 's/.*output 0: +SQNR +([0-9.]+) dB.*/\1/p' "$1"; }
"$LOWER" "$MODEL" -o "$T/w8.pte" --recipe xnnpack-dq-w8 > "$T/w8.txt" 2>&1 || fail "dq-w8 failed: $(cat $T/w8.txt)"
grep -q "quantized vs float on 1 input sample(s):" "$T/w8.txt" || fail "no dq report: $(cat $T/w8.txt)"
"$LOWER" "$MODEL" -o "$T/w4.pte" --recipe xnnpack-dq-w4-b32 --calibrate "$CAL0" --calibrate "$CAL1" \
  > "$T/w4.txt" 2>&1 || fail "dq-w4 failed: $(cat $T/w4.txt)"
grep -q "quantized vs float on 2 input sample(s):" "$T/w4.txt" || fail "no dq report on files: $(cat $T/w4.txt)"
W8=$(sqnr "$T/w8.txt"); W4=$(sqnr "$T/w4.txt")
[ -n "$W8" ] && [ -n "$W4" ] || fail "no SQNR: $(cat $T/w8.txt $T/w4.txt)"
awk -v a="$W8" -v b="$W4" 'BEGIN { exit !(a > 30 && a < 80 && b > 5 && b < a - 10) }' \
  || fail "dq SQNR w8 $W8 dB, w4 $W4 dB: expected 30 < w8 < 80 and w4 more than 10 dB lower"
"$LOWER" "$DYNAMIC" -o "$T/dyn.pte" --recipe xnnpack-dq-w8 > "$T/dyn.txt" 2>&1 \
  || fail "dq with a dynamic batch failed: $(cat $T/dyn.txt)"
grep -qE "output 0: +SQNR +[0-9.]+ dB" "$T/dyn.txt" || fail "no report for a dynamic input: $(cat $T/dyn.txt)"

expect_error() {
  local want=$1 pattern=$2; shift 2
  "$LOWER" "$@" > /dev/null 2> "$T/err.txt"
  local rc=$?
  [ $rc -eq "$want" ] || fail "lower $*: exit status $rc, expected $want: $(cat $T/err.txt)"
  grep -qE "^lower: ${pattern}" "$T/err.txt" || fail "lower $*: got '$(cat $T/err.txt)', expected 'lower: ${pattern}'"
}
head -c 60 "$CAL0" > "$T/short.bin"
expect_error 1 "InvalidArgument \(0x12\): .*calibration sample 1 input 0 \('x', file .*short.bin\): 60 bytes, expected 256 \(f32\[4, 16\]\)" \
  "$MODEL" -o "$T/d.pte" --recipe portable-int8 --calibrate "$CAL0" --calibrate "$T/short.bin"
expect_error 1 "InvalidArgument \(0x12\): .*sample 0 has 2 input\(s\), the method takes 1" \
  "$MODEL" -o "$T/d.pte" --recipe portable-int8 --calibrate "$CAL0,$CAL1"
expect_error 2 "NotFound \(0x..\): .*calibration file '.*missing.bin'" \
  "$MODEL" -o "$T/d.pte" --recipe xnnpack-int8 --calibrate "$T/missing.bin"
printf '# nothing\n\n' > "$T/empty.txt"
expect_error 2 "InvalidArgument \(0x12\): --calibration-list '.*empty.txt' lists no sample \(0 samples\)" \
  "$MODEL" -o "$T/d.pte" --recipe portable-int8 --calibration-list "$T/empty.txt"
expect_error 1 "InvalidArgument \(0x12\): .*calibration sample 1 input 0 \('x', file .*short.bin\): 60 bytes, expected 256" \
  "$MODEL" -o "$T/d.pte" --recipe xnnpack-dq-w8 --calibrate "$CAL0" --calibrate "$T/short.bin"
expect_error 2 "InvalidArgument \(0x12\): --calibrate / --calibration-list need a quantizing recipe" \
  "$MODEL" -o "$T/d.pte" --recipe portable --calibrate "$CAL0"
expect_error 1 "NotSupported \(0x10\): .*nothing to quantize.*core ATen .*node 'convolution' \(aten::convolution.default, pt2_models.py:[0-9]+\).*export_for_training" \
  "$CORE_ATEN" -o "$T/d.pte" --recipe portable-int8
expect_error 1 "NotSupported \(0x10\): .*input 'x' has dynamic sizes \(f32\[s0, 16\]\)" \
  "$DYNAMIC" -o "$T/d.pte" --recipe xnnpack-int8 --calibrate "$CAL0"
expect_error 2 "InvalidArgument \(0x12\): --method with a quantizing recipe" \
  --method forward="$MODEL" -o "$T/d.pte" --recipe portable-int8
echo PASS
