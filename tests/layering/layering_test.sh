#!/bin/bash
# layering_test: the house rules on the build graph (genquery results) and on the sources.
#   usage: layering_test.sh UPWARD_DEPS BINDINGS_APPS_DEPS APPS_BINDINGS_DEPS RUNTIME_AOT_DEPS
#                           KERNEL_EXECUTOR_DEPS CONTROL WORKSPACE
# The source checks read the checkout that //:WORKSPACE links to.
set -u
upward="$1"
bindings_apps="$2"
apps_bindings="$3"
runtime_aot="$4"
kernel_executor="$5"
control="$6"
root="$(dirname "$(readlink -f "$7")")"
failed=0
fail() { echo "FAIL: $*"; failed=1; }

[ -s "$control" ] || fail "control query found no //aot/ir dependency of //apps/lower; the queries are broken"
[ -s "$upward" ] && fail "targets below the top floor depend on apps/ or bindings/: $(tr '\n' ' ' < "$upward")"
[ -s "$bindings_apps" ] && fail "bindings/ depends on apps/: $(tr '\n' ' ' < "$bindings_apps")"
[ -s "$apps_bindings" ] && fail "apps/ depends on bindings/: $(tr '\n' ' ' < "$apps_bindings")"
[ -s "$runtime_aot" ] && fail "runtime-side targets depend on aot/ (or yaml-cpp): $(tr '\n' ' ' < "$runtime_aot")"
[ -s "$kernel_executor" ] && fail "kernels depend on the executor, loaders or Module: $(tr '\n' ' ' < "$kernel_executor")"

[ -d "$root/aot" ] && [ -d "$root/runtime" ] && [ -d "$root/apps" ] && [ -d "$root/bindings" ] ||
  fail "cannot find the sources beside $7 (root '$root')"

# No upward arrow in the sources either: nothing below the top floor includes apps/ or
# bindings/, or names them in a BUILD file.
lower_floors=("$root/aot" "$root/runtime" "$root/kernels" "$root/backends" "$root/schema" "$root/llm")
hits=$(grep -rnE '^#include "(apps|bindings)/' --include=*.h --include=*.cc --include=*.c "${lower_floors[@]}")
[ -z "$hits" ] || fail "files below the top floor include apps/ or bindings/:
$hits"
# (A visibility list naming the top floor grants, it does not depend: __pkg__ and
# __subpackages__ entries are not arrows.)
hits=$(grep -rnE '"//(apps|bindings)[/:]' --include=BUILD.bazel --include=*.bzl "${lower_floors[@]}" |
  grep -vE '"//(apps|bindings)[^"]*:__(pkg|subpackages)__"')
[ -z "$hits" ] || fail "BUILD files below the top floor name apps/ or bindings/:
$hits"
hits=$(grep -rnE '^#include "apps/' --include=*.h --include=*.cc --include=*.c "$root/bindings")
[ -z "$hits" ] || fail "bindings/ includes apps/:
$hits"
hits=$(grep -rnE '^#include "bindings/' --include=*.h --include=*.cc "$root/apps")
[ -z "$hits" ] || fail "apps/ includes bindings/:
$hits"

# No #include of aot/ from the runtime side (llm/ and the C and Java doors included).
hits=$(grep -rnE '^#include "aot/' --include=*.h --include=*.cc \
  "$root/runtime" "$root/kernels" "$root"/backends/*/runtime "$root/llm" "$root/bindings" 2>/dev/null)
[ -z "$hits" ] || fail "runtime-side files include aot/:
$hits"

# No #include of the executor, loaders or Module from kernels.
hits=$(grep -rnE '^#include "runtime/(executor|loader|module)/' --include=*.h --include=*.cc "$root/kernels")
[ -z "$hits" ] || fail "kernels include the executor, loaders or Module:
$hits"

# Each aot/ stage includes only itself and earlier stages (folders that do not exist yet
# are skipped).
stages=(ir frontend quantize passes backend planning emit recipe)
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

if [ "$failed" -eq 0 ]; then echo "layering: no upward arrow to apps/ or bindings/, runtime side free of aot/, kernels free of the executor, $checked aot stages in order"; fi
exit "$failed"
