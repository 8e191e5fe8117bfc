#!/bin/bash
# pte_check on issue #33's files: a directory, /dev/zero and a FIFO are named errors with
# status 1 at once (were an abort and a hang); upstream's 728-byte add.pte with its buffer
# set to 15 GB (and 64 GB), its method renamed with an ESC byte, gets a plan.memory_budget
# warning naming the total, with the name escaped; no arguments is usage (status 2).
set -u
CHECK="$(readlink -f "$1")"
fail() { echo "FAIL: $*"; exit 1; }
T="$TEST_TMPDIR"

# expect_error PATTERN FILE: status 1, "pte_check: PATTERN" once, within 10 seconds.
expect_error() {
  timeout 10 "$CHECK" "$2" > /dev/null 2> "$T/err.txt"
  local rc=$?
  [ $rc -eq 1 ] || fail "$2: exit status $rc, expected 1: $(cat "$T/err.txt")"
  grep -qE "^pte_check: $1" "$T/err.txt" || fail "$2: got '$(cat "$T/err.txt")', expected '$1'"
  [ "$(wc -l < "$T/err.txt")" -eq 1 ] || fail "$2: error not printed once"
}
mkdir -p "$T/dir"
expect_error "AccessFailed \(0x22\): .*'$T/dir' is a directory" "$T/dir"
expect_error "AccessFailed \(0x22\): .*'/dev/zero' is not a readable regular file" /dev/zero
mkfifo "$T/fifo"
expect_error "AccessFailed \(0x22\): .*'$T/fifo' is not a readable regular file" "$T/fifo"
expect_error "NotFound \(0x20\): .*missing.pte" "$T/missing.pte"
"$CHECK" > /dev/null 2>&1; [ $? -eq 2 ] || fail "no arguments: expected status 2"

WS=$(readlink -f "$TEST_SRCDIR/$TEST_WORKSPACE/WORKSPACE")
ADD="${EMBER_SHARED_DIR:-$(dirname "$(dirname "$WS")")/shared}/fixtures/executorch-pte/pytorch__executorch__add.pte"
if [ ! -f "$ADD" ]; then echo "shared fixtures absent: skipping the plan cases"; echo PASS; exit 0; fi
"$CHECK" "$ADD" | grep -q ": 0 error(s), 0 warning(s)$" || fail "add.pte is not clean"
for size in 15000000000 64000000000; do
  python3 - "$ADD" "$T/big.pte" "$size" <<'PY'
import sys
d = open(sys.argv[1], 'rb').read()
old = (2).to_bytes(4, 'little') + bytes(8) + (48).to_bytes(8, 'little')
assert d.count(old) == 1 and len(d) == 728 and d.count(b'forward') == 1
d = d.replace(old, (2).to_bytes(4, 'little') + bytes(8) + int(sys.argv[3]).to_bytes(8, 'little'))
open(sys.argv[2], 'wb').write(d.replace(b'forward', b'fo\x1bward'))
PY
  "$CHECK" "$T/big.pte" > "$T/out.txt" 2>&1 || fail "a warning must not fail the check: $(cat "$T/out.txt")"
  grep -qF "warning plan.memory_budget at plan 'fo\x1bward': plans $size bytes (largest buffer $size) in a 728-byte file, over the runtime's default planned-memory budget of 8589934592 bytes" "$T/out.txt" ||
    fail "no plan warning for $size: $(cat "$T/out.txt")"
  grep -q $'\033' "$T/out.txt" && fail "raw ESC in pte_check's output"
  grep -q ": 0 error(s), 1 warning(s)$" "$T/out.txt" || fail "summary: $(cat "$T/out.txt")"
done
echo PASS
