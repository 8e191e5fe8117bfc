#!/bin/sh
# Builds the pinned XNNPACK 2024-11 with its pthreadpool 2024-06 and cpuinfo 2025-09, static and
# position-independent, into PREFIX/ARCH (default /opt/ember-xnnpack/x86_64), for Bazel's
# @ember_xnnpack repository (WORKSPACE, third_party/xnnpack/BUILD.ember_xnnpack).
#
#   scripts/build_xnnpack.sh [x86_64|aarch64]      (as root; setup.sh and setup_aarch64.sh run it)
#
# Sources: the three orig tarballs from Debian's archive (trixie, else sid), fetched by
# `apt-get source --download-only` through a private apt configuration whose deb-src lines take
# the mirror of the machine's own Debian sources (no host is written here), and checked against
# the SHA-256 digests pinned in third_party/xnnpack/sources.sha256. FXdiv's and FP16's headers
# come from Debian 12's libfxdiv-dev and libfp16-dev; nothing else is fetched, and CMake is told
# where every dependency is so that it downloads nothing. aarch64 is cross-built with
# aarch64-linux-gnu-gcc (g++-aarch64-linux-gnu), KleidiAI off.
#
# A second run is a no-op: PREFIX/ARCH/STAMP records the digests and this script's build flags,
# and nothing is done while it matches. docs/decisions.md 148 says why CMake into /opt.
set -eu
cd "$(dirname "$0")/.."
ARCH=${1:-x86_64}
PREFIX=${EMBER_XNNPACK_PREFIX:-/opt/ember-xnnpack}
DEST="$PREFIX/$ARCH"
PINS="$(pwd)/third_party/xnnpack/sources.sha256"
# Bump when the build flags below change, so that setup rebuilds.
FLAGS_VERSION=1

case "$ARCH" in
  x86_64) TOOLCHAIN_ARGS="" ;;
  aarch64)
    TOOLCHAIN_ARGS="-DCMAKE_SYSTEM_NAME=Linux -DCMAKE_SYSTEM_PROCESSOR=aarch64
      -DCMAKE_C_COMPILER=aarch64-linux-gnu-gcc -DCMAKE_CXX_COMPILER=aarch64-linux-gnu-g++
      -DCMAKE_ASM_COMPILER=aarch64-linux-gnu-gcc
      -DXNNPACK_ENABLE_ARM_SME=OFF -DXNNPACK_ENABLE_ARM_SME2=OFF"  # SME needs gcc >= 14
    command -v aarch64-linux-gnu-gcc > /dev/null ||
      { echo "build_xnnpack: aarch64-linux-gnu-gcc missing (apt: g++-aarch64-linux-gnu)" >&2; exit 1; } ;;
  *) echo "build_xnnpack: unknown architecture '$ARCH' (x86_64 or aarch64)" >&2; exit 1 ;;
esac

