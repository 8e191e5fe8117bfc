#!/bin/bash
# selective_kernels on issue #33's inputs: a FIFO with no writer, a directory and /dev/zero
# given as --table, --pte, --op_list or --provided are a named error with status 1 at once
# (a FIFO used to block open() forever, /dev/zero to be read forever), and no output is
# written. A real table with --op still works (the control).
set -u
TOOL="$(readlink -f "$1")"
TABLE="$(readlink -f "$2")"
fail() { echo "FAIL: $*"; exit 1; }
T="$TEST_TMPDIR"
mkdir -p "$T/dir"
mkfifo "$T/fifo"

# expect_refused FLAG PATH WHAT: status 1 within 10 s, "FLAG: AccessFailed ... 'PATH' ... WHAT",
# and neither output exists.
expect_refused() {
  local flag="$1" path="$2" what="$3" args
  rm -f "$T/out.cc" "$T/out.h"
  if [ "$flag" = --table ]; then
    args=(--table "$path")
  else
    args=(--table "$TABLE" "$flag" "$path")
  fi
  timeout 10 "$TOOL" "${args[@]}" --namespace t --header t/out.h --out_cc "$T/out.cc" \
    --out_h "$T/out.h" > /dev/null 2> "$T/err.txt"
  local rc=$?
  [ $rc -eq 1 ] || fail "$flag $path: exit status $rc, expected 1 (124 = hung): $(cat "$T/err.txt")"
  grep -qF "selective_kernels: $flag: AccessFailed (0x22): " "$T/err.txt" ||
    fail "$flag $path: got '$(cat "$T/err.txt")'"
  grep -qF "'$path' $what" "$T/err.txt" || fail "$flag $path: '$what' not in '$(cat "$T/err.txt")'"
  [ ! -e "$T/out.cc" ] && [ ! -e "$T/out.h" ] || fail "$flag $path: an output was written"
}

for flag in --table --pte --op_list --provided; do
  expect_refused "$flag" "$T/fifo" "is not a readable regular file (it is a FIFO (named pipe))"
  expect_refused "$flag" "$T/dir" "is a directory, not a file"
  expect_refused "$flag" /dev/zero "is not a readable regular file (it is a character device)"
done

"$TOOL" --table "$TABLE" --op aten::add.out --namespace t --header t/out.h --out_cc "$T/out.cc" \
  --out_h "$T/out.h" 2> "$T/err.txt" || fail "the control run failed: $(cat "$T/err.txt")"
grep -q "add" "$T/out.cc" || fail "the control run's source does not register add"
echo PASS
