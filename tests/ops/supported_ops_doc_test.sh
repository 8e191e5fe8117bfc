#!/bin/sh
# Fails when docs/supported_ops.md differs from what refgen/schemas/write_op_docs.py generates
# from the committed schema, kernel and decomposition tables (the runfiles tree is the
# repository layout the generator reads).
set -eu
root="${TEST_SRCDIR:-.}/${TEST_WORKSPACE:-ember}"
[ -f "$root/refgen/schemas/write_op_docs.py" ] || root=.
EMBER_DOCS_ROOT="$root" exec python3 "$root/refgen/schemas/write_op_docs.py" --check
