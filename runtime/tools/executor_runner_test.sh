#!/bin/bash
# executor_runner end to end on upstream files (skips when ../shared is absent):
# JSON for a constant method, raw output files equal upstream's reference, and a
# named error with a non-zero exit for a program needing a missing backend.
set -u
RUNNER="$TEST_SRCDIR/$TEST_WORKSPACE/runtime/tools/executor_runner"
WS=$(readlink -f "$TEST_SRCDIR/$TEST_WORKSPACE/WORKSPACE")
F="${EMBER_SHARED_DIR:-$(dirname "$(dirname "$WS")")/shared}/fixtures/executorch-pte"
if [ ! -d "$F" ]; then echo "shared fixtures absent: skipping"; exit 0; fi
fail() { echo "FAIL: $*"; exit 1; }

out=$("$RUNNER" --model_path "$F/corey-cole__executorch-numpy-runtime__const_methods.pte" \
  --method_name get_scalar --json --print_output none 2>/dev/null) || fail "get_scalar exited non-zero"
echo "$out" | grep -q '"outputs":\[{"kind":"Int","value":128}\]' || fail "get_scalar json: $out"
echo "$out" | grep -q '"iterations":1' || fail "iterations missing: $out"

"$RUNNER" --model_path "$F/corey-cole__executorch-numpy-runtime__const_methods.pte" --method_name get_tensor \
  --output_file "$TEST_TMPDIR/t" --print_output summary >/dev/null 2>&1 || fail "get_tensor exited non-zero"
cmp -s "$TEST_TMPDIR/t-0.bin" \
  "$F/reference/corey-cole__executorch-numpy-runtime__const_methods/get_tensor/case0/output0.bin" ||
  fail "get_tensor output differs from upstream's"

# A kernel program and an XNNPACK-delegated dynamic-shape program against upstream's outputs.
C="$F/reference/pytorch__executorch__add/forward/case1"
"$RUNNER" --model_path "$F/pytorch__executorch__add.pte" --inputs "$C/input0.bin,$C/input1.bin" \
  --output_file "$TEST_TMPDIR/add" --print_output none --num_executions 3 --warmup 1 >/dev/null 2>&1 ||
  fail "add.pte exited non-zero"
cmp -s "$TEST_TMPDIR/add-0.bin" "$C/output0.bin" || fail "add.pte output differs from upstream's"
C="$F/reference/balthazarneveu__executorch_smoothly__xnnpack_simpleconv/forward/case1"
out=$("$RUNNER" --model_path "$F/balthazarneveu__executorch_smoothly__xnnpack_simpleconv.pte" \
  --inputs "$C/input0.bin" --input_shapes '1,3,17,23' --json --profile --print_output none --cpu_threads 1 2>/dev/null) ||
  fail "simpleconv exited non-zero"
echo "$out" | grep -q '"shape":\[1,3,17,23\]' || fail "simpleconv output shape: $out"
echo "$out" | grep -q "XnnpackBackend" || fail "profile table lacks the delegate: $out"

err=$("$RUNNER" --model_path "$F/Arm-Examples__CMSIS-Executorch__ethos_u_minimal_example.pte" 2>&1)
[ $? -ne 0 ] || fail "missing backend must exit non-zero"
echo "$err" | grep -q "NotFound (0x20).*EthosUBackend" || fail "error does not name the backend: $err"

err=$("$RUNNER" --model_path /nonexistent.pte 2>&1)
[ $? -ne 0 ] || fail "missing file must exit non-zero"
echo "$err" | grep -q "NotFound" || fail "missing file error: $err"
echo PASS
