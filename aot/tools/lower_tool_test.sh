#!/bin/bash
# lower: progress lines per stage, the memory plan line and a .pte on success; on a
# malformed .pt2 "<ErrorName>: message" on stderr and exit status 1; bad usage exits 2.
set -u
LOWER="$1"
FIXTURE="$2"
OUT="${TEST_TMPDIR}/model.pte"
fail() { echo "FAIL: $*"; exit 1; }

"$LOWER" "$FIXTURE" -o "$OUT" --dump-dir "${TEST_TMPDIR}/dump" > "${TEST_TMPDIR}/out.txt" 2>&1 || fail "lowering failed: $(cat ${TEST_TMPDIR}/out.txt)"
for stage in load to_edge transform to_backend to_executorch emit; do
  grep -q "^\[${stage} *\] *[0-9.]* ms$" "${TEST_TMPDIR}/out.txt" || fail "no progress line for ${stage}"
done
grep -q "memory plan (greedy): arena 1024 B, lower bound 1024 B" "${TEST_TMPDIR}/out.txt" || fail "memory plan line"
[ "$(head -c 8 "$OUT" | tail -c 4)" = "ET12" ] || fail "output is not a .pte"
[ -f "${TEST_TMPDIR}/dump/01_to_edge.txt" ] || fail "no stage dump"

printf 'PK\003\004garbage' > "${TEST_TMPDIR}/bad.pt2"
"$LOWER" "${TEST_TMPDIR}/bad.pt2" -o "${TEST_TMPDIR}/bad.pte" 2> "${TEST_TMPDIR}/err.txt"
rc=$?
[ $rc -eq 1 ] || fail "malformed input exit status $rc, expected 1"
grep -qE '^[A-Z][A-Za-z]+: ' "${TEST_TMPDIR}/err.txt" || fail "error is not '<ErrorName>: message': $(cat ${TEST_TMPDIR}/err.txt)"
grep -q "bad.pt2" "${TEST_TMPDIR}/err.txt" || fail "error does not name the file"

"$LOWER" > /dev/null 2>&1
[ $? -eq 2 ] || fail "usage error should exit 2"
echo PASS
