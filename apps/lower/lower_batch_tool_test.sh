#!/bin/bash
# lower --batch: the committed fixtures lowered in parallel give byte-identical files to
# lowering each alone; a failing entry is named (index and input) and makes the exit status
# non-zero while the others are still written; a bad batch file exits 2 without lowering.
#   lower_batch_tool_test.sh LOWER MLP.pt2 CONV.pt2 PTQ_MLP.pt2 PTQ_CALIB.bin
set -uo pipefail
lower="$PWD/$1"
w="${TEST_TMPDIR:-$(mktemp -d)}/batch"
mkdir -p "$w/models" "$w/out" "$w/alone" "$w/elsewhere"
cp "$2" "$w/models/mlp.pt2"; cp "$3" "$w/models/conv.pt2"; cp "$4" "$w/models/ptq.pt2"; cp "$5" "$w/models/calib0.bin"
fail() { echo "FAIL: $*"; exit 1; }

cat > "$w/models.json" <<'JSON'
[
  {"input": "models/mlp.pt2", "output": "out/mlp_portable.pte", "recipe": "portable"},
  {"input": "models/mlp.pt2", "output": "out/mlp_xnnpack.pte", "recipe": "xnnpack",
   "compile_spec": {"xnnpack.constants": "inline"}},
  {"input": "models/conv.pt2", "output": "out/conv.pte", "recipe": "xnnpack", "memory_planner": "naive"},
  {"input": "models/ptq.pt2", "output": "out/ptq.pte", "recipe": "xnnpack-int8", "calibrate": ["models/calib0.bin"]}
]
JSON
# Paths in the file are relative to the file's directory, not to the working directory.
(cd "$w/elsewhere" && "$lower" --batch ../models.json --jobs 2 --summary summary.json > stdout.txt 2> stderr.txt)
rc=$?
cat "$w/elsewhere/stderr.txt"
[[ $rc == 0 ]] || fail "batch exit status $rc"
grep -q "4 of 4 models lowered" "$w/elsewhere/stdout.txt" || fail "no final count"
grep -q "\[batch\] 4/4 done, 0 failed" "$w/elsewhere/stderr.txt" || fail "no progress line"

cd "$w"
"$lower" models/mlp.pt2 -o alone/mlp_portable.pte --recipe portable > /dev/null || fail "alone 0"
"$lower" models/mlp.pt2 -o alone/mlp_xnnpack.pte --recipe xnnpack --compile_spec xnnpack.constants=inline > /dev/null || fail "alone 1"
"$lower" models/conv.pt2 -o alone/conv.pte --recipe xnnpack --memory_planner naive > /dev/null || fail "alone 2"
"$lower" models/ptq.pt2 -o alone/ptq.pte --recipe xnnpack-int8 --calibrate models/calib0.bin > /dev/null || fail "alone 3"
for f in mlp_portable mlp_xnnpack conv ptq; do
  cmp "out/$f.pte" "alone/$f.pte" || fail "$f.pte: batch output differs from lowering it alone"
done
# Different options really give different bytes (so the comparison above can fail).
cmp -s out/mlp_portable.pte out/mlp_xnnpack.pte && fail "portable and xnnpack outputs are equal"

s="$w/elsewhere/summary.json"
[[ $(grep -c '"ok": true' "$s") == 4 ]] || fail "summary: expected 4 ok entries"
grep -q '"backend": "XnnpackBackend"' "$s" || fail "summary: no XNNPACK partition"
grep -q '"arena_bytes"' "$s" || fail "summary: no arena"
grep -q '"aten::' "$s" || fail "summary: no op counts"
grep -q "\"bytes\": $(stat -c %s out/conv.pte)," "$s" || fail "summary: conv size"

# One bad entry: named, status 1, the good one still written.
rm -f out/mlp_portable.pte
cat > bad.json <<'JSON'
[
  {"input": "models/mlp.pt2", "output": "out/mlp_portable.pte"},
  {"input": "models/missing.pt2", "output": "out/missing.pte", "recipe": "xnnpack"},
  {"input": "models/mlp.pt2", "output": "out/bad_recipe.pte", "recipe": "no-such-recipe"}
]
JSON
"$lower" --batch bad.json --summary bad_summary.json > /dev/null 2> bad_stderr.txt
rc=$?
cat bad_stderr.txt
[[ $rc == 1 ]] || fail "bad entry: exit status $rc, expected 1"
grep -q "lower --batch: entry 1 (models/missing.pt2): [A-Za-z]* (0x" bad_stderr.txt || fail "entry 1 not named"
grep -q "lower --batch: entry 2 (models/mlp.pt2): .*no-such-recipe" bad_stderr.txt || fail "entry 2 not named"
cmp out/mlp_portable.pte alone/mlp_portable.pte || fail "good entry not written"
[[ $(grep -c '"ok": false' bad_summary.json) == 2 ]] || fail "summary: expected 2 failures"

