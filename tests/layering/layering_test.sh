#!/bin/bash
# layering_test: the house rules on the build graph (genquery results) and on the sources.
#   usage: layering_test.sh RUNTIME_AOT_DEPS KERNEL_EXECUTOR_DEPS CONTROL WORKSPACE
# The source checks read the checkout that //:WORKSPACE links to.
set -u
runtime_aot="$1"
kernel_executor="$2"
control="$3"
root="$(dirname "$(readlink -f "$4")")"
failed=0
fail() { echo "FAIL: $*"; failed=1; }

[ -s "$control" ] || fail "control query found no //aot/ir dependency of //aot/tools:lower; the queries are broken"
[ -s "$runtime_aot" ] && fail "runtime-side targets depend on aot/ (or yaml-cpp): $(tr '\n' ' ' < "$runtime_aot")"
[ -s "$kernel_executor" ] && fail "kernels depend on the executor, loaders or Module: $(tr '\n' ' ' < "$kernel_executor")"

[ -d "$root/aot" ] && [ -d "$root/runtime" ] || fail "cannot find the sources beside $4 (root '$root')"

# No #include of aot/ from the runtime side.
hits=$(grep -rnE '^#include "aot/' --include=*.h --include=*.cc \
  "$root/runtime" "$root/kernels" "$root"/backends/*/runtime 2>/dev/null)
[ -z "$hits" ] || fail "runtime-side files include aot/:
$hits"

# No #include of the executor, loaders or Module from kernels.
hits=$(grep -rnE '^#include "runtime/(executor|loader|module)/' --include=*.h --include=*.cc "$root/kernels")
[ -z "$hits" ] || fail "kernels include the executor, loaders or Module:
$hits"

# Each aot/ stage includes only itself and earlier stages (folders that do not exist yet
# are skipped).
stages=(ir frontend quantize passes backend planning emit recipe tools)
checked=0
for ((i = 0; i < ${#stages[@]}; i++)); do
  dir="$root/aot/${stages[$i]}"
  [ -d "$dir" ] || continue
  later="${stages[*]:$((i + 1))}"
  [ -n "$later" ] || continue
  pattern="^#include \"aot/($(echo "$later" | tr ' ' '|'))/"
  hits=$(grep -rnE "$pattern" --include=*.h --include=*.cc "$dir")
  [ -z "$hits" ] || fail "aot/${stages[$i]} includes a later stage:
$hits"
  checked=$((checked + 1))
done
[ "$checked" -ge 7 ] || fail "only $checked aot stages found under $root/aot"

if [ "$failed" -eq 0 ]; then echo "layering: runtime side free of aot/, kernels free of the executor, $checked aot stages in order"; fi
exit "$failed"
