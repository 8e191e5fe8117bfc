#!/bin/bash
# Bundled programs through the tools, as a user runs them:
#   - lower --bundle_inputs/--bundle_outputs writes a .bpte beside the .pte from PyTorch's
#     reference input and output (tests/fixtures/pt2, made in the torch chroot), and
#     executor_runner --bundled passes every case of it;
#   - a corrupted expected output fails with the case named and a non-zero exit;
#   - a truncated .bpte, a .pte given to --bundled and a .bpte given to --model_path get
#     named errors; lower's bundling mistakes too;
#   - inspect lists the cases; --extract_program gives back the .pte byte for byte, and
#     pte_check (the format rules upstream's runtime relies on) passes on the inner program;
#   - upstream's corpus .bpte passes --bundled (skipped without ../shared).
#   - lower --bundle_cases cases.json bundles a dynamic-batch MLP's four PyTorch cases at
#     their actual shapes (1, 4, 17 and 64 rows), and all four pass;
#   usage: bundled_tool_test.sh LOWER RUNNER INSPECT PTE_CHECK MODEL.pt2 INPUT0.bin OUTPUT0.bin
#          DYNAMIC.pt2 CONV_BN_RELU.pt2 (their reference files sit beside them)
#   - a two-method program (lower --method) bundles one suite per method from a cases file;
set -u
LOWER="$1" RUNNER="$2" INSPECT="$3" PTE_CHECK="$4" MODEL="$5" IN="$6" OUT="$7" DYN="$8"
T="$TEST_TMPDIR"
fail() { echo "FAIL: $*"; exit 1; }

# expect_error TOOL STATUS PATTERN ARGS...: exits STATUS and prints "TOOL: PATTERN" once.
expect_error() {
  local tool=$1 want=$2 pattern=$3; shift 3
  "$@" > "$T/stdout.txt" 2> "$T/err.txt"
  local rc=$?
  [ $rc -eq "$want" ] || fail "$*: exit status $rc, expected $want: $(cat "$T/err.txt")"
  grep -qE "^${tool}: ${pattern}" "$T/err.txt" || fail "$*: got '$(cat "$T/err.txt")', expected '${pattern}'"
  [ "$(grep -c "^${tool}: [A-Za-z]" "$T/err.txt")" -eq 1 ] || fail "$*: error not printed once: $(cat "$T/err.txt")"
}

# An Ember-written .bpte: two cases, both PyTorch's reference pair.
"$LOWER" "$MODEL" -o "$T/mlp.pte" --bundle_inputs "$IN" --bundle_outputs "$OUT" \
  --bundle_inputs="$IN" --bundle_outputs="$OUT" > "$T/lower.txt" 2>&1 || fail "lower failed: $(cat "$T/lower.txt")"
grep -q "^wrote $T/mlp.bpte (bundled program: 2 case(s) for 1 method(s), [0-9]* bytes)$" "$T/lower.txt" ||
  fail "no .bpte line: $(cat "$T/lower.txt")"
[ "$(head -c 8 "$T/mlp.bpte" | tail -c 4)" = "BP08" ] || fail ".bpte identifier"
"$RUNNER" --bundled "$T/mlp.bpte" > "$T/run.txt" 2>&1 || fail "--bundled on Ember's .bpte failed: $(cat "$T/run.txt")"
grep -q "^  case 1: pass  max abs error [0-9.e+-]* (atol 0.01, rtol 0.01)$" "$T/run.txt" || fail "case line: $(cat "$T/run.txt")"
grep -q "^bundled: 2 of 2 case(s) passed$" "$T/run.txt" || fail "summary line: $(cat "$T/run.txt")"
"$RUNNER" --bundled "$T/mlp.bpte" --method_name forward --bundleio_atol 1e-6 --bundleio_rtol 1e-5 > /dev/null 2>&1 ||
  fail "tight tolerance failed (Ember's MLP matches PyTorch to float rounding)"

