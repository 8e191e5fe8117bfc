#!/bin/bash
# A shared library exports exactly the functions its headers declare (EMBER_EXPORT), nothing
# else: no C++ symbols, no runtime internals, no third-party code.
#   exports_test.sh LIB HEADER...   (libember.so: ember.h; libember_llm.so: ember.h ember_llm.h)
set -euo pipefail
lib="$1"
shift
headers=("$@")
exported=$(nm -D --defined-only "$lib" | awk '$2 ~ /^[TDBRVW]$/ {print $3}' | sort -u)
declared=$(grep -ho '^EMBER_EXPORT [^(]*(' "${headers[@]}" | sed -E 's/.*[ *]([a-z_0-9]+)\($/\1/' | sort -u)
if [ -z "$declared" ]; then echo "FAIL: no EMBER_EXPORT declarations found in ${headers[*]}"; exit 1; fi
extra=$(comm -23 <(echo "$exported") <(echo "$declared"))
missing=$(comm -13 <(echo "$exported") <(echo "$declared"))
if [ -n "$extra" ]; then echo "FAIL: exported but not in the header:"; echo "$extra" | head -20; exit 1; fi
if [ -n "$missing" ]; then echo "FAIL: declared but not exported:"; echo "$missing"; exit 1; fi
echo "$(basename "$lib") exports the $(echo "$declared" | wc -l) ember_* functions of ${headers[*]##*/} and nothing else"
