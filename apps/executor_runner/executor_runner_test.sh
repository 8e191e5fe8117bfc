#!/bin/bash
# executor_runner end to end on upstream files (skips when ../shared is absent):
# JSON for a constant method and its timing fields (microseconds), raw output files equal upstream's reference, and a
# named error with a non-zero exit for a program needing a missing backend. Errors are
# "executor_runner: ErrorName (0xNN): message", printed once; the reproductions of issue
# #16 (bad flags exit 2, directories and devices as inputs, oversized input files, a .pt2
# as the model) each end in a named error. Flag checks run without ../shared.
set -u
RUNNER="$TEST_SRCDIR/$TEST_WORKSPACE/apps/executor_runner/executor_runner"
if [ -n "${EMBER_EXEC_WRAPPER:-}" ]; then  # a cross build: run the binary through qemu
  printf '#!/bin/sh\nexec "%s" "%s" "$@"\n' "$EMBER_EXEC_WRAPPER" "$RUNNER" > "$TEST_TMPDIR/runner"
  chmod +x "$TEST_TMPDIR/runner" && RUNNER="$TEST_TMPDIR/runner"
fi
WS=$(readlink -f "$TEST_SRCDIR/$TEST_WORKSPACE/WORKSPACE")
F="${EMBER_SHARED_DIR:-$(dirname "$(dirname "$WS")")/shared}/fixtures/executorch-pte"
fail() { echo "FAIL: $*"; exit 1; }

# expect_error STATUS PATTERN ARGS...: exits STATUS, "executor_runner: PATTERN" printed once.
expect_error() {
  local want=$1 pattern=$2; shift 2
  "$RUNNER" "$@" > /dev/null 2> "$TEST_TMPDIR/err.txt"
  local rc=$?
  [ $rc -eq "$want" ] || fail "$*: exit status $rc, expected $want: $(cat "$TEST_TMPDIR/err.txt")"
  grep -qE "^executor_runner: ${pattern}" "$TEST_TMPDIR/err.txt" || fail "$*: got '$(cat "$TEST_TMPDIR/err.txt")', expected '${pattern}'"
  [ "$(grep -c "executor_runner: [A-Z]" "$TEST_TMPDIR/err.txt")" -eq 1 ] || fail "$*: error not printed once: $(cat "$TEST_TMPDIR/err.txt")"
}

BADFLAG="InvalidArgument \(0x12\): "
expect_error 2 "${BADFLAG}--num_executions must be at least 1, got 0" --num_executions 0
expect_error 2 "${BADFLAG}--num_executions must be at least 1, got -1" --num_executions=-1
expect_error 2 "${BADFLAG}--warmup must be 0 or more, got -5" --warmup=-5
expect_error 2 "${BADFLAG}--cpu_threads must be -1 \(one per core\) or at least 1, got 0" --cpu_threads 0
expect_error 2 "${BADFLAG}--cpu_threads must be -1 \(one per core\) or at least 1, got -7" --cpu_threads=-7
printf 'PK\003\004 a torch.export archive' > "$TEST_TMPDIR/model.pt2"
expect_error 1 "InvalidProgram \(0x23\): '$TEST_TMPDIR/model.pt2' is a .pt2 .*lower it first" --model_path "$TEST_TMPDIR/model.pt2"

if [ ! -d "$F" ]; then echo "shared fixtures absent: skipping the rest"; exit 0; fi
ADD="$F/pytorch__executorch__add.pte"
C="$F/reference/pytorch__executorch__add/forward/case1"
mkdir -p "$TEST_TMPDIR/dir"
expect_error 1 "AccessFailed \(0x22\): input 0 \(needs 4 bytes\): '$TEST_TMPDIR/dir' is a directory" --model_path "$ADD" --inputs "$TEST_TMPDIR/dir,$C/input1.bin"
expect_error 1 "AccessFailed \(0x22\): input 1 \(needs 4 bytes\): '/dev/zero' is not a readable regular file" --model_path "$ADD" --inputs "$C/input0.bin,/dev/zero"
head -c 1000 /dev/zero > "$TEST_TMPDIR/big.bin"
expect_error 1 "${BADFLAG}input 0: '$TEST_TMPDIR/big.bin' has 1000 bytes, the input needs 4" --model_path "$ADD" --inputs "$TEST_TMPDIR/big.bin,$C/input1.bin"
# --cpu_threads above the core count is capped with a warning; no --inputs is upstream's ones.
"$RUNNER" --model_path "$ADD" --cpu_threads 100000 --print_output none > /dev/null 2> "$TEST_TMPDIR/err.txt" || fail "--cpu_threads 100000 failed: $(cat "$TEST_TMPDIR/err.txt")"
grep -q "^executor_runner: warning: --cpu_threads 100000 is more than the $(getconf _NPROCESSORS_ONLN) core(s); using $(getconf _NPROCESSORS_ONLN)$" "$TEST_TMPDIR/err.txt" || fail "no cap warning: $(cat "$TEST_TMPDIR/err.txt")"
grep -q "^executor_runner: note: no --inputs: tensor inputs are filled with ones" "$TEST_TMPDIR/err.txt" || fail "no note on default inputs"

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

