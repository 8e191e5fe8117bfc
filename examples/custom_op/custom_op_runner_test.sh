#!/bin/bash
# custom_op_runner (executor_runner plus the example's kernel) on the lowered example: exit 0
# and outputs within 1e-5 of PyTorch's; the stock executor_runner, which lacks the kernel,
# exits 1 with OperatorMissing naming mylib::scaled_add.out.
set -u
R="$TEST_SRCDIR/$TEST_WORKSPACE"
D="$R/examples/custom_op"
BASE="$D/scaled_add.core_aten.torch2_6"
PTE="$D/scaled_add_core_aten_torch2_6.pte"
fail() { echo "FAIL: $*"; exit 1; }

"$D/custom_op_runner" --model_path="$PTE" --inputs="$BASE.input0.bin,$BASE.input1.bin" \
  --output_file="$TEST_TMPDIR/out" --print_output=none > "$TEST_TMPDIR/log.txt" 2>&1 ||
  fail "custom_op_runner failed: $(cat "$TEST_TMPDIR/log.txt")"
[ -f "$TEST_TMPDIR/out-0.bin" ] || fail "no output file"
[ "$(stat -c %s "$TEST_TMPDIR/out-0.bin")" -eq 64 ] || fail "output is not 16 floats"
paste <(od -An -v -f -w4 "$TEST_TMPDIR/out-0.bin") <(od -An -v -f -w4 "$BASE.output0.bin") |
  awk '{ d = $1 - $2; if (d < 0) d = -d; m = $2 < 0 ? -$2 : $2;
         if (d > 1e-5 + 1e-5 * m) { print "element " NR-1 ": got " $1 ", PyTorch " $2; bad = 1 } }
       END { exit bad }' || fail "outputs differ from PyTorch's"

"$R/apps/executor_runner/executor_runner" --model_path="$PTE" --inputs="$BASE.input0.bin,$BASE.input1.bin" \
  > /dev/null 2> "$TEST_TMPDIR/err.txt"
rc=$?
[ $rc -eq 1 ] || fail "executor_runner without the kernel: exit $rc, expected 1"
grep -q "^executor_runner: OperatorMissing (0x14): .*mylib::scaled_add.out" "$TEST_TMPDIR/err.txt" ||
  fail "expected OperatorMissing naming mylib::scaled_add.out, got: $(cat "$TEST_TMPDIR/err.txt")"
echo "custom_op_runner matches PyTorch; executor_runner names the missing kernel"
