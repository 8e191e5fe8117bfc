#!/bin/bash
# Runs one Cortex-M image on qemu-system-arm (MPS2 AN385, semihosting) and prints its flash and
# RAM figures: passes when the image reports every output element within tolerance of PyTorch's
# and its flash (code, read-only data with the .pte, input and reference output, .data's initial
# values) is at most FLASH_BUDGET bytes (ExecuTorch's bare-metal size gate is 118,000).
#
#   cortex_m_test.sh IMAGE FLASH_BUDGET
set -uo pipefail
image="$1"
budget="$2"
flash=$(arm-none-eabi-size -A "$image" | awk '
  $1 == ".text" || $1 == ".rodata" || $1 == ".ARM.exidx" || $1 == ".init_array" || $1 == ".data" || $1 == ".tdata" { flash += $2 }
  END { print flash + 0 }')
arm-none-eabi-size -A "$image" | awk -v budget="$budget" '
  $1 == ".text" || $1 == ".rodata" || $1 == ".ARM.exidx" || $1 == ".init_array" { flash += $2 }
  $1 == ".data" { flash += $2; ram += $2 }
  $1 == ".tdata" { flash += $2; ram += $2 }
  $1 == ".tbss" || $1 == ".bss" || $1 == ".stack" { ram += $2 }
  END { printf "footprint: flash %d B (.text+.rodata+.data init; budget %d), RAM %d B (.data+.bss incl. arena + 32 KB stack)\n", flash, budget, ram }'
status=0
if [ "$flash" -gt "$budget" ]; then
  echo "FAIL: flash $flash bytes is over the $budget-byte budget"
  status=1
fi
toolchains/cortex_m/qemu_system.sh "$image" || status=1
exit $status
