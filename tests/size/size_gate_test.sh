#!/bin/bash
# The runtime core's size gate: the minimal load-and-execute program (minimal_runner, built -c
# opt -Os -fno-exceptions -fno-rtti -fno-asynchronous-unwind-tables for x86-64), stripped,
# must be at most BUDGET bytes, and it must not reference the C++ exception or RTTI runtime.
set -euo pipefail
# Measured 55,704 bytes when the gate was added (gcc 12, Debian 12), 59,800 after derived-size
# guards and data-dependent resizing joined the executor (decision 113); issue #15's target is
# 40,960. Lower the budget as the core shrinks, never raise it without a decision entry.
BUDGET=61440
bin="$1"
tmp="${TEST_TMPDIR:-/tmp}/minimal_runner.stripped"
strip -o "$tmp" "$bin"
bytes=$(stat -c %s "$tmp")
echo "runtime core (minimal_runner, x86-64, gcc -Os, stripped): $bytes bytes (budget $BUDGET)"
size -A "$tmp" | awk '$1 == ".text" || $1 == ".rodata" || $1 == ".data" || $1 == ".bss" { printf "  %-8s %7d\n", $1, $2 }'
status=0
if [ "$bytes" -gt "$BUDGET" ]; then
  echo "FAIL: $bytes bytes is over the $BUDGET-byte budget"
  status=1
fi
if nm -D "$bin" 2>/dev/null | grep -E '__gxx_personality_v0|_Unwind_Resume|__cxa_throw|__class_type_info'; then
  echo "FAIL: the minimal runtime references the exception/RTTI runtime (above)"
  status=1
fi
exit $status
