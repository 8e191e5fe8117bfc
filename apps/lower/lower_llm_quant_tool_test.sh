#!/bin/bash
# lower --recipe xnnpack-8da8w / xnnpack-8da4w on a decoder fixture: the .pte is written and the
# accuracy report compares it with the float xnnpack program on the .pt2's example inputs and 16
# greedy steps (17 calls). int8 weights keep every greedy token on this fixture (measured 34 dB);
# 4-bit ones report a lower, finite SQNR. The float recipe prints no such report.
set -u
LOWER="$1"
FIXTURE="$2"
fail() { echo "FAIL: $*"; exit 1; }

"$LOWER" "$FIXTURE" -o "${TEST_TMPDIR}/q8.pte" --recipe xnnpack-8da8w > "${TEST_TMPDIR}/q8.txt" 2>&1 \
  || fail "8da8w lowering failed: $(cat ${TEST_TMPDIR}/q8.txt)"
[ "$(head -c 8 "${TEST_TMPDIR}/q8.pte" | tail -c 4)" = "ET12" ] || fail "8da8w output is not a .pte"
grep -q "^xnnpack-8da8w vs xnnpack on the example inputs:" "${TEST_TMPDIR}/q8.txt" || fail "no 8da8w report: $(cat ${TEST_TMPDIR}/q8.txt)"
grep -qE "logits vs float: SQNR 3[0-9]\.[0-9]+ dB, .* over 17 calls \(prompt \+ 16 greedy steps\)" "${TEST_TMPDIR}/q8.txt" \
  || fail "8da8w SQNR line: $(grep SQNR ${TEST_TMPDIR}/q8.txt)"
grep -q "greedy tokens: 17/17 agree" "${TEST_TMPDIR}/q8.txt" || fail "8da8w tokens: $(grep greedy ${TEST_TMPDIR}/q8.txt)"

"$LOWER" "$FIXTURE" -o "${TEST_TMPDIR}/q4.pte" --recipe xnnpack-8da4w > "${TEST_TMPDIR}/q4.txt" 2>&1 \
  || fail "8da4w lowering failed: $(cat ${TEST_TMPDIR}/q4.txt)"
grep -qE "logits vs float: SQNR 1[0-9]\.[0-9]+ dB" "${TEST_TMPDIR}/q4.txt" || fail "8da4w SQNR line: $(grep SQNR ${TEST_TMPDIR}/q4.txt)"
grep -qE "greedy tokens: [0-9]+/17 agree" "${TEST_TMPDIR}/q4.txt" || fail "8da4w tokens line"
[ "$(stat -c %s "${TEST_TMPDIR}/q4.pte")" -lt "$(stat -c %s "${TEST_TMPDIR}/q8.pte")" ] || fail "4-bit .pte not smaller than int8"

"$LOWER" "$FIXTURE" -o "${TEST_TMPDIR}/f.pte" --recipe xnnpack > "${TEST_TMPDIR}/f.txt" 2>&1 || fail "float lowering failed"
if grep -q "SQNR" "${TEST_TMPDIR}/f.txt"; then fail "the float recipe printed an accuracy report"; fi
echo "PASS"