# --bundle_out names the file; -o is never overwritten.
"$LOWER" "$MODEL" -o "$T/m2.pte" --bundle_inputs "$IN" --bundle_outputs "$OUT" --bundle_out "$T/other.bpte" \
  > /dev/null 2>&1 || fail "--bundle_out"
[ -s "$T/other.bpte" ] && [ ! -e "$T/m2.bpte" ] || fail "--bundle_out did not choose the file"

# A wrong expected output: element 3 of the second case's file differs.
cp "$OUT" "$T/wrong.bin" && chmod u+w "$T/wrong.bin"
printf '\x00\x00\x80\x7f' | dd of="$T/wrong.bin" bs=1 seek=12 conv=notrunc 2> /dev/null  # +inf
"$LOWER" "$MODEL" -o "$T/w.pte" --bundle_inputs "$IN" --bundle_outputs "$OUT" --bundle_inputs "$IN" \
  --bundle_outputs "$T/wrong.bin" > /dev/null 2>&1 || fail "lower with the wrong output failed"
expect_error executor_runner 1 "bundled check failed: 1 of 2 case\(s\): forward case 1$" "$RUNNER" --bundled "$T/w.bpte"
grep -q "^  case 0: pass" "$T/stdout.txt" || fail "case 0 should pass: $(cat "$T/stdout.txt")"
"$RUNNER" --bundled "$T/w.bpte" --json 2> /dev/null | tail -1 > "$T/json.txt"
grep -q '"cases":2,' "$T/json.txt" && grep -q '"passed":1,' "$T/json.txt" &&
  grep -q '{"case":1,"max_abs_error":null,"method":"forward","passed":false,"reason":""}' "$T/json.txt" ||
  fail "--json line: $(cat "$T/json.txt")"
grep -q "^  case 1: FAIL  max abs error inf (atol 0.01, rtol 0.01) at output 0 element 3, 1 element(s) outside$" \
  "$T/stdout.txt" || fail "case 1 line: $(cat "$T/stdout.txt")"

# Malformed and misplaced files.
head -c 2000 "$T/mlp.bpte" > "$T/trunc.bpte"
expect_error executor_runner 1 "InvalidProgram \(0x23\): '$T/trunc.bpte': bundled program: the BP08 FlatBuffer \(2000 bytes\) failed verification" \
  "$RUNNER" --bundled "$T/trunc.bpte"
expect_error executor_runner 1 "InvalidProgram \(0x23\): '$T/mlp.pte': this is a program \(.pte, identifier 'ET12'\), not a bundled program" \
  "$RUNNER" --bundled "$T/mlp.pte"
expect_error executor_runner 1 "InvalidProgram \(0x23\): '$T/mlp.bpte': this is a bundled program \(.bpte\): use --bundled" \
  "$RUNNER" --model_path "$T/mlp.bpte"
expect_error executor_runner 1 "NotFound \(0x20\): '$T/mlp.bpte': bundled program: no test suite for method 'nope'" \
  "$RUNNER" --bundled "$T/mlp.bpte" --method_name nope
expect_error executor_runner 2 "InvalidArgument \(0x12\): --bundleio_atol must be a finite number >= 0, got -1" \
  "$RUNNER" --bundled "$T/mlp.bpte" --bundleio_atol=-1
expect_error inspect 1 "InvalidProgram \(0x23\): .*failed verification" "$INSPECT" "$T/trunc.bpte"

# lower's bundling mistakes.
expect_error lower 2 "InvalidArgument \(0x12\): --bundle_inputs and --bundle_outputs make one test case per pair: got 2 --bundle_inputs and 1" \
  "$LOWER" "$MODEL" -o "$T/x.pte" --bundle_inputs "$IN" --bundle_inputs "$IN" --bundle_outputs "$OUT"
expect_error lower 2 "InvalidArgument \(0x12\): bundled case 0 of method 'forward' expected output 0: '$IN' has 256 bytes, float32\[4, 10\] needs 160" \
  "$LOWER" "$MODEL" -o "$T/x.pte" --bundle_inputs "$IN" --bundle_outputs "$IN"
