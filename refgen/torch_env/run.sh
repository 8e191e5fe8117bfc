#!/usr/bin/env bash
# run.sh: runs a Python script with the real PyTorch of a Debian chroot made by setup_chroot.sh.
#
# Usage: refgen/torch_env/run.sh SUITE script.py [args...]
#   SUITE is trixie or sid; the chroot is $EMBER_CHROOT_DIR or /work/chroots/<SUITE>.
# The repository (this script's checkout) is bind-mounted into the chroot at the same absolute
# path and the script runs from the current directory, so relative paths work unchanged.
# Extra host directories (for example an output folder outside the repository) can be made
# visible at the same path with EMBER_EXTRA_BIND="/dir1:/dir2".
# Mounts live in a private mount namespace (unshare), so they vanish when the command exits
# and parallel runs do not interfere. Needs root.
set -euo pipefail

if (($# < 2)); then
  echo "usage: $0 trixie|sid script.py [args...]" >&2
  exit 2
fi
suite="$1"
shift
chroot_dir="${EMBER_CHROOT_DIR:-/work/chroots/${suite}}"
if [[ ! -x "${chroot_dir}/usr/bin/python3" ]]; then
  echo "run.sh: no python3 in ${chroot_dir}; run refgen/torch_env/setup_chroot.sh ${suite} first" >&2
  exit 1
fi
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd -P)"
binds=("${repo}")
if [[ -n "${EMBER_EXTRA_BIND:-}" ]]; then
  IFS=: read -r -a extra <<<"${EMBER_EXTRA_BIND}"
  for d in "${extra[@]}"; do
    [[ -n "${d}" ]] && mkdir -p "${d}" && binds+=("$(cd "${d}" && pwd -P)")
  done
fi
cwd="$(pwd -P)"

exec unshare --mount --propagation private /bin/bash -s -- "${chroot_dir}" "${cwd}" "$@" \
  "${binds[@]/#/--bind=}" <<'INNER'
set -euo pipefail
chroot_dir="$1"; cwd="$2"; shift 2
args=(); binds=()
for a in "$@"; do
  if [[ "${a}" == --bind=* ]]; then binds+=("${a#--bind=}"); else args+=("${a}"); fi
done
for d in "${binds[@]}"; do
  mkdir -p "${chroot_dir}${d}"
  mount --bind "${d}" "${chroot_dir}${d}"
done
mountpoint -q "${chroot_dir}/proc" || mount -t proc proc "${chroot_dir}/proc"
mkdir -p "${chroot_dir}/dev/shm"
mountpoint -q "${chroot_dir}/dev/shm" || mount -t tmpfs shm "${chroot_dir}/dev/shm"
cd_to="${cwd}"
[[ -d "${chroot_dir}${cd_to}" ]] || cd_to="/"
exec chroot "${chroot_dir}" /usr/bin/env -i PATH=/usr/bin:/bin HOME=/root LANG=C.UTF-8 \
  PYTHONHASHSEED=0 OMP_NUM_THREADS=1 /bin/sh -c 'cd "$0" && exec python3 "$@"' "${cd_to}" "${args[@]}"
INNER
