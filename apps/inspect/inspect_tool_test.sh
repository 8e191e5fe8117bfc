#!/bin/bash
# inspect: reproductions of issue #16 end in "inspect: ErrorName (0xNN): message", printed
# once, exit status 1, never a crash. The add.pte case reads ../shared and is skipped
# (with a note) when the corpus is absent.
set -u
INSPECT="$1"
FIXTURE="$2"
fail() { echo "FAIL: $*"; exit 1; }

# expect_error PATTERN ARGS...: inspect exits 1 and prints "inspect: PATTERN" once.
expect_error() {
  local pattern=$1; shift
  "$INSPECT" "$@" > /dev/null 2> "${TEST_TMPDIR}/err.txt"
  local rc=$?
  [ $rc -eq 1 ] || fail "inspect $*: exit status $rc, expected 1: $(cat ${TEST_TMPDIR}/err.txt)"
  grep -qE "^inspect: ${pattern}" "${TEST_TMPDIR}/err.txt" || fail "inspect $*: got '$(cat ${TEST_TMPDIR}/err.txt)', expected 'inspect: ${pattern}'"
  [ "$(wc -l < "${TEST_TMPDIR}/err.txt")" -eq 1 ] || fail "inspect $*: error not printed once"
}

"$INSPECT" "$FIXTURE" > /dev/null || fail "inspect on the committed fixture failed"

# A directory (was std::bad_alloc from tellg in the .pt2 reader).
mkdir -p "${TEST_TMPDIR}/dir"
expect_error "AccessFailed \(0x22\): '${TEST_TMPDIR}/dir' is a directory" "${TEST_TMPDIR}/dir"
expect_error "NotFound \(0x20\): cannot open '${TEST_TMPDIR}/missing.pt2'" "${TEST_TMPDIR}/missing.pt2"

# upstream's add.pte with bytes 570 and 572 set to 0 (was a segfault on a null Tensor).
SHARED="${EMBER_SHARED_DIR:-$(dirname "$(dirname "$(readlink -f "${TEST_SRCDIR}/${TEST_WORKSPACE}/WORKSPACE")")")/shared}"
ADD="${SHARED}/fixtures/executorch-pte/pytorch__executorch__add.pte"
if [ -f "$ADD" ]; then
  cp "$ADD" "${TEST_TMPDIR}/add.pte" && chmod u+w "${TEST_TMPDIR}/add.pte"
  printf '\000' | dd of="${TEST_TMPDIR}/add.pte" bs=1 seek=570 conv=notrunc status=none
  printf '\000' | dd of="${TEST_TMPDIR}/add.pte" bs=1 seek=572 conv=notrunc status=none
  expect_error "InvalidProgram \(0x23\): .*add.pte: method 'forward' value [0-9]+: tagged Tensor but holds no Tensor" "${TEST_TMPDIR}/add.pte"
  # The method renamed fo"ward and fo<ESC>ward (same length): text escapes it, --json is valid.
  for name in 'fo"ward' $'fo\033ward'; do
    python3 - "$ADD" "${TEST_TMPDIR}/named.pte" "$name" <<'PY'
import sys
d = open(sys.argv[1], 'rb').read()
assert d.count(b'forward') == 1
open(sys.argv[2], 'wb').write(d.replace(b'forward', sys.argv[3].encode()))
PY
    "$INSPECT" "${TEST_TMPDIR}/named.pte" > "${TEST_TMPDIR}/out.txt" || fail "inspect on a renamed method failed"
    grep -q $'\033' "${TEST_TMPDIR}/out.txt" && fail "raw ESC byte in inspect text"
    grep -qF "method 'fo\\\"ward'" "${TEST_TMPDIR}/out.txt" || grep -qF "method 'fo\\x1bward'" "${TEST_TMPDIR}/out.txt" || fail "method name not escaped: $(head -4 "${TEST_TMPDIR}/out.txt")"
    "$INSPECT" "${TEST_TMPDIR}/named.pte" --json > "${TEST_TMPDIR}/out.json" || fail "inspect --json failed"
    python3 -c "import json,sys; assert json.load(open(sys.argv[1]))['methods'][0]['name'] == sys.argv[2]" "${TEST_TMPDIR}/out.json" "$name" || fail "inspect --json invalid or name changed"
  done
else
  echo "note: ${SHARED} absent, add.pte case skipped"
