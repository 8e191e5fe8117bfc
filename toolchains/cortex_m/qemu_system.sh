#!/bin/bash
# Runs a bare-metal Cortex-M3 ELF on qemu-system-arm's MPS2 AN385 board model with semihosting
# (the image prints through it and ends the run with its status): qemu_system.sh IMAGE.elf
# Exits with the image's status (0 success, 1 failure) or 124 when it runs over 120 s.
set -uo pipefail
image="$1"
exec timeout 120 qemu-system-arm -machine mps2-an385 -cpu cortex-m3 -nographic -monitor none \
  -serial none -semihosting-config enable=on,target=native -kernel "$image"