# --json times: microseconds with 3 decimals (1 ns steps), fastest run no slower than the median.
out=$("$RUNNER" --model_path "$F/pytorch__executorch__add.pte" --json --print_output none --num_executions 5 2>/dev/null) ||
  fail "add.pte --json exited non-zero"
for field in load_us first_us median_us min_us max_us; do
  echo "$out" | grep -Eq "\"$field\":[0-9]+\.[0-9]{3}," || fail "--json lacks $field with 3 decimals: $out"
done
echo "$out" | grep -q '_ms"' && fail "--json still has millisecond fields: $out"
min=$(echo "$out" | sed -E 's/.*"min_us":([0-9.]+).*/\1/')
median=$(echo "$out" | sed -E 's/.*"median_us":([0-9.]+).*/\1/')
max=$(echo "$out" | sed -E 's/.*"max_us":([0-9.]+).*/\1/')
awk -v a="$min" -v b="$median" -v c="$max" 'BEGIN { exit !(a > 0 && a <= b && b <= c) }' ||
  fail "--json times out of order (min $min, median $median, max $max): $out"
echo "$out" | grep -q '"iterations":5,' || fail "--json iterations: $out"
# CPU time per run (process CPU clock around each execution), same format and order.
for field in cpu_median_us cpu_min_us cpu_mean_us; do
  echo "$out" | grep -Eq "\"$field\":[0-9]+\.[0-9]{3}," || fail "--json lacks $field with 3 decimals: $out"
done
cmin=$(echo "$out" | sed -E 's/.*"cpu_min_us":([0-9.]+).*/\1/')
cmedian=$(echo "$out" | sed -E 's/.*"cpu_median_us":([0-9.]+).*/\1/')
awk -v a="$cmin" -v b="$cmedian" 'BEGIN { exit !(a <= b) }' || fail "--json cpu times out of order: $out"

expect_error 1 "NotFound \(0x20\).*EthosUBackend" --model_path "$F/Arm-Examples__CMSIS-Executorch__ethos_u_minimal_example.pte"
[ "$(grep -c EthosUBackend "$TEST_TMPDIR/err.txt")" -eq 1 ] || fail "runtime error printed more than once: $(cat "$TEST_TMPDIR/err.txt")"

# Issue #16: the method renamed fo"ward and fo<ESC>ward (same length): --json stays valid and
# carries the name unchanged; no raw control byte reaches stdout or stderr.
for name in 'fo"ward' $'fo\033ward'; do
  python3 - "$F/pytorch__executorch__add.pte" "$TEST_TMPDIR/named.pte" "$name" <<'PY'
import sys
d = open(sys.argv[1], 'rb').read()
assert d.count(b'forward') == 1
open(sys.argv[2], 'wb').write(d.replace(b'forward', sys.argv[3].encode()))
PY
  "$RUNNER" --model_path "$TEST_TMPDIR/named.pte" --json --print_output none > "$TEST_TMPDIR/out.json" 2> "$TEST_TMPDIR/err.txt" ||
    fail "renamed method: $(cat "$TEST_TMPDIR/err.txt")"
  python3 -c "import json,sys; assert json.load(open(sys.argv[1]))['method'] == sys.argv[2]" "$TEST_TMPDIR/out.json" "$name" ||
    fail "--json invalid or the name changed: $(cat "$TEST_TMPDIR/out.json")"
  "$RUNNER" --model_path "$TEST_TMPDIR/named.pte" --print_output all > "$TEST_TMPDIR/out.txt" 2>&1 || fail "renamed method (text) failed"
  cat "$TEST_TMPDIR/out.json" "$TEST_TMPDIR/err.txt" "$TEST_TMPDIR/out.txt" | grep -q $'\033' && fail "raw ESC byte in the runner's output"
  expect_error 1 "NotFound \(0x20\): .*program has no method 'missing'" --model_path "$TEST_TMPDIR/named.pte" --method_name missing
