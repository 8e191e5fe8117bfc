#!/bin/bash
# The runtime core's size gate: the minimal load-and-execute program (minimal_runner, built -c
# opt -Os -fno-exceptions -fno-rtti, no unwind tables, --gc-sections: size_config.bzl),
# stripped, must be at most its budget for the machine it was built for (x86-64 in the default
# suite, aarch64 under --config=aarch64: .ci/run_aarch64), and it must not reference the C++
# exception or RTTI runtime.
#
#   size_gate_test.sh BINARY X86_64_BUDGET AARCH64_BUDGET WHAT
#
# Lower a budget as the core shrinks, never raise it without a decision entry
# (docs/footprint.md has the history).
set -euo pipefail
bin="$1"
what="$4"
machine=$(od -An -tu2 -j18 -N2 "$bin" | tr -d ' \n')  # ELF e_machine: 62 x86-64, 183 aarch64
case "$machine" in
  62) arch=x86-64; budget="$2"; strip_tool=strip; nm_tool=nm ;;
  183) arch=aarch64; budget="$3"; strip_tool=aarch64-linux-gnu-strip; nm_tool=aarch64-linux-gnu-nm ;;
  *) echo "FAIL: $bin is neither an x86-64 nor an aarch64 ELF (e_machine $machine)"; exit 1 ;;
esac
tmp="${TEST_TMPDIR:-/tmp}/minimal_runner.stripped"
"$strip_tool" -o "$tmp" "$bin"
bytes=$(stat -c %s "$tmp")
echo "runtime core ($what, $arch, gcc -Os, stripped): $bytes bytes (budget $budget)"
size -A "$tmp" | awk '$1 == ".text" || $1 == ".rodata" || $1 == ".eh_frame" || $1 == ".data" || $1 == ".bss" { printf "  %-10s %7d\n", $1, $2 }'
status=0
if [ "$bytes" -gt "$budget" ]; then
  echo "FAIL: $bytes bytes is over the $budget-byte budget"
  status=1
fi
if "$nm_tool" -D "$bin" 2>/dev/null | grep -E '__gxx_personality_v0|_Unwind_Resume|__cxa_throw|__class_type_info'; then
  echo "FAIL: the minimal runtime references the exception/RTTI runtime (above)"
  status=1
fi
exit $status
