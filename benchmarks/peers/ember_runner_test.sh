#!/bin/bash
# ember_runner (run_peers.py's Ember process) on issue #33's crafted programs: an operator
# name and a backend id from the file carrying ESC[8m and a newline reach its stderr escaped
# (\x1b, \x0a), with no raw control byte and no forged line; status 1. Skips without ../shared.
set -u
RUNNER="$(readlink -f "$1")"
WS=$(readlink -f "$TEST_SRCDIR/$TEST_WORKSPACE/WORKSPACE")
F="${EMBER_SHARED_DIR:-$(dirname "$(dirname "$WS")")/shared}/fixtures/executorch-pte"
fail() { echo "FAIL: $*"; exit 1; }
W="$TEST_TMPDIR"
if [ ! -d "$F" ]; then echo "shared fixtures absent: skipping"; echo PASS; exit 0; fi

# patch IN OUT OLD NEW: OUT is IN with the single occurrence of OLD replaced (same length).
patch() {
  python3 - "$@" <<'PY'
import sys
d = open(sys.argv[1], 'rb').read()
old = sys.argv[3].encode()
new = sys.argv[4].encode().decode('unicode_escape').encode('latin-1')
assert d.count(old) == 1 and len(old) == len(new), (d.count(old), len(old), len(new))
open(sys.argv[2], 'wb').write(d.replace(old, new))
PY
}

# expect_escaped PTE NEEDLE: status 1, one "ember_runner: " error line holding NEEDLE, and
# neither a raw ESC nor a line starting "OK:" anywhere in the output.
expect_escaped() {
  "$RUNNER" "$1" 1 0 1 "$W/out" "" > "$W/out.txt" 2> "$W/err.txt"
  local rc=$?
  [ $rc -eq 1 ] || fail "$1: exit status $rc, expected 1: $(cat "$W/err.txt")"
  grep -qF "$2" "$W/err.txt" || fail "$1: '$2' not in '$(cat "$W/err.txt")'"
  [ "$(wc -l < "$W/err.txt")" -eq 1 ] || fail "$1: more than one line: $(cat "$W/err.txt")"
  grep -q "^ember_runner: " "$W/err.txt" || fail "$1: no 'ember_runner: ' prefix"
  cat "$W/out.txt" "$W/err.txt" | grep -q $'\033' && fail "$1: raw ESC reached the output"
  grep -q "^OK:" "$W/out.txt" "$W/err.txt" && fail "$1: a forged line"
  return 0
}

# An operator name: upstream's add.pte with 'aten::add' -> ESC[8m LF 'OK:d'.
patch "$F/pytorch__executorch__add.pte" "$W/evil_op.pte" 'aten::add' '\x1b[8m\nOK:d'
expect_escaped "$W/evil_op.pte" '\x1b[8m\x0aOK:d'
# A backend id: an upstream XNNPACK-delegated program with 'XnnpackBackend' -> ESC[8m LF 'OK:...'.
patch "$F/balthazarneveu__executorch_smoothly__xnnpack_simpleconv.pte" "$W/evil_backend.pte" \
  'XnnpackBackend' '\x1b[8m\nOK:Backen'
expect_escaped "$W/evil_backend.pte" '\x1b[8m\x0aOK:Backen'
echo PASS
