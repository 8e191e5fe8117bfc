#!/bin/bash
# Builds module_test.m with clang's module support (-fmodules, @import Ember through
# bindings/swift/module.modulemap) against libember.so, and runs it from the runfiles root.
# Also checks that the module is what clang used (a module cache entry named Ember) and that
# the header alone builds as a module in C and C++ too. There is no Swift compiler on Debian
# 12: this is how the module map is verified here (docs/ios.md).
#   module_test.sh LIB MODULEMAP SOURCE [MODULE]   (MODULE: Ember by default, or EmberLLM)
set -euo pipefail
lib="$1"
modulemap="$2"
source="$3"
module="${4:-Ember}"
header=ember/ember.h
[ "$module" = EmberLLM ] && header=ember/ember_llm.h
libname=$(basename "$lib" .so)
libname="${libname#lib}"
tmp="${TEST_TMPDIR:-$(mktemp -d)}"
cache="$tmp/modules"
command -v clang > /dev/null || { echo "FAIL: clang is missing (scripts/setup.sh)"; exit 1; }
# A cross build (--config=aarch64 sets EMBER_EXEC_WRAPPER): host clang cannot link the library.
if [ -n "${EMBER_EXEC_WRAPPER:-}" ]; then echo "cross build: skipped (host clang, aarch64 libember.so)"; exit 0; fi
# ember_llm.h includes "ember/ember.h": the C API's include folder, as an app's header path.
include="$(dirname "$modulemap")/../c/include"
[ "$module" = EmberLLM ] && include="$(dirname "$modulemap")/../../c/include"
common=(-I"$include" -fmodules -fmodules-cache-path="$cache" -fmodule-map-file="$modulemap" -Wall -Wextra -Werror)
clang "${common[@]}" -x objective-c -c "$source" -o "$tmp/module_test.o"
ls -R "$cache" | grep -q "^$module-.*\.pcm$" || { echo "FAIL: clang did not build the $module module"; exit 1; }
# ELF linkers ignore the module's `link "..."` (autolinking is a Mach-O feature): -l it.
clang "$tmp/module_test.o" -L"$(dirname "$lib")" -l"$libname" -Wl,-rpath,"$(cd "$(dirname "$lib")" && pwd)" -lm \
  -o "$tmp/module_test"
# An ASan build of libember.so (--config=asan) needs the sanitizer runtime loaded first.
preload=""
asan=$(ldd "$lib" | awk '/libasan/ {print $3}')
if [ -n "$asan" ]; then preload="$asan:$(ldd "$lib" | awk '/libubsan/ {print $3}')"; fi
LD_PRELOAD="$preload" "$tmp/module_test"
# The same module from C (#include becomes an import) and C++.
printf '#include "%s"\nint main(void) { return ember_version() == EMBER_VERSION ? 0 : 1; }\n' "$header" > "$tmp/c.c"
clang "${common[@]}" -std=c99 -pedantic -I"$include" -c "$tmp/c.c" -o "$tmp/c.o"
clang "${common[@]}" -x c++ -std=c++17 -pedantic -I"$include" -c "$tmp/c.c" -o "$tmp/cxx.o"
echo "$(basename "$(dirname "$modulemap")")/$(basename "$modulemap"): Objective-C @import, C and C++ builds of module $module pass"
