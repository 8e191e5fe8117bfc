#!/bin/bash
# Hermetic lowering: lower gives byte-identical .pte files when run from different working
# directories, with different HOME, TMPDIR and input/output paths (what two Bazel output
# bases or two machines differ in), and the bytes equal what the ember_pte rule built.
#   hermetic_lower_test.sh LOWER RULE_PTE MODEL.pt2 [LOWER FLAGS...]
set -euo pipefail
lower="$PWD/$1"; rule_pte="$PWD/$2"; model="$PWD/$3"; shift 3
# --calibrate=REL paths are made absolute: the runs below start in other directories.
flags=()
for f in "$@"; do
  if [[ "$f" == --calibrate=* && "${f#--calibrate=}" != /* ]]; then f="--calibrate=$PWD/${f#--calibrate=}"; fi
  flags+=("$f")
done
set -- "${flags[@]}"
work="${TEST_TMPDIR:-$(mktemp -d)}"
mkdir -p "$work/base_a/home" "$work/base_a/tmp" "$work/other/base_b/deep/home" "$work/other/base_b/tmp"
cp "$model" "$work/base_a/model.pt2"
mkdir -p "$work/other/base_b/deep/in"
cp "$model" "$work/other/base_b/deep/in/renamed.pt2"

(cd "$work/base_a" && env -i HOME="$work/base_a/home" TMPDIR="$work/base_a/tmp" LANG=C \
   "$lower" model.pt2 -o a.pte "$@" > /dev/null)
(cd "$work/other/base_b" && env -i HOME="$work/other/base_b/deep/home" TMPDIR="$work/other/base_b/tmp" \
   LANG=C.UTF-8 TZ=Pacific/Kiritimati "$lower" "$work/other/base_b/deep/in/renamed.pt2" \
   -o "$work/other/base_b/b.pte" "$@" > /dev/null)

ha=$(sha256sum < "$work/base_a/a.pte" | cut -d' ' -f1)
hb=$(sha256sum < "$work/other/base_b/b.pte" | cut -d' ' -f1)
hr=$(sha256sum < "$rule_pte" | cut -d' ' -f1)
echo "run A: $ha"; echo "run B: $hb"; echo "rule : $hr"
[[ "$ha" == "$hb" ]] || { echo "FAIL: the two runs differ"; exit 1; }
[[ "$ha" == "$hr" ]] || { echo "FAIL: ember_pte's output differs from lower run by hand"; exit 1; }
# No path, user or host name of either run in the bytes.
for needle in "$work" base_a base_b renamed "$(hostname)" "${USER:-nobody-here}"; do
  [[ ${#needle} -ge 6 ]] || continue  # too short to mean anything
  if grep -qaF -- "$needle" "$work/base_a/a.pte" "$rule_pte"; then
    echo "FAIL: the .pte contains '$needle'"; exit 1
  fi
done
echo PASS