# XNNPACK's and cpuinfo's archives hold two members of one name (src/operators/pack-lh.c and
# src/subgraph/pack-lh.c; init.c and x86/init.c): `ar x` would keep only one of them, so a
# tool that merges archives (bindings/c's static_library, libember.a) would lose symbols. Each
# archive is rewritten with unique member names (N-name); cheap, and a no-op once done.
AR="ar"
[ "$ARCH" = aarch64 ] && AR=aarch64-linux-gnu-ar
dedupe_archives() {
  for lib in "$1"/lib/*.a; do
    [ -n "$($AR t "$lib" | sort | uniq -d)" ] || continue
    tmp=$(mktemp -d /tmp/ember-xnnpack-ar.XXXXXX)
    $AR t "$lib" | sort | uniq -c > "$tmp/members"
    while read -r count name; do
      n=1
      while [ "$n" -le "$count" ]; do
        (cd "$tmp" && $AR xN "$n" "$lib" "$name" && mv "$name" "$n-$name")
        n=$((n + 1))
      done
    done < "$tmp/members"
    rm "$tmp/members"
    rm -f "$lib.new"
    (cd "$tmp" && $AR rcs "$lib.new" ./*)
    mv "$lib.new" "$lib"
    rm -rf "$tmp"
    echo "build_xnnpack: $lib: member names made unique"
  done
}

STAMP_TEXT="$(cat "$PINS") flags=$FLAGS_VERSION arch=$ARCH"
if [ -f "$DEST/STAMP" ] && [ "$(cat "$DEST/STAMP")" = "$STAMP_TEXT" ]; then
  dedupe_archives "$DEST"
  echo "build_xnnpack: $DEST is up to date"
  exit 0
fi

for tool in cmake python3 xz; do
  command -v $tool > /dev/null ||
    { echo "build_xnnpack: '$tool' missing (scripts/setup.sh installs it)" >&2; exit 1; }
done
for h in /usr/include/fxdiv.h /usr/include/fp16.h; do
  [ -e "$h" ] || { echo "build_xnnpack: $h missing (apt: libfxdiv-dev libfp16-dev)" >&2; exit 1; }
done

WORK=$(mktemp -d /tmp/ember-xnnpack-build.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
SRC_CACHE="$PREFIX/sources"  # the verified tarballs, kept for the other architecture's build
mkdir -p "$SRC_CACHE"

# --- 1. the orig tarballs ---------------------------------------------------------------------
# The mirror of the machine's own Debian main archive: the first URI listed for this release's
# codename (deb822 .sources files or one-line .list files).
find_mirror() {
  # shellcheck disable=SC1091
  codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
  for f in /etc/apt/sources.list.d/*.sources; do
    [ -f "$f" ] || continue
    awk -v c="$codename" '
      /^[ \t]*$/ { if (uri != "" && hit) { print uri; exit } uri = ""; hit = 0; next }
      /^URIs:/ { uri = $2 }
      /^Suites:/ { for (i = 2; i <= NF; i++) if ($i == c) hit = 1 }
      END { if (uri != "" && hit) print uri }' "$f"
  done
  for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
    [ -f "$f" ] || continue
    awk -v c="$codename" '$1 == "deb" {
        i = 2; if ($i ~ /^\[/) { while ($i !~ /\]$/) i++; i++ }
        if ($(i + 1) == c) { print $i; exit } }' "$f"
  done
}

have_all() {
  (cd "$SRC_CACHE" && sha256sum --quiet -c "$PINS" > /dev/null 2>&1)
}

if ! have_all; then
  MIRROR=$(find_mirror | head -1)
  [ -n "$MIRROR" ] || {
    echo "build_xnnpack: no Debian mirror found in /etc/apt/sources.list{,.d} for this release" >&2
    exit 1
  }
  KEYRING=/usr/share/keyrings/debian-archive-keyring.gpg
  mkdir -p "$WORK/apt/lists/partial" "$WORK/apt/cache/archives/partial" "$WORK/dl"
  for suite in trixie sid; do
    echo "deb-src [signed-by=$KEYRING] $MIRROR $suite main"
  done > "$WORK/apt/sources.list"
  APT_OPTS="-o Dir::Etc::SourceList=$WORK/apt/sources.list -o Dir::Etc::SourceParts=-
    -o Dir::State::Lists=$WORK/apt/lists -o Dir::Cache=$WORK/apt/cache -o Debug::NoLocking=1"
  echo "build_xnnpack: fetching orig tarballs (deb-src trixie/sid from $MIRROR)"
  # shellcheck disable=SC2086
  apt-get $APT_OPTS update > "$WORK/apt-update.log" 2>&1 ||
    { cat "$WORK/apt-update.log" >&2; echo "build_xnnpack: apt-get update failed" >&2; exit 1; }
  while read -r sum file; do
    [ -n "$file" ] || continue
    if (cd "$SRC_CACHE" && echo "$sum  $file" | sha256sum --quiet -c - > /dev/null 2>&1); then
      continue
    fi
    pkg=${file%%_*}
    for suite in trixie sid; do
      # The .dsc and .debian.tar.xz may answer 404 while the orig tarball is served, so the
      # exit code says nothing: the tarball and its digest do.
      # shellcheck disable=SC2086
      (cd "$WORK/dl" && apt-get $APT_OPTS source --download-only "$pkg/$suite" \
        > "$WORK/source-$pkg-$suite.log" 2>&1) || true
      if [ -f "$WORK/dl/$file" ]; then break; fi
    done
    if [ ! -f "$WORK/dl/$file" ]; then
      echo "build_xnnpack: $file is served neither by trixie nor by sid on $MIRROR;" \
        "apt said:" >&2
      tail -5 "$WORK/source-$pkg-sid.log" >&2
      exit 1
    fi
    if ! (cd "$WORK/dl" && echo "$sum  $file" | sha256sum --quiet -c - > /dev/null 2>&1); then
      echo "build_xnnpack: $file has SHA-256 $(sha256sum "$WORK/dl/$file" | cut -d' ' -f1)," \
        "not the pinned $sum (third_party/xnnpack/sources.sha256)" >&2
      exit 1
    fi
    mv "$WORK/dl/$file" "$SRC_CACHE/$file"
  done < "$PINS"
fi
have_all || { echo "build_xnnpack: tarballs in $SRC_CACHE do not match $PINS" >&2; exit 1; }

# --- 2. unpack; FXdiv and FP16 as source folders over Debian 12's headers ------------------------
mkdir -p "$WORK/src/xnnpack" "$WORK/src/fxdiv/include" "$WORK/src/fp16/include"
tar -C "$WORK/src/xnnpack" -xf "$SRC_CACHE"/xnnpack_*.orig.tar.xz  # no top-level folder
tar -C "$WORK/src" -xf "$SRC_CACHE"/pthreadpool_*.orig.tar.xz
tar -C "$WORK/src" -xf "$SRC_CACHE"/cpuinfo_*.orig.tar.xz
PTHREADPOOL_SRC=$(echo "$WORK"/src/pthreadpool-*)
CPUINFO_SRC=$(echo "$WORK"/src/cpuinfo-*)
cp /usr/include/fxdiv.h "$WORK/src/fxdiv/include/"
cp -r /usr/include/fp16.h /usr/include/fp16 "$WORK/src/fp16/include/"
cat > "$WORK/src/fxdiv/CMakeLists.txt" << 'EOF'
CMAKE_MINIMUM_REQUIRED(VERSION 3.5)
PROJECT(fxdiv C)
ADD_LIBRARY(fxdiv INTERFACE)
TARGET_INCLUDE_DIRECTORIES(fxdiv INTERFACE "${CMAKE_CURRENT_SOURCE_DIR}/include")
EOF
sed 's/fxdiv/fp16/g' "$WORK/src/fxdiv/CMakeLists.txt" > "$WORK/src/fp16/CMakeLists.txt"

# --- 3. configure and build ------------------------------------------------------------------
JOBS=$(nproc 2> /dev/null || echo 2)
echo "build_xnnpack: building XNNPACK for $ARCH with $JOBS jobs (a few minutes)"
t0=$(date +%s)
# shellcheck disable=SC2086
cmake -S "$WORK/src/xnnpack" -B "$WORK/build" $TOOLCHAIN_ARGS \
  -DCMAKE_BUILD_TYPE=Release -DCMAKE_POSITION_INDEPENDENT_CODE=ON \
  -DXNNPACK_LIBRARY_TYPE=static -DXNNPACK_USE_SYSTEM_LIBS=OFF \
  -DXNNPACK_BUILD_TESTS=OFF -DXNNPACK_BUILD_BENCHMARKS=OFF -DXNNPACK_BUILD_ALL_MICROKERNELS=OFF \
  -DXNNPACK_ENABLE_KLEIDIAI=OFF \
  -DPTHREADPOOL_SOURCE_DIR="$PTHREADPOOL_SRC" -DCPUINFO_SOURCE_DIR="$CPUINFO_SRC" \
  -DFXDIV_SOURCE_DIR="$WORK/src/fxdiv" -DFP16_SOURCE_DIR="$WORK/src/fp16" \
  -DCPUINFO_BUILD_TOOLS=OFF -DCPUINFO_BUILD_UNIT_TESTS=OFF -DCPUINFO_BUILD_MOCK_TESTS=OFF \
  -DCPUINFO_BUILD_BENCHMARKS=OFF -DCPUINFO_LIBRARY_TYPE=static \
  -DPTHREADPOOL_BUILD_TESTS=OFF -DPTHREADPOOL_BUILD_BENCHMARKS=OFF \
  -DPTHREADPOOL_LIBRARY_TYPE=static \
  > "$WORK/configure.log" 2>&1 ||
  { tail -40 "$WORK/configure.log" >&2; echo "build_xnnpack: CMake configure failed" >&2; exit 1; }
if grep -q "Downloading" "$WORK/configure.log"; then
  grep "Downloading" "$WORK/configure.log" >&2
  echo "build_xnnpack: CMake wanted to download a dependency; nothing may be downloaded" >&2
  exit 1
fi
cmake --build "$WORK/build" --target XNNPACK cpuinfo pthreadpool -j "$JOBS" \
  > "$WORK/build.log" 2>&1 ||
  { grep -B2 -A10 "error" "$WORK/build.log" | head -60 >&2; tail -20 "$WORK/build.log" >&2;
    echo "build_xnnpack: build failed" >&2; exit 1; }

# --- 4. install: four static libraries and the public headers --------------------------------
rm -rf "$DEST.new"
mkdir -p "$DEST.new/lib" "$DEST.new/include"
for lib in libXNNPACK.a libmicrokernels-prod.a libcpuinfo.a libpthreadpool.a; do
  found=$(find "$WORK/build" -name "$lib" | head -1)
  [ -n "$found" ] || { echo "build_xnnpack: $lib was not built" >&2; exit 1; }
  cp "$found" "$DEST.new/lib/"
done
cp "$WORK/src/xnnpack/include/xnnpack.h" "$WORK/src/xnnpack/include/experiments-config.h" \
  "$PTHREADPOOL_SRC/include/pthreadpool.h" "$CPUINFO_SRC/include/cpuinfo.h" "$DEST.new/include/"
cp -r "$WORK/src/fxdiv/include/fxdiv.h" "$DEST.new/include/"
dedupe_archives "$DEST.new"
for f in "$SRC_CACHE"/*.orig.tar.xz; do basename "$f"; done > "$DEST.new/VERSIONS"
printf '%s' "$STAMP_TEXT" > "$DEST.new/STAMP"
rm -rf "$DEST"
mv "$DEST.new" "$DEST"
echo "build_xnnpack: $DEST ready in $(($(date +%s) - t0)) s"
