#!/bin/bash
# Compiles dev.ember and its JUnit tests with Debian's javac and runs them with JUnit 4 from
# /usr/share/java (packages default-jdk-headless, junit4), loading the JNI library Bazel built.
# Bazel 4.2.3's java rules need remote JDKs, so this is a sh_test. Runs from the runfiles root.
#   java_test.sh JNI_LIBRARY TEST_CLASS JAVA_SOURCES...
# (libember_jni.so with dev.ember.ModuleTest, libember_llm_jni.so with dev.ember.LlmModuleTest).
set -euo pipefail
jni="$1"; shift
test_class="$1"; shift
# The JNI library exports only the JNI entry points (its .lds).
extra=$(nm -D --defined-only "$jni" | awk '$2 ~ /^[TDBRVW]$/ {print $3}' | grep -v '^Java_dev_ember_' || true)
if [ -n "$extra" ]; then echo "FAIL: $(basename "$jni") exports more than Java_dev_ember_*:"; echo "$extra" | head; exit 1; fi
# A cross build (--config=aarch64 sets EMBER_EXEC_WRAPPER): the host JVM cannot load it.
if [ -n "${EMBER_EXEC_WRAPPER:-}" ]; then echo "cross build: exports checked, JUnit run skipped"; exit 0; fi
junit=/usr/share/java/junit4.jar
hamcrest=/usr/share/java/hamcrest-core.jar
[ -f "$hamcrest" ] || hamcrest=/usr/share/java/hamcrest.jar
for f in "$junit" "$hamcrest"; do
  [ -f "$f" ] || { echo "FAIL: $f is missing: run scripts/setup.sh (junit4)"; exit 1; }
done
out="${TEST_TMPDIR:-$(mktemp -d)}/classes"
mkdir -p "$out"
javac -Xlint:all -Werror -d "$out" -cp "$junit" "$@"
# An ASan build of the JNI library (--config=asan) needs the sanitizer runtime loaded first;
# the JVM's own allocations are not ours to check for leaks, and it uses SIGSEGV itself.
preload=""
asan=$(ldd "$jni" | awk '/libasan/ {print $3}')
if [ -n "$asan" ]; then
  preload="$asan:$(ldd "$jni" | awk '/libubsan/ {print $3}')"
  export ASAN_OPTIONS="detect_leaks=0:handle_segv=0:allow_user_segv_handler=1:abort_on_error=1"
fi
LD_PRELOAD="$preload" java -Xcheck:jni -Dember.jni.path="$(pwd)/$jni" -Dember.llm.jni.path="$(pwd)/$jni" \
  -cp "$out:$junit:$hamcrest" org.junit.runner.JUnitCore "$test_class"
