#!/bin/sh
# Installs what `bazel test --config=aarch64` needs on a Debian 12 machine, from Debian's
# packages only: gcc's aarch64 cross compiler, user-mode qemu, and the arm64 builds of
# Ember's C++ dependencies unpacked into /opt/ember-arm64-sysroot
# (scripts/fetch_arm64_sysroot.sh), and XNNPACK 2024-11 cross-built static into
# /opt/ember-xnnpack/aarch64 (scripts/build_xnnpack.sh aarch64, a few minutes the first time).
# Separate from scripts/setup.sh because it is heavy
# (about 250 MB installed) and most users never cross-build; .ci/run runs both, then
# .ci/run_aarch64 as its `aarch64` step. Safe to run again: installs only what is
# missing and waits for the dpkg lock.
#
#   sudo scripts/setup_aarch64.sh          (or as root)
set -eu
cd "$(dirname "$0")/.."
SYSROOT=${ARM64_SYSROOT:-/opt/ember-arm64-sysroot}
PACKAGES="g++-aarch64-linux-gnu qemu-user"

SUDO=""
if [ "$(id -u)" != "0" ]; then SUDO="sudo"; fi

missing=""
for p in $PACKAGES; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing="$missing $p"
  fi
done
if [ -n "$missing" ]; then
  echo "setup_aarch64: installing$missing"
  $SUDO apt-get -o DPkg::Lock::Timeout=600 update
  # shellcheck disable=SC2086
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get -o DPkg::Lock::Timeout=600 install -y \
    --no-install-recommends $missing
fi

# The sysroot is complete when the libraries the fetch script lists are there (gtest first,
# gflags, and KissFFT, added later: an older sysroot is fetched again).
if [ -e "$SYSROOT/usr/lib/aarch64-linux-gnu/libgtest.a" ] &&
   [ -e "$SYSROOT/usr/lib/aarch64-linux-gnu/libgflags.so" ] &&
   [ -e "$SYSROOT/usr/lib/aarch64-linux-gnu/libkissfft-float.so" ]; then
  echo "setup_aarch64: toolchain, qemu-user and $SYSROOT present"
else
  $SUDO sh scripts/fetch_arm64_sysroot.sh "$SYSROOT"
fi
# XNNPACK 2024-11 for aarch64 (KleidiAI off); a no-op when built.
$SUDO sh scripts/build_xnnpack.sh aarch64