# A bad batch file: named error, status 2, nothing lowered.
echo '[{"input": "models/mlp.pt2"}]' > broken.json
"$lower" --batch broken.json 2> broken_stderr.txt
rc=$?
cat broken_stderr.txt
[[ $rc == 2 ]] || fail "broken file: exit status $rc, expected 2"
grep -q "InvalidArgument (0x[0-9a-f]*): batch file: entry 0: 'output'" broken_stderr.txt || fail "broken file not named"
"$lower" --batch nope.json 2> /dev/null; [[ $? == 2 ]] || fail "missing batch file: expected 2"

# Issue #33, exactly as reported: same.pte and ./same.pte in one batch ("2 of 2 lowered"),
# one entry's output over another's input, and a key "o=x" that redirected the output: all
# status 2 before anything is lowered, inputs untouched.
# expect_batch PATTERN FILE: lower --batch FILE exits 2 and prints "lower: PATTERN".
expect_batch() {
  "$lower" --batch "$2" > /dev/null 2> c33_stderr.txt
  local rc=$?
  [[ $rc == 2 ]] || fail "$2: exit status $rc, expected 2: $(cat c33_stderr.txt)"
  grep -qE "^lower: $1" c33_stderr.txt || fail "$2: got '$(cat c33_stderr.txt)', expected '$1'"
}
rm -f out/same.pte out/x
echo '[{"input": "models/mlp.pt2", "output": "out/same.pte"}, {"input": "models/conv.pt2", "output": "./out/same.pte"}]' > same.json
expect_batch "InvalidArgument \(0x12\): batch entry 0 output '.*/out/same.pte' and batch entry 1 output '.*/\./out/same.pte' are the same file" same.json
[[ -e out/same.pte ]] && fail "a refused batch wrote out/same.pte"
cp models/mlp.pt2 victim.pt2
echo '[{"input": "victim.pt2", "output": "a.pte"}, {"input": "models/conv.pt2", "output": "victim.pt2"}]' > overwrite.json
expect_batch "InvalidArgument \(0x12\): batch entry 1 output '.*/victim.pt2' is the input batch entry 0 input" overwrite.json
cmp -s victim.pt2 models/mlp.pt2 || fail "an entry's output overwrote another entry's input"
echo '[{"input": "models/mlp.pt2", "output": "out/o.pte", "o=x": "y"}]' > key.json
expect_batch "InvalidArgument \(0x12\): batch file: entry 0: unknown key 'o=x'" key.json
[[ -e out/o.pte || -e out/x || -e x ]] && fail "a refused key lowered something"

# A FIFO as the batch file is refused at once (an ifstream would block in open()).
mkfifo fifo.json
timeout 10 "$lower" --batch fifo.json > /dev/null 2> fifo_stderr.txt
rc=$?
[[ $rc == 2 ]] && grep -q "^lower: AccessFailed (0x22): batch file '.*fifo.json' is not a regular file" fifo_stderr.txt ||
  fail "FIFO batch file: status $rc: $(cat fifo_stderr.txt)"

# --summary on a full disk (the summary alone fails): exit 1, the previous summary intact.
echo '[{"input": "models/mlp.pt2", "output": "out/full.pte"}]' > full.json
echo previous > full_summary.json
EMBER_WRITE_FAULT=write:ENOSPC:full_summary.json "$lower" --batch full.json --summary full_summary.json > /dev/null 2> full_stderr.txt
rc=$?
[[ $rc == 1 ]] || fail "--summary on a full disk: exit status $rc, expected 1: $(cat full_stderr.txt)"
grep -q "^lower: AccessFailed (0x22): .*full_summary.json.*No space left on device" full_stderr.txt || fail "--summary error: $(cat full_stderr.txt)"
[[ "$(cat full_summary.json)" == previous ]] || fail "--summary lost the previous summary"
ls -a | grep -q 'tmp-' && fail "a temporary was left behind: $(ls -a)"
echo PASS