done

# Issue #16: a .bpte where a .pte is expected says what it is and which flag takes it, and a
# .pte given to --bundled says it is not a bundled program (upstream's files, unchanged).
BPTE="$F/pytorch__executorch__bundled_program.bpte"
expect_error 1 "InvalidProgram \(0x23\): '$BPTE': this is a bundled program \(.bpte\): use --bundled $BPTE" --model_path "$BPTE"
expect_error 1 "InvalidProgram \(0x23\): .*this is a program \(.pte, identifier 'ET12'\), not a bundled program" --bundled "$F/pytorch__executorch__add.pte"

# Issue #33: outputs are written atomically and never over an input. The exact reproductions:
# --output_file x with the input x-0.bin, --trace naming the model; then a full disk
# (EMBER_WRITE_FAULT) for --output_file and --trace leaves the previous files intact, no
# temporary behind, exit 1.
ADD="$F/pytorch__executorch__add.pte"
C="$F/reference/pytorch__executorch__add/forward/case1"
W="$TEST_TMPDIR/w33" && mkdir -p "$W"
cp "$C/input0.bin" "$W/x-0.bin" && cp "$ADD" "$W/m.pte"
expect_error 2 "${BADFLAG}--output_file '$W/x-0.bin' is the input --inputs '$W/x-0.bin'" \
  --model_path "$W/m.pte" --inputs "$W/x-0.bin,$C/input1.bin" --output_file "$W/x"
cmp -s "$W/x-0.bin" "$C/input0.bin" || fail "--output_file overwrote its input x-0.bin"
expect_error 2 "${BADFLAG}--trace '$W/./m.pte' is the input --model_path '$W/m.pte'" --model_path "$W/m.pte" --trace "$W/./m.pte"
cmp -s "$W/m.pte" "$ADD" || fail "--trace overwrote the model"
echo previous > "$W/out-0.bin" && echo previous > "$W/trace.json"
for step in open write fsync close rename; do
  EMBER_WRITE_FAULT=$step:ENOSPC expect_error 1 "AccessFailed \(0x22\): .*out-0.bin" \
    --model_path "$ADD" --print_output none --output_file "$W/out"
  EMBER_WRITE_FAULT=$step:ENOSPC expect_error 1 "AccessFailed \(0x22\): .*trace.json" \
    --model_path "$ADD" --print_output none --trace "$W/trace.json"
  [ "$(cat "$W/out-0.bin")" = previous ] || fail "$step fault: --output_file lost the previous output"
  [ "$(cat "$W/trace.json")" = previous ] || fail "$step fault: --trace lost the previous trace"
  ls -a "$W" | grep -q 'tmp-' && fail "$step fault left a temporary: $(ls -a "$W")"
done
"$RUNNER" --model_path "$ADD" --print_output none --output_file "$W/out" --trace "$W/trace.json" >/dev/null 2>&1 ||
  fail "the run without a fault failed"
cmp -s "$W/out-0.bin" "$C/../case0/output0.bin" 2>/dev/null || [ "$(stat -c %s "$W/out-0.bin")" -eq 4 ] || fail "--output_file not replaced"
grep -q traceEvents "$W/trace.json" || fail "--trace not replaced"

# Issue #33's 728-byte .pte planning 15 GB (upstream's add.pte with its 48-byte buffer set to
# 15,000,000,000): refused before anything is reserved, the flag named; a raised budget runs it
# (the pages are never touched); a senseless budget is bad usage.
python3 - "$ADD" "$W/big15.pte" <<'PY'
import sys
d = open(sys.argv[1], 'rb').read()
old = (2).to_bytes(4, 'little') + bytes(8) + (48).to_bytes(8, 'little')
assert d.count(old) == 1 and len(d) == 728
open(sys.argv[2], 'wb').write(d.replace(old, (2).to_bytes(4, 'little') + bytes(8) + (15000000000).to_bytes(8, 'little')))
PY
expect_error 1 "MemoryAllocationFailed \(0x21\): --max_planned_memory_mb 8192: method 'forward' plans 15000000000 bytes" \
  --model_path "$W/big15.pte" --print_output none