expect_error lower 2 "InvalidArgument \(0x12\): bundled case 0 of method 'forward': --bundle_inputs '$IN,$IN' / --bundle_outputs '$OUT' names 2 input file\(s\), the method takes 1 input\(s\)" \
  "$LOWER" "$MODEL" -o "$T/x.pte" --bundle_inputs "$IN,$IN" --bundle_outputs "$OUT"
expect_error lower 2 "InvalidArgument \(0x12\): -o '$T/x.bpte' and the bundled program \(-o with .bpte\) '$T/x.bpte' are the same file" \
  "$LOWER" "$MODEL" -o "$T/x.bpte" --bundle_inputs "$IN" --bundle_outputs "$OUT"

# Dynamic shapes through a cases file: PyTorch's four reference cases of the dynamic-batch
# MLP (tests/fixtures/pt2/manifest.json: batch 4, 1, 17, 64), files relative to the JSON.
D="${DYN%.pt2}"
mkdir -p "$T/cases" && cp "$D".*input0.bin "$D".*output0.bin "$T/cases/"
B=$(basename "$D")
cat > "$T/cases/cases.json" <<JSON
{"method": "forward",
 "cases": [{"inputs": [{"file": "$B.input0.bin", "shape": [4, 16]}], "expected_outputs": [{"file": "$B.output0.bin", "shape": [4, 10]}]},
           {"inputs": [{"file": "$B.case1.input0.bin", "shape": [1, 16]}], "expected_outputs": [{"file": "$B.case1.output0.bin", "shape": [1, 10]}]},
           {"inputs": [{"file": "$B.case2.input0.bin", "shape": [17, 16]}], "expected_outputs": [{"file": "$B.case2.output0.bin", "shape": [17, 10]}]},
           {"inputs": [{"file": "$B.case3.input0.bin", "shape": [64, 16]}], "expected_outputs": [{"file": "$B.case3.output0.bin", "shape": [64, 10]}]}]}
JSON
"$LOWER" "$DYN" -o "$T/dyn.pte" --bundle_cases "$T/cases/cases.json" > "$T/lower.txt" 2>&1 ||
  fail "lower --bundle_cases: $(cat "$T/lower.txt")"
"$RUNNER" --bundled "$T/dyn.bpte" > "$T/run.txt" 2>&1 || fail "--bundled on the dynamic .bpte: $(cat "$T/run.txt")"
grep -q "^bundled: 4 of 4 case(s) passed$" "$T/run.txt" || fail "dynamic summary: $(cat "$T/run.txt")"
"$INSPECT" "$T/dyn.bpte" | grep -q "^    case 2: float32\[17, 16\] -> expected float32\[17, 10\]$" || fail "inspect dynamic case"
sed 's/"shape": \[17, 16\]/"shape": [17, 17]/' "$T/cases/cases.json" > "$T/cases/bad.json"
expect_error lower 2 "InvalidArgument \(0x12\): bundled case 2 of method 'forward' input 0: shape float32\[17, 17\] does not fit float32\[[0-9]*, 16\] \(upper bounds\)" \
  "$LOWER" "$DYN" -o "$T/dyn2.pte" --bundle_cases "$T/cases/bad.json"
printf '{"cases": 3}' > "$T/cases/worse.json"
expect_error lower 2 "InvalidArgument \(0x12\): --bundle_cases '$T/cases/worse.json': needs a \"cases\" list" \
  "$LOWER" "$DYN" -o "$T/dyn2.pte" --bundle_cases "$T/cases/worse.json"

# Two methods (lower --method), one suite each from a cases file: mlp's and conv_bn_relu's
# PyTorch references; flag cases need a single-method program.
CBR="$9"
cat > "$T/multi.json" <<JSON
{"suites": [{"method": "mlp", "cases": [{"inputs": ["$PWD/$IN"], "expected_outputs": ["$PWD/$OUT"]}]},
            {"method": "cbr", "cases": [{"inputs": ["$PWD/${CBR%.pt2}.input0.bin"], "expected_outputs": ["$PWD/${CBR%.pt2}.output0.bin"]}]}]}
