#!/bin/bash
# Provenance end to end (issue #17): lower --debug_out writes the .ptdbg sidecar without
# changing the .pte; executor_runner --profile --debug names every row by node, op and source
# line; --trace writes trace-event JSON that trace_check accepts, with one event per
# instruction per execution. Expected names come from the fixture's export metadata
# (refgen/fixtures/pt2_models.py: Mlp.forward is line 45, its layers fc1..fc3), not from Ember.
# inspect --debug lists the sidecar.
set -u
LOWER="$1"
RUNNER="$2"
CHECK="$3"
FIXTURE="$4"
INSPECT="$5"
T="${TEST_TMPDIR}"
fail() { echo "FAIL: $*"; exit 1; }

"$LOWER" "$FIXTURE" -o "$T/plain.pte" > /dev/null 2>&1 || fail "lowering without --debug_out"
for recipe in portable xnnpack; do
  "$LOWER" "$FIXTURE" --recipe $recipe -o "$T/$recipe.pte" --debug_out "$T/$recipe.ptdbg" > "$T/lower.txt" 2>&1 \
    || fail "lowering with --debug_out: $(cat $T/lower.txt)"
  grep -q "provenance sidecar" "$T/lower.txt" || fail "lower does not say it wrote the sidecar"
  grep -q '"format": "ember.ptdbg"' "$T/$recipe.ptdbg" || fail "$recipe sidecar has no format tag"
done
cmp -s "$T/plain.pte" "$T/portable.pte" || fail "--debug_out changed the .pte bytes"

# Portable: every instruction is a kernel named by its node; the three linear layers are
# addmm (or linear) nodes in fc1, fc2, fc3, all from pt2_models.py:45.
"$RUNNER" --model_path "$T/portable.pte" --debug "$T/portable.ptdbg" --profile --summary \
  --trace "$T/portable.json" --num_executions 3 --print_output none > "$T/run.txt" 2>&1 \
  || fail "executor_runner --debug: $(cat $T/run.txt)"
rows=$(grep -cE '^[0-9]+ ' "$T/run.txt")
[ "$rows" -gt 0 ] || fail "no profile rows: $(cat $T/run.txt)"
with_source=$(grep -E '^[0-9]+ ' "$T/run.txt" | grep -c 'pt2_models.py:45')
[ "$rows" -eq "$with_source" ] || fail "$with_source of $rows rows name pt2_models.py:45: $(cat $T/run.txt)"
grep -qE '^[0-9]+ +[a-z_0-9]+ +aten::(addmm|linear) ' "$T/run.txt" || fail "no row names the linear op"
grep -q '^op type' "$T/run.txt" || fail "no --summary table"
"$CHECK" "$T/portable.json" || fail "trace is not valid trace-event JSON"
events=$(grep -o '"cat":"instruction"' "$T/portable.json" | wc -l)
[ "$events" -eq $((rows * 3)) ] || fail "$events instruction events, expected $rows x 3 executions"
for name in '"load program"' '"init method"' '"execute #0"' '"execute #2"'; do
  grep -q "\"name\":$name" "$T/portable.json" || fail "trace has no $name event"
done

# XNNPACK: one delegate call; its rows list the delegated nodes with their sources.
"$RUNNER" --model_path "$T/xnnpack.pte" --debug "$T/xnnpack.ptdbg" --profile --trace "$T/xnnpack.json" \
  --print_output none > "$T/run.txt" 2>&1 || fail "executor_runner xnnpack: $(cat $T/run.txt)"
grep -qE '^0 +delegate_call_0 ' "$T/run.txt" || fail "no delegate row: $(cat $T/run.txt)"
inner=$(grep -cE '^ +> .*pt2_models.py:45' "$T/run.txt")
[ "$inner" -ge 3 ] || fail "$inner delegated nodes with a source line, expected the three layers at least"
grep -q 'no per-operator profiling API' "$T/run.txt" || fail "the XNNPACK granularity is not stated"
"$CHECK" "$T/xnnpack.json" || fail "xnnpack trace is not valid"
grep -q '"cat":"delegate"' "$T/xnnpack.json" || fail "no delegate event in the trace"

# Demo backend: per-bytecode-op times. The MLP's relu nodes are its delegated nodes; each
# inner row has its own call count (one per execution) and time, and the trace nests one
# delegate_op event per relu per execution inside the delegate call.
"$LOWER" "$FIXTURE" --recipe demo -o "$T/demo.pte" --debug_out "$T/demo.ptdbg" > /dev/null 2>&1 || fail "demo lowering"
"$RUNNER" --model_path "$T/demo.pte" --debug "$T/demo.ptdbg" --profile --trace "$T/demo.json" --num_executions 2 \
  --print_output none > "$T/run.txt" 2>&1 || fail "executor_runner demo: $(cat $T/run.txt)"
timed=$(grep -cE '^ +> relu(_[0-9])? +aten::relu +pt2_models.py:45 +2 +[0-9]+\.[0-9]{3} ' "$T/run.txt")
[ "$timed" -eq 2 ] || fail "$timed timed relu rows inside demo delegates, expected 2: $(cat $T/run.txt)"
"$CHECK" "$T/demo.json" || fail "demo trace is not valid"
[ "$(grep -o '"cat":"delegate_op"' "$T/demo.json" | wc -l)" -eq 4 ] || fail "expected 4 delegate_op events (2 relus x 2 runs)"

# A sidecar from another program is flagged; a malformed one is a named error.
"$RUNNER" --model_path "$T/xnnpack.pte" --debug "$T/portable.ptdbg" --profile --print_output none \
  > "$T/run.txt" 2>&1
grep -q "warning: --debug" "$T/run.txt" || fail "no warning for a sidecar of another .pte"
echo '{"format":"other"}' > "$T/bad.ptdbg"
"$RUNNER" --model_path "$T/portable.pte" --debug "$T/bad.ptdbg" --print_output none > "$T/run.txt" 2>&1
[ $? -eq 1 ] || fail "a malformed sidecar does not fail"
grep -qE '^executor_runner: InvalidArgument \(0x[0-9a-f]{2}\): debug file' "$T/run.txt" || fail "error: $(cat $T/run.txt)"
# inspect lists the sidecar and checks its SHA-256 against the .pte.
"$INSPECT" "$T/xnnpack.pte" --debug "$T/xnnpack.ptdbg" > "$T/inspect.txt" 2>&1 || fail "inspect --debug: $(cat $T/inspect.txt)"
grep -q "written for this .pte" "$T/inspect.txt" || fail "inspect does not confirm the sidecar"
grep -qE '^ +> [a-z_0-9]+ +aten::(addmm|linear) +pt2_models.py:45 +\[fc1\]' "$T/inspect.txt" || fail "inspect: no fc1 row: $(cat $T/inspect.txt)"
"$INSPECT" "$T/xnnpack.pte" --debug "$T/portable.ptdbg" > "$T/inspect.txt" 2>&1
grep -q "WARNING: written for another .pte" "$T/inspect.txt" || fail "inspect does not flag a foreign sidecar"
echo PASS
