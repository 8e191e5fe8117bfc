#!/bin/bash
# pte_hashes_test: lowering is byte-reproducible and refactors do not change the bytes.
# A CHANGE DETECTOR, not a correctness test: the hashes were recorded from `lower` itself, so
# a pass proves the bytes did not change, not that they are right (e2e_test judges that
# against PyTorch). Re-record with record_pte_hashes.sh only for changes meant to alter bytes.
# For every line "SHA256  ARGS..." of pte_hashes.txt, runs `lower ARGS -o out.pte` (with
# @FIX@ replaced by the committed fixture folder) and compares the output's SHA-256.
#   usage: pte_hashes_test.sh LOWER HASHES_FILE FIXTURE_DIR
set -u
LOWER="$1"
HASHES="$2"
FIX="$3"
OUT="${TEST_TMPDIR:-/tmp}/pte_hashes_out.pte"
checked=0
failed=0
while read -r want args; do
  case "$want" in ''|'#'*) continue ;; esac
  rm -f "$OUT"
  # shellcheck disable=SC2086
  if ! "$LOWER" ${args//@FIX@/$FIX} -o "$OUT" > "${OUT}.log" 2>&1; then
    echo "FAIL: lower $args: $(tail -2 "${OUT}.log")"
    failed=$((failed + 1))
  else
    got=$(sha256sum < "$OUT" | cut -c1-64)
    if [ "$got" != "$want" ]; then
      echo "FAIL: lower $args: sha256 $got, recorded $want"
      failed=$((failed + 1))
    fi
  fi
  checked=$((checked + 1))
done < "$HASHES"
echo "$checked programs lowered, $failed differ from the recorded bytes"
[ "$checked" -gt 100 ] || { echo "FAIL: only $checked cases read from $HASHES"; exit 1; }
[ "$failed" -eq 0 ]
