#!/bin/bash
# lower --batch on every committed fixture (tests/fixtures/pt2 and pt2_quant with the xnnpack
# recipe, tests/fixtures/ptq with xnnpack-int8 and its calibration samples), two at a time:
# every output equals lowering that model alone, byte for byte, and the entries really ran in
# parallel (their wall times, summed from --summary, exceed the whole batch's wall time, which
# a one-at-a-time run cannot do).
#   lower_batch_fixtures_test.sh LOWER FIXTURE_ROOT   (FIXTURE_ROOT: tests/fixtures in runfiles)
set -uo pipefail
lower="$PWD/$1"
fix="$PWD/$2"
w="${TEST_TMPDIR:-$(mktemp -d)}/batch_fixtures"
mkdir -p "$w/out" "$w/alone"
fail() { echo "FAIL: $*"; exit 1; }

# One entry per fixture, and the same command line for lowering it alone.
entries=()
alone=()
for f in "$fix"/pt2/*.pt2 "$fix"/pt2_quant/*.pt2; do
  name="$(basename "$(dirname "$f")")_$(basename "$f" .pt2)"
  case "$(basename "$f")" in
    item_full.*)  # n.item() with no bound in the export: needs --max_dim (docs/aot.md)
      entries+=("{\"input\": \"$f\", \"output\": \"out/$name.pte\", \"recipe\": \"xnnpack\", \"max_dim\": \"u0=16\"}")
      alone+=("$name|$f --recipe xnnpack --max_dim u0=16")
      continue ;;
  esac
  entries+=("{\"input\": \"$f\", \"output\": \"out/$name.pte\", \"recipe\": \"xnnpack\"}")
  alone+=("$name|$f --recipe xnnpack")
done
for f in "$fix"/ptq/*.pt2; do
  name="ptq_$(basename "$f" .pt2)"
  calib=()
  flags=""
  for c in "${f%.pt2}".calib*.input0.bin; do
    calib+=("\"$c\"")
    flags+=" --calibrate $c"
  done
  entries+=("{\"input\": \"$f\", \"output\": \"out/$name.pte\", \"recipe\": \"xnnpack-int8\", \"calibrate\": [$(IFS=,; echo "${calib[*]}")]}")
  alone+=("$name|$f --recipe xnnpack-int8$flags")
done
n=${#entries[@]}
[[ $n -ge 70 ]] || fail "only $n fixtures found under $fix"
{ echo "["; (IFS=$'\n'; echo "${entries[*]}") | sed '$!s/$/,/'; echo "]"; } > "$w/models.json"

t0=$(date +%s.%N)
(cd "$w" && "$lower" --batch models.json --jobs 2 --summary summary.json > stdout.txt 2> stderr.txt)
rc=$?
t1=$(date +%s.%N)
tail -3 "$w/stderr.txt"
[[ $rc == 0 ]] || { cat "$w/stderr.txt"; fail "batch exit status $rc"; }
grep -q "$n of $n models lowered" "$w/stdout.txt" || fail "no final count of $n"
grep -q "\[batch\] $n/$n done, 0 failed, 2 jobs" "$w/stderr.txt" || fail "no progress line with 2 jobs"

# Parallel: the entries' wall times overlap.
sum=$(grep -o '"seconds": [0-9.e+-]*' "$w/summary.json" | awk '{s += $2} END {printf "%.3f", s}')
wall=$(echo "$t1 $t0" | awk '{printf "%.3f", $1 - $2}')
echo "$n models: entries' wall times sum to $sum s, the batch took $wall s"
# One at a time, the sum cannot exceed the batch's wall time; 1.05 leaves room for clock noise
# only (at load 11 on 2 cores two overlapping jobs gave 1.17, so 1.2 failed while they overlapped).
awk -v s="$sum" -v w="$wall" 'BEGIN {exit !(s > 1.05 * w)}' || fail "entries did not overlap (sum $sum s, batch $wall s)"

# Byte-identical to one-by-one lowering.
for a in "${alone[@]}"; do
  name="${a%%|*}"
  # shellcheck disable=SC2086
  "$lower" ${a#*|} -o "$w/alone/$name.pte" > /dev/null 2> "$w/alone/$name.err" || fail "$name alone: $(tail -1 "$w/alone/$name.err")"
  cmp -s "$w/out/$name.pte" "$w/alone/$name.pte" || fail "$name: batch output differs from lowering it alone"
done
# The comparison can fail: different fixtures give different bytes.
cmp -s "$w/out/pt2_mlp.core_aten.torch2_6.pte" "$w/out/pt2_conv_bn_relu.core_aten.torch2_6.pte" &&
  fail "two different models gave equal bytes"
echo "PASS: $n fixtures, batch == one by one"
