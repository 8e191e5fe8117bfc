#!/bin/bash
# Prints the footprint table of docs/footprint.md: flash and RAM of each bare-metal Cortex-M3
# image (tests/baremetal, --config=cortex_m) and the size of the runtime core (the size gate's
# minimal runner, gcc -Os, stripped) for x86-64 and aarch64, next to ExecuTorch's 118,000-byte
# bare-metal gate.
#
#   scripts/footprint.sh              (needs scripts/setup.sh's arm-none-eabi packages, and
#                                      scripts/setup_aarch64.sh's cross gcc for the aarch64 line)
#   scripts/footprint.sh --breakdown  also links each image with a GNU ld map and prints where its
#                                      bytes go (scripts/footprint_breakdown.py): executor, loader,
#                                      verifier, strings, each kernel file by dtype, ...
set -euo pipefail
cd "$(dirname "$0")/.."
cache=(--disk_cache="$HOME/.cache/ember-bazel-disk" --jobs=2)
breakdown=0
[ "${1:-}" = "--breakdown" ] && breakdown=1

# breakdown TITLE CXXFILT LONG_BITS TARGET BAZEL_FLAGS...: relinks TARGET with -Wl,-Map (locally,
# so the linker may write the map outside the sandbox) and prints its breakdown table.
breakdown_of() {
  local title="$1" cxxfilt="$2" long_bits="$3" target="$4"
  shift 4
  local map_dir
  map_dir="$(mktemp -d)"
  bazel build "${cache[@]}" "$@" --strategy=CppLink=local --linkopt=-Wl,-Map="$map_dir/image.map" "$target" >&2
  echo
  echo "### $title"
  echo
  python3 scripts/footprint_breakdown.py "$map_dir/image.map" --cxxfilt "$cxxfilt" --long_bits "$long_bits"
  rm -rf "$map_dir"
}

bazel build "${cache[@]}" --config=cortex_m //tests/baremetal:mlp_cortex_m //tests/baremetal:cnn_cortex_m >&2
arm_bin="$(bazel info "${cache[@]}" --config=cortex_m bazel-bin 2>/dev/null)"
bazel build "${cache[@]}" //tests/size:minimal_runner_os >&2
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
strip -o "$tmp" "$host_bin/tests/size/minimal_runner_os"
echo
echo "runtime core, no kernels (tests/size:minimal_runner, x86-64, gcc -Os, stripped): $(stat -c %s "$tmp") bytes"
if command -v aarch64-linux-gnu-strip > /dev/null; then
  bazel build "${cache[@]}" --config=aarch64 //tests/size:minimal_runner_os >&2
  a64_bin="$(bazel info "${cache[@]}" --config=aarch64 bazel-bin 2>/dev/null)"
  aarch64-linux-gnu-strip -o "$tmp" "$a64_bin/tests/size/minimal_runner_os"
  # aarch64 ld aligns segments to 64 KiB in the file: also print the segments' own bytes.
  loaded=0
  for h in $(aarch64-linux-gnu-readelf -lW "$tmp" | awk '$1 == "LOAD" { print $5 }'); do
    loaded=$((loaded + h))
  done
  echo "runtime core, no kernels (tests/size:minimal_runner, aarch64, gcc -Os, stripped): $(stat -c %s "$tmp") bytes ($loaded in its LOAD segments, the rest alignment padding)"
else
  echo "runtime core, aarch64: not measured (no aarch64-linux-gnu-strip: run scripts/setup_aarch64.sh)"
fi
if [ "$breakdown" = 1 ]; then
  breakdown_of "mlp (Cortex-M3)" arm-none-eabi-c++filt 32 //tests/baremetal:mlp_cortex_m --config=cortex_m
  breakdown_of "cnn (Cortex-M3)" arm-none-eabi-c++filt 32 //tests/baremetal:cnn_cortex_m --config=cortex_m
  breakdown_of "runtime core (x86-64, minimal_runner_os)" c++filt 64 //tests/size:minimal_runner_os
  # The builds above relinked with a map; relink as plain builds so bazel-bin holds them again.
  bazel build "${cache[@]}" --config=cortex_m //tests/baremetal:mlp_cortex_m //tests/baremetal:cnn_cortex_m >&2
  bazel build "${cache[@]}" //tests/size:minimal_runner_os >&2
fi
echo "ExecuTorch's bare-metal size gate: 118,000 bytes; its x86-64 gcc minimal runtime gate: 52,168 bytes"
rm -f "$tmp"
