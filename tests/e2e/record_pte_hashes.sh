#!/bin/bash
# Re-records tests/e2e/pte_hashes.txt with the current `lower` (run from the repository root
# after `bazel build //apps/lower`). Only for changes that are meant to alter the bytes:
# say why in the commit message.
set -eu
LOWER="${LOWER:-bazel-bin/apps/lower/lower}"
FILE=tests/e2e/pte_hashes.txt
FIX=tests/fixtures/pt2
tmp=$(mktemp)
grep '^#' "$FILE" > "$tmp"
grep -v '^#' "$FILE" | while read -r _ args; do
  [ -n "$args" ] || continue
  # shellcheck disable=SC2086
  "$LOWER" ${args//@FIX@/$FIX} -o /tmp/record_pte_hashes.pte > /dev/null
  echo "$(sha256sum < /tmp/record_pte_hashes.pte | cut -c1-64)  $args"
done >> "$tmp"
mv "$tmp" "$FILE"
