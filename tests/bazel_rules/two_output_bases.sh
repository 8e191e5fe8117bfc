#!/bin/bash
# Reproducibility across output bases: builds every committed fixture's ember_pte target
# (//tests/fixtures:all_ptes, plus tests/bazel_rules' programs) in two fresh output bases and
# requires byte-identical .pte files. The lowering actions really run in both (they are kept
# out of the disk cache with --modify_execution_info=EmberLower=+no-cache, checked in Bazel's
# execution log); base 1 runs them sandboxed, base 2 unsandboxed in its own execroot. The lower
# binary itself comes from the shared disk cache, so this takes about a minute, not two cold
# builds. Also checks the pt2 fixtures' bytes against tests/e2e/pte_hashes.txt (recorded by
# running lower directly).
#
#   tests/bazel_rules/two_output_bases.sh [TARGET...]        (run by .ci/run)
set -uo pipefail
cd "$(dirname "$0")/../.."
# --symlink_prefix=/: the checkout's bazel-* links keep pointing at its usual output base.
targets=("$@")
[[ ${#targets[@]} -gt 0 ]] || targets=(//tests/fixtures:all_ptes //tests/bazel_rules:mlp_xnnpack
  //tests/bazel_rules:mlp_portable //tests/bazel_rules:ptq_mlp_int8 //tests/bazel_rules:two_methods)
disk="${EMBER_DISK_CACHE:-$HOME/.cache/ember-bazel-disk}"
work="$(mktemp -d "${TMPDIR:-/tmp}/ember_two_bases.XXXXXX")"
cleanup() {
  for b in "$work/ob1" "$work/ob2"; do
    [[ -d "$b" ]] && bazel --output_base="$b" shutdown > /dev/null 2>&1
  done
  chmod -R u+w "$work" 2> /dev/null
  rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "FAIL: $*"; exit 1; }

for i in 1 2; do
  base="$work/ob$i"
  strategy=()
  [[ $i == 2 ]] && strategy=(--strategy=EmberLower=local)
  echo "== output base $i: $base"
  bazel --output_base="$base" build --symlink_prefix=/ --disk_cache="$disk" --modify_execution_info=EmberLower=+no-cache \
    "${strategy[@]}" --execution_log_json_file="$work/exec$i.json" "${targets[@]}" ||
    fail "build in output base $i"
  bin="$(bazel --output_base="$base" info bazel-bin 2> /dev/null)"
  (cd "$bin" && find . -name '*.pte' | sort | xargs sha256sum) > "$work/ob$i.sha256"
  n=$(wc -l < "$work/ob$i.sha256")
  python3 tests/bazel_rules/exec_log.py "$work/exec$i.json" EmberLower --expect-hits none --expect-count "$n" ||
    fail "output base $i: not every .pte was lowered by an executed EmberLower action"
  bazel --output_base="$base" shutdown > /dev/null 2>&1
done

n=$(wc -l < "$work/ob1.sha256")
[[ $n -ge 70 ]] || fail "only $n .pte files built"
diff "$work/ob1.sha256" "$work/ob2.sha256" || fail "the two output bases differ"

# The same bytes as lower run directly (tests/e2e/pte_hashes.txt, lines '@FIX@/X.pt2 --recipe xnnpack').
checked=0
while read -r want fixture flags; do
  [[ "$flags" == "--recipe xnnpack" && "$fixture" == @FIX@/* ]] || continue
  name="$(basename "$fixture" .pt2)"
  got="$(grep " ./tests/fixtures/pte/pt2/$name.pte\$" "$work/ob1.sha256" | cut -c1-64)"
  [[ -n "$got" ]] || continue
  [[ "$got" == "$want" ]] || fail "$name: ember_pte gives $got, pte_hashes.txt records $want"
  checked=$((checked + 1))
done < tests/e2e/pte_hashes.txt
[[ $checked -ge 30 ]] || fail "only $checked fixtures matched against tests/e2e/pte_hashes.txt"
echo "PASS: $n .pte files byte-identical in two output bases; $checked also equal to pte_hashes.txt"
