#!/bin/sh
# Downloads Debian's arm64 builds of Ember's C++ dependencies and unpacks them into
# a sysroot folder (default /opt/ember-arm64-sysroot) for --config=aarch64, without
# enabling dpkg multiarch. XNNPACK, pthreadpool and cpuinfo are not among them: they are
# cross-built from source by scripts/build_xnnpack.sh aarch64.
# apt runs with private state, so the machine's package database is untouched.
set -eu
DEST=${1:-${ARM64_SYSROOT:-/opt/ember-arm64-sysroot}}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
mkdir -p "$WORK/lists/partial" "$WORK/cache/archives/partial" "$WORK/etc" "$WORK/debs" "$DEST"
touch "$WORK/status"
cp /etc/apt/sources.list.d/debian.sources "$WORK/etc/" 2>/dev/null ||
  cp /etc/apt/sources.list "$WORK/etc/debian.list"
APT_OPTS="-o APT::Architecture=arm64 -o APT::Architectures::=arm64
 -o Dir::State=$WORK -o Dir::State::Lists=$WORK/lists -o Dir::State::status=$WORK/status
 -o Dir::Cache=$WORK/cache -o Dir::Etc::SourceList=/dev/null -o Dir::Etc::SourceParts=$WORK/etc
 -o Debug::NoLocking=1"
# shellcheck disable=SC2086
apt-get $APT_OPTS update >/dev/null
cd "$WORK/debs"
# shellcheck disable=SC2086
apt-get $APT_OPTS download \
  libgtest-dev libgmock-dev libbenchmark-dev libbenchmark1debian libgflags2.2 libgflags-dev \
  libkissfft-dev libkissfft-float131
for f in ./*.deb; do dpkg -x "$f" "$DEST"; done
echo "arm64 sysroot ready in $DEST"
