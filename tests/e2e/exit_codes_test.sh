#!/bin/bash
# The exit-code table of docs/error_handling.md, enforced for every tool it lists that this
# suite builds (lower, inspect, compare, pte_check, selective_kernels, executor_runner):
# 0 the work was done, 1 the work failed with one "tool: ErrorName (0xNN): message" line,
# 2 bad usage found before any work (a misspelled flag, with the nearest flag suggested; an
# output naming an input), 3 executor_runner --expected outside tolerance. Self-contained:
# the programs are lowered here from the committed mlp fixture.
#   exit_codes_test.sh LOWER INSPECT COMPARE PTE_CHECK SELECTIVE RUNNER MLP.pt2 MLP.input0.bin MLP.output0.bin
set -u
LOWER="$(readlink -f "$1")" INSPECT="$(readlink -f "$2")" COMPARE="$(readlink -f "$3")"
PTE_CHECK="$(readlink -f "$4")" SELECTIVE="$(readlink -f "$5")" RUNNER="$(readlink -f "$6")"
MODEL="$(readlink -f "$7")" IN="$(readlink -f "$8")" OUT="$(readlink -f "$9")"
T="$TEST_TMPDIR" && cd "$T"
fail() { echo "FAIL: $*"; exit 1; }

# expect STATUS PATTERN TOOL ARGS...: TOOL exits STATUS; with a PATTERN, stderr has a line
# "<tool>: PATTERN" (extended regex), exactly one such error line.
expect() {
  local want=$1 pattern=$2 tool=$3; shift 3
  "$tool" "$@" > out.txt 2> err.txt
  local rc=$?
  [ $rc -eq "$want" ] || fail "$(basename "$tool") $*: exit status $rc, expected $want: $(cat err.txt)"
  [ -z "$pattern" ] && return 0
  local name; name=$(basename "$tool"); name=${name%_tool}  # pte_check_tool prints "pte_check:"
  grep -qE "^$name: $pattern" err.txt || fail "$name $*: got '$(cat err.txt)', expected '$name: $pattern'"
  [ "$(grep -cE "^$name: [A-Z][A-Za-z]+ \(0x[0-9a-f]{2}\): " err.txt)" -eq 1 ] || fail "$name $*: not one error line: $(cat err.txt)"
}
ARG="InvalidArgument \(0x12\): "

# lower
expect 0 "" "$LOWER" "$MODEL" -o m.pte
printf 'PK\003\004garbage' > bad.pt2
expect 1 "[A-Za-z]+ \(0x[0-9a-f]{2}\): .*bad.pt2" "$LOWER" bad.pt2 -o bad.pte
expect 2 "${ARG}unknown flag '--recipie'; did you mean '--recipe'\?" "$LOWER" "$MODEL" -o x.pte --recipie xnnpack
expect 2 "${ARG}-o '.*m.pte' is the input MODEL.pt2" "$LOWER" m.pte -o m.pte
[ -e x.pte ] && fail "a usage error wrote x.pte"

# inspect
expect 0 "" "$INSPECT" m.pte
expect 1 "NotFound \(0x20\): .*missing.pte" "$INSPECT" missing.pte
expect 2 "${ARG}unknown flag '--jsn'; did you mean '--json'\?" "$INSPECT" m.pte --jsn
cp "$MODEL" m.pt2
expect 2 "${ARG}--dot '.*m.pt2' is the input FILE" "$INSPECT" m.pt2 --dot ./m.pt2
cmp -s m.pt2 "$MODEL" || fail "inspect --dot overwrote its input"

# pte_check
expect 0 "" "$PTE_CHECK" m.pte
expect 1 "NotFound \(0x20\): .*missing.pte" "$PTE_CHECK" missing.pte
expect 2 "" "$PTE_CHECK"

# executor_runner: 0, 1, 2, 3
expect 0 "" "$RUNNER" --model_path m.pte --inputs "$IN" --print_output none --expected "$OUT" --atol 1e-4 --rtol 1e-3
expect 1 "NotFound \(0x20\): .*missing.pte" "$RUNNER" --model_path missing.pte
expect 1 "NotFound \(0x20\): program has no method 'backward'; its methods: 'forward' \(--method_name\)" \
  "$RUNNER" --model_path m.pte --method_name backward
expect 2 "${ARG}unknown flag '--num_execution'; did you mean '--num_executions'\?" "$RUNNER" --model_path m.pte --num_execution 3
cp "$IN" o-0.bin
expect 2 "${ARG}--output_file '.*o-0.bin' is the input --inputs" "$RUNNER" --model_path m.pte --inputs o-0.bin --output_file o
head -c "$(stat -c %s "$OUT")" /dev/zero > zeros.bin
expect 3 "" "$RUNNER" --model_path m.pte --inputs "$IN" --print_output none --expected zeros.bin

# compare: two dumps of the same run, a directory without an index, a typo, one argument
"$RUNNER" --model_path m.pte --inputs "$IN" --print_output none --dump_intermediates a > /dev/null 2>&1 || fail "dump a"
"$RUNNER" --model_path m.pte --inputs "$IN" --print_output none --dump_intermediates b > /dev/null 2>&1 || fail "dump b"
expect 0 "" "$COMPARE" a b
mkdir -p empty
expect 1 "NotFound \(0x20\): .*index.json" "$COMPARE" a empty
expect 2 "${ARG}unknown flag '--jsonn'; did you mean '--json'\?" "$COMPARE" a b --jsonn
expect 2 "${ARG}expected two dump directories" "$COMPARE" a

# selective_kernels: a misspelled flag and missing flags are usage
expect 2 "${ARG}unknown flag '--tabel'; did you mean '--table'\?" "$SELECTIVE" --tabel x
expect 2 "${ARG}--table, --namespace" "$SELECTIVE" --op aten::add.out
echo PASS