JSON
"$LOWER" --method "mlp=$MODEL" --method "cbr=$CBR" -o "$T/multi.pte" --bundle_cases "$T/multi.json" \
  > "$T/lower.txt" 2>&1 || fail "lower --method with --bundle_cases: $(cat "$T/lower.txt")"
grep -q "^wrote $T/multi.bpte (bundled program: 2 case(s) for 2 method(s), [0-9]* bytes)$" "$T/lower.txt" ||
  fail "multi-method .bpte line: $(cat "$T/lower.txt")"
"$RUNNER" --bundled "$T/multi.bpte" > "$T/run.txt" 2>&1 || fail "--bundled on the two-method .bpte: $(cat "$T/run.txt")"
grep -q "^method cbr: 1 case(s)$" "$T/run.txt" && grep -q "^bundled: 2 of 2 case(s) passed$" "$T/run.txt" ||
  fail "two-method run: $(cat "$T/run.txt")"
expect_error lower 2 "InvalidArgument \(0x12\): bundling: the program has 2 methods; name each one's cases" \
  "$LOWER" --method "mlp=$MODEL" --method "cbr=$CBR" -o "$T/multi2.pte" --bundle_inputs "$IN" --bundle_outputs "$OUT"

# inspect: the cases, then the inner program; the inner program is lower's .pte byte for
# byte and passes the upstream format rules.
"$INSPECT" "$T/mlp.bpte" --extract_program "$T/inner.pte" > "$T/inspect.txt" 2>&1 || fail "inspect: $(cat "$T/inspect.txt")"
grep -q "^bundled program (.bpte, BP08): version 2, inner program [0-9]* bytes, 1 test suite(s)$" "$T/inspect.txt" ||
  fail "inspect header: $(cat "$T/inspect.txt")"
grep -q "^    case 1: float32\[4, 16\] -> expected float32\[4, 10\]$" "$T/inspect.txt" || fail "inspect case line"
grep -q "^method 'forward'" "$T/inspect.txt" || fail "inspect shows no inner program"
cmp -s "$T/inner.pte" "$T/mlp.pte" || fail "the inner program differs from lower's .pte"
"$INSPECT" "$T/mlp.bpte" --json | grep -q '"program_bytes"' || fail "inspect --json"
"$PTE_CHECK" "$T/mlp.bpte" "$T/inner.pte" > "$T/check.txt" 2>&1 || fail "pte_check: $(cat "$T/check.txt")"
grep -q "^$T/mlp.bpte: 0 error(s), 0 warning(s)$" "$T/check.txt" || fail "pte_check on the .bpte: $(cat "$T/check.txt")"

WS=$(readlink -f "$TEST_SRCDIR/$TEST_WORKSPACE/WORKSPACE")
F="${EMBER_SHARED_DIR:-$(dirname "$(dirname "$WS")")/shared}/fixtures/executorch-pte"
if [ ! -d "$F" ]; then echo "shared fixtures absent: skipping upstream's .bpte"; exit 0; fi
CORPUS="$F/pytorch__executorch__bundled_program.bpte"
"$RUNNER" --bundled "$CORPUS" > "$T/corpus.txt" 2>&1 || fail "--bundled on the corpus .bpte: $(cat "$T/corpus.txt")"
grep -q "^bundled: 10 of 10 case(s) passed$" "$T/corpus.txt" || fail "corpus summary: $(cat "$T/corpus.txt")"
"$INSPECT" "$CORPUS" | grep -q "^  method 'forward': 10 case(s)$" || fail "inspect on the corpus .bpte"
"$PTE_CHECK" "$CORPUS" | grep -q ": 0 error(s)" || fail "pte_check on the corpus .bpte"
echo "bundled tools: Ember's .bpte and upstream's pass; errors named"
