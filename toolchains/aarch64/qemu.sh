#!/bin/sh
# Runs an aarch64 test binary under user-mode qemu (Debian: qemu-user); binfmt is
# not registered on these machines, so qemu is called explicitly.
SYSROOT="${ARM64_SYSROOT:-/opt/ember-arm64-sysroot}"
exec qemu-aarch64 -L /usr/aarch64-linux-gnu \
  -E LD_LIBRARY_PATH="$SYSROOT/usr/lib/aarch64-linux-gnu" "$@"