fi
# Issue #33: --dot and --extract_program naming the input (exact reproductions) are bad usage
# (status 2) and the input is untouched; a failing write keeps the previous --dot.
T="${TEST_TMPDIR}/w33" && mkdir -p "$T" && cp "$FIXTURE" "$T/m.pt2" && chmod u+w "$T/m.pt2"
for flag in --dot --extract_program; do
  "$INSPECT" "$T/m.pt2" $flag "$T/m.pt2" > /dev/null 2> "${TEST_TMPDIR}/err.txt"
  rc=$?
  [ $rc -eq 2 ] || fail "$flag naming the input: status $rc: $(cat "${TEST_TMPDIR}/err.txt")"
  grep -q "^inspect: InvalidArgument (0x12): $flag '$T/m.pt2' is the input FILE '$T/m.pt2'" "${TEST_TMPDIR}/err.txt" ||
    fail "$flag naming the input: $(cat "${TEST_TMPDIR}/err.txt")"
  cmp -s "$T/m.pt2" "$FIXTURE" || fail "$flag destroyed the input"
done
"$INSPECT" "$T/m.pt2" --dot "$T/./m.pt2" > /dev/null 2>&1; [ $? -eq 2 ] || fail "--dot ./m.pt2 not refused"
cmp -s "$T/m.pt2" "$FIXTURE" || fail "--dot ./m.pt2 destroyed the input"
echo previous > "$T/g.dot"
for step in open write fsync close rename; do
  EMBER_WRITE_FAULT=$step:ENOSPC expect_error "AccessFailed \(0x22\): .*g.dot" "$T/m.pt2" --dot "$T/g.dot"
  [ "$(cat "$T/g.dot")" = previous ] || fail "$step fault: --dot lost the previous file"
  ls -a "$T" | grep -q 'tmp-' && fail "$step fault left a temporary: $(ls -a "$T")"
done
"$INSPECT" "$T/m.pt2" --dot "$T/g.dot" > /dev/null || fail "--dot failed"
grep -q '^digraph G' "$T/g.dot" || fail "--dot not written"

# A stack_trace carrying ESC[8m, an OSC title, BEL and a forged tool line: inspect's text and
# --dot escape it (no raw control byte, no line starting with the forged text); --json keeps
# it exactly.
python3 - "$FIXTURE" "$T/evil.pt2" <<'PY'
import sys, zipfile
src, dst = sys.argv[1], sys.argv[2]
forged = '\\u001b[8m\\u001b]0;x\\u0007\\nexecutor_runner: OK: all outputs match --expected\\n'
with zipfile.ZipFile(src) as zin, zipfile.ZipFile(dst, 'w') as zout:
    for info in zin.infolist():
        data = zin.read(info.filename)
        if info.filename.endswith('.json') and b'"stack_trace": "' in data:
            data = data.replace(b'"stack_trace": "', b'"stack_trace": "' + forged.encode() + b'  File \\"ev\\u001b[8mil.py\\", line 7, in f\\n', 1)
        zout.writestr(info, data)
PY
"$INSPECT" "$T/evil.pt2" --dot "$T/evil.dot" > "$T/evil.txt" 2>&1 || fail "inspect on the control-byte stack_trace failed: $(cat "$T/evil.txt")"
grep -q $'[\x01-\x08\x0b-\x1f\x7f]' "$T/evil.txt" "$T/evil.dot" && fail "raw control byte in inspect's text or --dot"
grep -q '^executor_runner: OK' "$T/evil.txt" && fail "forged line printed"
grep -qF 'ev\x1b[8mil.py:7' "$T/evil.txt" || fail "escaped source location missing: $(grep -m2 '#' "$T/evil.txt")"
"$INSPECT" "$T/evil.pt2" --json > "$T/evil.json" || fail "inspect --json failed"
python3 -c "import json,sys; assert '\x1b[8m' in json.load(open(sys.argv[1]))['graph']" "$T/evil.json" ||
  fail "--json changed the stack trace"

# A .ptd is external data: inspect lists its keys (was "not a readable zip archive").
PTD="${SHARED}/fixtures/executorch-pte/pytorch__executorch__xor.ptd"
if [ -f "$PTD" ]; then
  "$INSPECT" "$PTD" > "$T/ptd.txt" 2>&1 || fail "inspect on a .ptd failed: $(cat "$T/ptd.txt")"
  grep -q "^external data (.ptd): " "$T/ptd.txt" || fail "no .ptd summary: $(cat "$T/ptd.txt")"
  grep -qE "named tensor\(s\)" "$T/ptd.txt" || fail "no key count: $(cat "$T/ptd.txt")"
  "$INSPECT" "$PTD" --json | python3 -c "import json,sys; assert json.load(sys.stdin)['keys']" || fail ".ptd --json"
fi
echo PASS
