#!/bin/bash
# ember_pte(debug = True) writes NAME.ptdbg next to NAME.pte: the sidecar names the .pte's size
# and SHA-256 (computed here, not taken from lower), lists the XNNPACK delegate call with its
# delegated nodes, and asking for it does not change the .pte's bytes.
#   debug_sidecar_rule_test.sh MLP_DEBUG.pte MLP_DEBUG.ptdbg MLP_XNNPACK.pte
set -uo pipefail
pte="$1" dbg="$2" plain="$3"
fail() { echo "FAIL: $*"; exit 1; }
[[ "$dbg" == *mlp_debug.ptdbg ]] || fail "sidecar is named $dbg, expected mlp_debug.ptdbg"
grep -q '"format": "ember.ptdbg"' "$dbg" || fail "not a .ptdbg: $(head -c 200 "$dbg")"
grep -q "\"size\": $(stat -L -c %s "$pte")," "$dbg" || fail "sidecar does not record the .pte's size"
grep -q "\"sha256\": \"$(sha256sum < "$pte" | cut -c1-64)\"" "$dbg" || fail "sidecar does not record the .pte's SHA-256"
grep -q '"backend": "XnnpackBackend"' "$dbg" || fail "no XNNPACK delegate call in the sidecar"
cmp "$pte" "$plain" || fail "debug = True changed the .pte bytes"
echo PASS
