#!/bin/sh
# The --run_under wrapper of --config=aarch64: runs an aarch64 ELF (a cc_test or
# cc_binary) under user-mode qemu (Debian: qemu-user; binfmt is not registered on these
# machines, so qemu is called explicitly). Anything else (an sh_test's script) runs
# directly on the host, with EMBER_EXEC_WRAPPER set to this file so the script can run
# the cross-built binaries it calls through qemu: "$EMBER_EXEC_WRAPPER" "$BINARY" ARGS...
# (the variable is unset in host builds, where the binaries run directly). Binaries run
# under qemu see EMBER_QEMU_USER=1 (qemu's emulated /proc/self/smaps reports no huge pages).
SYSROOT="${ARM64_SYSROOT:-/opt/ember-arm64-sysroot}"
is_aarch64_elf() {
  # ELF magic, then e_machine (bytes 18-19, little-endian) = 183 (EM_AARCH64).
  [ -f "$1" ] || return 1
  [ "$(od -An -tx1 -N4 "$1" 2>/dev/null | tr -d ' \n')" = "7f454c46" ] || return 1
  [ "$(od -An -tu2 -j18 -N2 "$1" 2>/dev/null | tr -d ' \n')" = "183" ]
}
if is_aarch64_elf "$1"; then
  exec qemu-aarch64 -L /usr/aarch64-linux-gnu \
    -E LD_LIBRARY_PATH="$SYSROOT/usr/lib/aarch64-linux-gnu" -E EMBER_QEMU_USER=1 "$@"
fi
# A test binary for another machine means the cross build did not happen: fail rather
# than pass by running it on the host.
if [ "$(od -An -tx1 -N4 "$1" 2>/dev/null | tr -d ' \n')" = "7f454c46" ]; then
  echo "qemu.sh: $1 is not an aarch64 ELF (e_machine $(od -An -tu2 -j18 -N2 "$1" | tr -d ' '))" >&2
  exit 1
fi
EMBER_EXEC_WRAPPER="$(readlink -f "$0")"
export EMBER_EXEC_WRAPPER
exec "$@"
