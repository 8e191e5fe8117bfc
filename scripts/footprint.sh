#!/bin/bash
# Prints the footprint tables of docs/footprint.md: flash and RAM of each bare-metal Cortex-M3
# image (tests/baremetal, --config=cortex_m) and the size of the runtime core (the size gates'
# minimal runners, gcc -Os, stripped: default, without message text, without message text and
# verifier) for x86-64 and aarch64, next to ExecuTorch's gates.
#
#   scripts/footprint.sh              (needs scripts/setup.sh's arm-none-eabi packages, and
#                                      scripts/setup_aarch64.sh's cross gcc for the aarch64 line)
#   scripts/footprint.sh --breakdown  also links each image with a GNU ld map and prints where its
#                                      bytes go (scripts/footprint_breakdown.py): executor, loader,
#                                      verifier, strings, each kernel file by dtype, ...
set -euo pipefail
cd "$(dirname "$0")/.."
cache=(--disk_cache="$HOME/.cache/ember-bazel-disk" --jobs=2)
# EMBER_BAZEL_STARTUP="--output_base=/tmp/ob" runs every Bazel command in that output base.
# shellcheck disable=SC2206
startup=(${EMBER_BAZEL_STARTUP:-})
bazel() { command bazel "${startup[@]}" "$@"; }
breakdown=0
[ "${1:-}" = "--breakdown" ] && breakdown=1

# breakdown_of TITLE CXXFILT LONG_BITS TARGET BAZEL_FLAGS...: relinks TARGET with -Wl,-Map and
# prints its breakdown table. The map path is fixed (a changed --linkopt would change the size
# transition's output directory and recompile everything); the link runs locally (the linker
# writes the map outside the sandbox), without the disk cache, after the old binary is removed,
# so it really runs.
map_dir="${TMPDIR:-/tmp}/ember-footprint-map"
breakdown_of() {
  local title="$1" cxxfilt="$2" long_bits="$3" target="$4"
  shift 4
  local map_flags=(--strategy=CppLink=local --linkopt=-Wl,-Map="$map_dir/image.map")
  mkdir -p "$map_dir"
  rm -f "$map_dir/image.map"
  bazel build "${cache[@]}" "$@" "${map_flags[@]}" "$target" >&2
  local out
  out="$(bazel info "${cache[@]}" "$@" "${map_flags[@]}" bazel-bin 2>/dev/null)/${target#//}"
  out="${out/://}"
  rm -f "$(readlink -f "$out")"
  rm -f "$map_dir/image.map"
  bazel build --jobs=2 --disk_cache= "$@" "${map_flags[@]}" "$target" >&2
  [ -s "$map_dir/image.map" ] || { echo "footprint.sh: no linker map for $target" >&2; exit 1; }
  echo
  echo "### $title"
  echo
  python3 scripts/footprint_breakdown.py "$map_dir/image.map" --cxxfilt "$cxxfilt" --long_bits "$long_bits"
}

bazel build "${cache[@]}" --config=cortex_m //tests/baremetal:mlp_cortex_m //tests/baremetal:cnn_cortex_m >&2
arm_bin="$(bazel info "${cache[@]}" --config=cortex_m bazel-bin 2>/dev/null)"
variants=(minimal_runner_os minimal_runner_os_no_messages minimal_runner_os_trusted)
bazel build "${cache[@]}" "${variants[@]/#///tests/size:}" >&2
host_bin="$(bazel info "${cache[@]}" bazel-bin 2>/dev/null)"

echo "| image | flash (.text+.rodata+.data init) | of which the .pte | RAM (.data+.bss+stack) | of which the arena |"
echo "|---|---|---|---|---|"
for m in mlp cnn; do
  elf="$arm_bin/tests/baremetal/${m}_cortex_m"
  pte_hex=$(arm-none-eabi-nm -S "$elf" | awk -v s="ember_program_${m}_program" '$4 == s { print $2 }')
  arena_hex=$(arm-none-eabi-nm -S -C "$elf" | awk '/ \(anonymous namespace\)::g_arena$/ { print $2 }')
  pte=$((16#$pte_hex))
  arena=$((16#$arena_hex))
  arm-none-eabi-size -A "$elf" | awk -v m="$m" -v pte="$pte" -v arena="$arena" '
    $1 == ".text" || $1 == ".rodata" || $1 == ".ARM.exidx" || $1 == ".init_array" { flash += $2 }
    $1 == ".data" || $1 == ".tdata" { flash += $2; ram += $2 }
    $1 == ".tbss" || $1 == ".bss" || $1 == ".stack" { ram += $2 }
    END { printf "| %s (Cortex-M3, gcc -Os) | %d | %d | %d | %d |\n", m, flash, pte, ram, arena }'
done
tmp="$(mktemp)"
a64_bin=""
if command -v aarch64-linux-gnu-strip > /dev/null; then
  bazel build "${cache[@]}" --config=aarch64 "${variants[@]/#///tests/size:}" >&2
  a64_bin="$(bazel info "${cache[@]}" --config=aarch64 bazel-bin 2>/dev/null)"
fi
echo
echo "| runtime core, no kernels (tests/size:minimal_runner, gcc -Os, stripped) | x86-64 | aarch64 file | aarch64 LOAD segments |"
echo "|---|---|---|---|"
for v in "${variants[@]}"; do
  case "$v" in
    minimal_runner_os) what="default (messages, FlatBuffers verifier)" ;;
    minimal_runner_os_no_messages) what="no message text (--config=no_messages)" ;;
    minimal_runner_os_trusted) what="no message text, no verifier (trusted programs, Minimal)" ;;
  esac
  strip -o "$tmp" "$host_bin/tests/size/$v"
  x86=$(stat -c %s "$tmp")
  a64="not measured (run scripts/setup_aarch64.sh)"
  loaded="-"
  if [ -n "$a64_bin" ]; then
    aarch64-linux-gnu-strip -o "$tmp" "$a64_bin/tests/size/$v"
    a64=$(stat -c %s "$tmp")
    loaded=0
    for h in $(aarch64-linux-gnu-readelf -lW "$tmp" | awk '$1 == "LOAD" { print $5 }'); do
      loaded=$((loaded + h))
    done
  fi
  echo "| $what | $x86 | $a64 | $loaded |"
done
if [ "$breakdown" = 1 ]; then
  breakdown_of "mlp (Cortex-M3)" arm-none-eabi-c++filt 32 //tests/baremetal:mlp_cortex_m --config=cortex_m
  breakdown_of "cnn (Cortex-M3)" arm-none-eabi-c++filt 32 //tests/baremetal:cnn_cortex_m --config=cortex_m
  breakdown_of "runtime core, default (x86-64)" c++filt 64 //tests/size:minimal_runner_os
  breakdown_of "runtime core, no messages, no verifier (x86-64)" c++filt 64 //tests/size:minimal_runner_os_trusted
  # The builds above relinked with a map; relink as plain builds so bazel-bin holds them again.
  bazel build "${cache[@]}" --config=cortex_m //tests/baremetal:mlp_cortex_m //tests/baremetal:cnn_cortex_m >&2
  bazel build "${cache[@]}" "${variants[@]/#///tests/size:}" >&2
fi
echo "ExecuTorch's bare-metal size gate: 118,000 bytes; its x86-64 gcc minimal runtime gate: 52,168 bytes"
rm -f "$tmp"
