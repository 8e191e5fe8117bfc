#!/usr/bin/env bash
# setup_chroot.sh: builds a minimal Debian chroot with Debian's python3-torch, python3-torchvision
# and python3-numpy (sid: also python3-onnx), used by the reference-data generators under refgen/
# and benchmarks/peers/. Idempotent: re-running
# on a finished chroot only re-checks the packages.
#
# Usage: refgen/torch_env/setup_chroot.sh [trixie|sid] [DIR]
#   trixie (default): torch 2.6, torchvision 0.21.   sid: newer torch (PT2-archive layout).
#   DIR defaults to /work/chroots/<suite>; keep it OUTSIDE the repository.
# Needs root and Debian's archive (the only network these machines reach).
set -euo pipefail

suite="${1:-trixie}"
dir="${2:-/work/chroots/${suite}}"
mirror="http://deb.debian.org/debian"
packages=(python3-torch python3-torchvision python3-numpy)
# sid also exports ONNX for the peer benchmark (benchmarks/peers/export_onnx.py).
[[ "${suite}" == sid ]] && packages+=(python3-onnx)

case "${suite}" in
  trixie|sid) ;;
  *) echo "setup_chroot.sh: unknown suite '${suite}' (expected trixie or sid)" >&2; exit 2 ;;
esac

if ! command -v debootstrap >/dev/null 2>&1; then
  apt-get update
  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends debootstrap
fi

if [[ ! -x "${dir}/usr/bin/apt-get" || ! -f "${dir}/.debootstrap_done" ]]; then
  mkdir -p "${dir}"
  # A half-finished debootstrap leaves debootstrap/ behind; start over in that case.
  if [[ -d "${dir}/debootstrap" ]]; then
    echo "setup_chroot.sh: removing unfinished debootstrap in ${dir}" >&2
    rm -rf "${dir:?}"/*
  fi
  debootstrap --variant=minbase "${suite}" "${dir}" "${mirror}"
  touch "${dir}/.debootstrap_done"
fi

# The archive's Release files carry a Valid-Until date; a machine clock ahead of it must not
# make apt refuse the lists.
echo 'Acquire::Check-Valid-Until "false";' >"${dir}/etc/apt/apt.conf.d/99ember-no-valid-until"

# Network name resolution inside the chroot.
cp -f /etc/resolv.conf "${dir}/etc/resolv.conf" 2>/dev/null || true

missing=()
for p in "${packages[@]}"; do
  if ! chroot "${dir}" dpkg-query -W -f='${Status}' "${p}" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("${p}")
  fi
done
if ((${#missing[@]})); then
  chroot "${dir}" apt-get update
  chroot "${dir}" env DEBIAN_FRONTEND=noninteractive \
    apt-get install -y --no-install-recommends "${missing[@]}"
  chroot "${dir}" apt-get clean
fi

chroot "${dir}" python3 -c 'import torch, torchvision, numpy; print("torch", torch.__version__, "torchvision", torchvision.__version__, "numpy", numpy.__version__)'
