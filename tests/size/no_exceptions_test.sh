#!/bin/bash
# No exceptions, no RTTI in the runtime side: every object of the runtime, kernel and backend
# runtime libraries (this test's data) must be free of references to the C++ exception runtime
# (__gxx_personality_v0, _Unwind_Resume, __cxa_throw) and of typeinfo (__class_type_info and
# its subclasses), which -fno-exceptions -fno-rtti guarantee (.bazelrc --per_file_copt).
set -euo pipefail
archives=$(find -L . -name '*.a' | sort)
[ -n "$archives" ] || { echo "FAIL: no runtime archives in the runfiles"; exit 1; }
status=0
count=0
for a in $archives; do
  count=$((count + 1))
  hits=$(nm -A "$a" 2>/dev/null | grep -E '__gxx_personality_v0|_Unwind_Resume|__cxa_throw|__class_type_info' || true)
  if [ -n "$hits" ]; then
    echo "FAIL: $a references the exception/RTTI runtime:"
    echo "$hits" | head -10
    status=1
  fi
done
echo "checked $count runtime archives"
exit $status
