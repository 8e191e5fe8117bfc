#!/bin/bash
# Issue #8, input guards through the command-line tools: `lower` writes the guard method
# next to forward, executor_runner (default method: the first) still runs forward, and a
# shape below the exported min or with unequal shared dims exits non-zero with the
# runtime's exact message. Shapes and files are the committed fixtures' (PyTorch's
# export: two_dynamic_dims x [b,n,4] / y [b,m,4], transformer_dynamic_seq seq in [2, 64]).
set -u
BIN="$TEST_SRCDIR/$TEST_WORKSPACE"
RUNNER="$BIN/apps/executor_runner/executor_runner"
LOWER="$BIN/apps/lower/lower"
FIX="$BIN/tests/fixtures/pt2"
fail() { echo "FAIL: $*"; exit 1; }

"$LOWER" "$FIX/two_dynamic_dims.core_aten.torch2_6.pt2" -o "$TEST_TMPDIR/two.pte" >/dev/null 2>&1 ||
  fail "lowering two_dynamic_dims failed"
"$LOWER" "$FIX/transformer_dynamic_seq.core_aten.torch2_6.pt2" -o "$TEST_TMPDIR/tf.pte" >/dev/null 2>&1 ||
  fail "lowering transformer_dynamic_seq failed"

# Valid shapes (case 1: [1,1,4] twice -> relu [2,3], sum [1]) on the default method.
out=$("$RUNNER" --model_path "$TEST_TMPDIR/two.pte" --json --print_output none --cpu_threads 1 \
  --inputs "$FIX/two_dynamic_dims.core_aten.torch2_6.case1.input0.bin,$FIX/two_dynamic_dims.core_aten.torch2_6.case1.input1.bin" \
  --input_shapes '1,1,4;1,1,4' 2>&1) || fail "valid shapes exited non-zero: $out"
echo "$out" | grep -q '"shape":\[2,3\]' || fail "relu shape [2,3] missing: $out"
echo "$out" | grep -q '"shape":\[1\]' || fail "sum shape [1] missing: $out"

# Broken equality: x [4,7,4] (case 2) with y [2,5,4] (case 0).
err=$("$RUNNER" --model_path "$TEST_TMPDIR/two.pte" --print_output none --cpu_threads 1 \
  --inputs "$FIX/two_dynamic_dims.core_aten.torch2_6.case2.input0.bin,$FIX/two_dynamic_dims.core_aten.torch2_6.input1.bin" \
  --input_shapes '4,7,4;2,5,4' 2>&1)
[ $? -ne 0 ] || fail "unequal batch dims must exit non-zero"
echo "$err" | grep -qF "input 1 of method 'forward': dim 0 is 2 but must equal input 0 dim 0 (4) (equality constraint from export)" ||
  fail "equality error: $err"

# Below the min: seq 1 < 2.
head -c $((2 * 1 * 32 * 4)) /dev/zero > "$TEST_TMPDIR/seq1.bin"
err=$("$RUNNER" --model_path "$TEST_TMPDIR/tf.pte" --print_output none --cpu_threads 1 \
  --inputs "$TEST_TMPDIR/seq1.bin" --input_shapes '2,1,32' 2>&1)
[ $? -ne 0 ] || fail "seq 1 below the min 2 must exit non-zero"
echo "$err" | grep -qF "input 0 of method 'forward': dim 1 is 1, allowed range [2, 64] (min from export range constraint)" ||
  fail "below-min error: $err"
echo PASS
