#!/bin/bash
# Numeric debugging end to end (issue #17): executor_runner --dump_intermediates writes every
# instruction's outputs named by provenance; //apps/compare lines up two dumps. A copy of
# the lowered MLP with the weight of its fc2 layer corrupted (corrupt_weight) must be named
# as the first jump, with every earlier layer exact; portable against XNNPACK (the same math)
# and a dump against itself have no jump. The layer (fc2) comes from the fixture's module
# structure (refgen/fixtures/pt2_models.py: Mlp has fc1, fc2, fc3), not from Ember.
set -u
LOWER="$1"
RUNNER="$2"
COMPARE="$3"
CORRUPT="$4"
FIXTURE="$5"
T="${TEST_TMPDIR}"
fail() { echo "FAIL: $*"; exit 1; }

for recipe in portable xnnpack; do
  "$LOWER" "$FIXTURE" --recipe $recipe -o "$T/$recipe.pte" --debug_out "$T/$recipe.ptdbg" > "$T/lower.txt" 2>&1 \
    || fail "lowering: $(cat $T/lower.txt)"
done
node=$("$CORRUPT" "$T/portable.pte" "$T/portable.ptdbg" fc2 "$T/corrupt.pte" 2> "$T/corrupt.txt") \
  || fail "corrupt_weight: $(cat $T/corrupt.txt)"
[ -n "$node" ] || fail "corrupt_weight named no node"
cmp -s "$T/portable.pte" "$T/corrupt.pte" && fail "the corrupted copy is unchanged"

dump() {  # dump NAME PTE PTDBG
  "$RUNNER" --model_path "$2" --debug "$3" --dump_intermediates "$T/$1" --random_inputs --random_seed 7 \
    --print_output none > "$T/run_$1.txt" 2>&1 || fail "dumping $1: $(cat $T/run_$1.txt)"
  [ -f "$T/$1/index.json" ] || fail "no index.json for $1"
}
dump ref "$T/portable.pte" "$T/portable.ptdbg"
dump bad "$T/corrupt.pte" "$T/portable.ptdbg"
dump xnn "$T/xnnpack.pte" "$T/xnnpack.ptdbg"

# The index names every instruction output by node, with op, source line, dtype, shape, file.
entries=$(grep -c '"name":' "$T/ref/index.json")
instructions=$(grep -c '"kind": "kernel"' "$T/portable.ptdbg")
[ "$entries" -eq $((instructions + 1)) ] || fail "$entries index entries, expected $instructions instructions + 1 output"
grep -q '"source": "pt2_models.py:45"' "$T/ref/index.json" || fail "index has no source lines"
grep -q "\"name\": \"$node\"" "$T/ref/index.json" || fail "index does not name $node"
for f in $(grep -o '"file": "[^"]*"' "$T/ref/index.json" | cut -d'"' -f4); do
  [ -f "$T/ref/$f" ] || fail "index lists $f, which is missing"
  head -c 6 "$T/ref/$f" | grep -q 'NUMPY' || fail "$f is not a .npy file"
done

"$COMPARE" "$T/ref" "$T/bad" > "$T/cmp.txt" 2>&1 || fail "compare: $(cat $T/cmp.txt)"
grep -q "^first jump: $node " "$T/cmp.txt" || fail "compare does not name $node first: $(cat $T/cmp.txt)"
# Every layer before the corrupted one is exact (SQNR inf), the corrupted one is not.
before=$(awk -v n="$node" '$2 == n {exit} /^[0-9]+ / {print $NF}' "$T/cmp.txt" | sort -u)
[ -z "$before" ] || [ "$before" = "inf" ] || fail "layers before $node differ: $(cat $T/cmp.txt)"
"$COMPARE" --json "$T/ref" "$T/bad" | grep -q "\"first_jump\":\"$node\"" || fail "compare --json does not name $node"

"$COMPARE" "$T/ref" "$T/xnn" > "$T/cmp.txt" 2>&1 || fail "compare xnnpack: $(cat $T/cmp.txt)"
grep -q "^first jump: none" "$T/cmp.txt" || fail "portable vs XNNPACK has a jump: $(cat $T/cmp.txt)"
grep -qE '^[0-9]+ +output:0 ' "$T/cmp.txt" || fail "the method output is not lined up: $(cat $T/cmp.txt)"
"$COMPARE" "$T/ref" "$T/ref" | grep -q "^first jump: none" || fail "a dump against itself has a jump"

# Bad dumps are named errors.
mkdir -p "$T/empty"
"$COMPARE" "$T/ref" "$T/empty" > "$T/cmp.txt" 2>&1
[ $? -eq 1 ] || fail "a directory without index.json does not fail"
grep -qE '^compare: NotFound \(0x20\): dump index: .*empty/index.json' "$T/cmp.txt" || fail "error: $(cat $T/cmp.txt)"
echo PASS
