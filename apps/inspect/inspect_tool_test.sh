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
echo PASS
