#!/bin/sh
# Installs everything Ember needs on a fresh Debian 12 machine, from Debian's
# packages only, then builds XNNPACK 2024-11 (with its pthreadpool and cpuinfo) from Debian 13's
# orig tarballs, pinned by SHA-256, into /opt/ember-xnnpack/x86_64 (scripts/build_xnnpack.sh:
# a few minutes the first time). Safe to run again: it installs only what is missing, waits
# for the dpkg lock (other apt runs) instead of failing, and rebuilds nothing that is there.
#
#   sudo scripts/setup.sh          (or as root: scripts/setup.sh)
#
# nginx is only for tests/bazel_rules/remote_cache.sh (a local HTTP cache on loopback, started
# and stopped by the script; the system service Debian may start is not used).
# The arm-none-eabi toolchain, newlib and qemu-system-arm build and run the bare-metal Cortex-M
# images (`bazel test --config=cortex_m //tests/baremetal:cortex_m`, toolchains/cortex_m).
set -eu

PACKAGES="
  bazel-bootstrap
  libgtest-dev libgmock-dev libbenchmark-dev
  libflatbuffers-dev flatbuffers-compiler
  cmake python3 xz-utils libfxdiv-dev libfp16-dev
  nlohmann-json3-dev libzip-dev libyaml-cpp-dev libgflags-dev
  libpcre2-dev libsentencepiece-dev libicu-dev
  libkissfft-dev
  clang libclang-rt-14-dev
  default-jdk-headless junit4
  nginx
  gcc-arm-none-eabi libnewlib-arm-none-eabi libstdc++-arm-none-eabi-newlib
  libstdc++-arm-none-eabi-dev qemu-system-arm
"

missing=""
for p in $PACKAGES; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing="$missing $p"
  fi
done

SUDO=""
if [ "$(id -u)" != "0" ]; then SUDO="sudo"; fi
if [ -z "$missing" ]; then
  echo "setup: all packages present"
else
  echo "setup: installing$missing"
  $SUDO apt-get -o DPkg::Lock::Timeout=600 update
  # shellcheck disable=SC2086
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get -o DPkg::Lock::Timeout=600 install -y --no-install-recommends $missing
fi

# XNNPACK 2024-11 (Debian 12's libxnnpack-dev is 2022-02 and is not used); a no-op when built.
$SUDO sh "$(dirname "$0")/build_xnnpack.sh" x86_64