"$RUNNER" --model_path "$W/big15.pte" --print_output none --max_planned_memory_mb 16000 > /dev/null 2>&1 ||
  fail "--max_planned_memory_mb 16000 did not let the trusted program run"
expect_error 2 "${BADFLAG}--max_planned_memory_mb must be between 1 and 2\^40, got 0" --max_planned_memory_mb 0

# --trace is bounded: 50 executions of add.pte with --max_trace_events 10 keep 10 and warn.
"$RUNNER" --model_path "$ADD" --print_output none --num_executions 50 --trace "$W/capped.json" --max_trace_events 10 \
  > /dev/null 2> "$W/err.txt" || fail "capped trace run failed: $(cat "$W/err.txt")"
grep -q "^executor_runner: warning: --trace kept the first 10 events and dropped [0-9]* (--max_trace_events)" "$W/err.txt" ||
  fail "no trace cap warning: $(cat "$W/err.txt")"
python3 -c "import json,sys; assert len(json.load(open(sys.argv[1]))['traceEvents']) == 12" "$W/capped.json" || fail "capped trace size"

# Issue #33: an operator name carrying ESC[8m and a newline (add.pte's 'aten::add' patched to
# '\033[8m\nOK:d', same length) reaches stderr escaped in the OperatorMissing line, with the
# next step; no raw control byte, no forged line.
python3 - "$ADD" "$W/evil_op.pte" <<'PY'
import sys
d = open(sys.argv[1], 'rb').read()
assert d.count(b'aten::add') == 1
open(sys.argv[2], 'wb').write(d.replace(b'aten::add', b'\x1b[8m\nOK:d'))
PY
"$RUNNER" --model_path "$W/evil_op.pte" --print_output none > "$W/out.txt" 2> "$W/err.txt"
[ $? -eq 1 ] || fail "evil operator name: expected status 1: $(cat "$W/err.txt")"
grep -qF "no registered kernel: \\x1b[8m\\x0aOK:d.out; 'executor_runner --list_kernels'" "$W/err.txt" &&
  grep -q "^executor_runner: OperatorMissing (0x14): " "$W/err.txt" ||
  fail "evil operator name not escaped or no next step: $(cat "$W/err.txt")"
cat "$W/out.txt" "$W/err.txt" | grep -q $'\033' && fail "raw ESC from an operator name"
grep -q "^OK:d" "$W/err.txt" && fail "forged line from an operator name"

# Issue #33: a FIFO as the model or the --debug sidecar is refused at once (open() used to block).
mkfifo "$W/fifo"
timeout 10 "$RUNNER" --model_path "$W/fifo" > /dev/null 2> "$W/err.txt"
[ $? -eq 1 ] && grep -q "^executor_runner: AccessFailed (0x22): .*fifo" "$W/err.txt" || fail "FIFO model: $(cat "$W/err.txt")"
timeout 10 "$RUNNER" --model_path "$ADD" --debug "$W/fifo" --print_output none > /dev/null 2> "$W/err.txt"
[ $? -eq 1 ] && grep -q "^executor_runner: AccessFailed (0x22): debug file: .*fifo" "$W/err.txt" || fail "FIFO --debug: $(cat "$W/err.txt")"

# Issue #33's messages: a program whose weights are in a .ptd, run without it, says to pass
# --data_path; a wrong --method_name lists the methods (with the .ptd it runs).
expect_error 1 "InvalidState \(0x02\): .*no data map \(.ptd\) was given; pass the .ptd written with the program: --data_path FILE.ptd" \
  --model_path "$F/pytorch__executorch__xor.pte" --print_output none
"$RUNNER" --model_path "$F/pytorch__executorch__xor.pte" --data_path "$F/pytorch__executorch__xor.ptd" --print_output none \
  > /dev/null 2>&1 || fail "xor.pte with its .ptd failed"
expect_error 1 "NotFound \(0x20\): program has no method 'backward'; its methods: 'forward' \(--method_name\)" \
  --model_path "$ADD" --method_name backward
expect_error 2 "${BADFLAG}unknown flag '--modle_path'; did you mean '--model_path'\?" --modle_path "$ADD"

err=$("$RUNNER" --model_path /nonexistent.pte 2>&1)
[ $? -ne 0 ] || fail "missing file must exit non-zero"
echo "$err" | grep -q "NotFound" || fail "missing file error: $err"
echo PASS
