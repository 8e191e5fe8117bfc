#!/bin/bash
# libember.so exports exactly the functions ember.h declares (EMBER_EXPORT), nothing else:
# no C++ symbols, no runtime internals, no third-party code.
set -euo pipefail
lib="$1"
header="$2"
exported=$(nm -D --defined-only "$lib" | awk '$2 ~ /^[TDBRVW]$/ {print $3}' | sort -u)
declared=$(grep -o '^EMBER_EXPORT [^(]*(' "$header" | sed -E 's/.*[ *]([a-z_0-9]+)\($/\1/' | sort -u)
if [ -z "$declared" ]; then echo "FAIL: no EMBER_EXPORT declarations found in $header"; exit 1; fi
extra=$(comm -23 <(echo "$exported") <(echo "$declared"))
missing=$(comm -13 <(echo "$exported") <(echo "$declared"))
if [ -n "$extra" ]; then echo "FAIL: exported but not in the header:"; echo "$extra" | head -20; exit 1; fi
if [ -n "$missing" ]; then echo "FAIL: declared but not exported:"; echo "$missing"; exit 1; fi
echo "libember.so exports the $(echo "$declared" | wc -l) ember_* functions of ember.h and nothing else"
