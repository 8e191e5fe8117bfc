#!/bin/bash
# Runs one Cortex-M image on qemu-system-arm (MPS2 AN385, semihosting) and prints its flash and
# RAM figures: passes when the image reports every output element within tolerance of PyTorch's.
set -uo pipefail
image="$1"
arm-none-eabi-size -A "$image" | awk '
  $1 == ".text" || $1 == ".rodata" || $1 == ".ARM.exidx" || $1 == ".init_array" { flash += $2 }
  $1 == ".data" { flash += $2; ram += $2 }
  $1 == ".tdata" { flash += $2; ram += $2 }
  $1 == ".tbss" || $1 == ".bss" || $1 == ".stack" { ram += $2 }
  END { printf "footprint: flash %d B (.text+.rodata+.data init), RAM %d B (.data+.bss incl. arena + 32 KB stack)\n", flash, ram }'
toolchains/cortex_m/qemu_system.sh "$image"
