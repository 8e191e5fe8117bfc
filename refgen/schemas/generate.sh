#!/usr/bin/env bash
# generate.sh: regenerates aot/ir/op_schema_table_aten_*.cc (the aten operator schema table, one file per kind) and
# tests/ops/core_aten_ops.txt (torch 2.14's torch.Tag.core list) from PyTorch's own schemas.
#
# Usage: refgen/schemas/generate.sh        (from the repository root; needs both chroots,
#                                           refgen/torch_env/setup_chroot.sh sid|trixie)
# dump.py runs in each chroot (torch 2.14 in sid, torch 2.6 in trixie) and writes every aten
# overload as a table line; write_table.py (plain Python) merges them, newest torch first.
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd -P)"
tmp="$(mktemp -d)"
trap 'rm -rf "${tmp}"' EXIT
cd "${repo}"
dumps=()
for suite in sid trixie; do
  EMBER_EXTRA_BIND="${tmp}" refgen/torch_env/run.sh "${suite}" refgen/schemas/dump.py \
    "${tmp}/${suite}.jsonl"
  dumps+=("${tmp}/${suite}.jsonl")
done
python3 refgen/schemas/write_table.py "${repo}" "${dumps[@]}"
