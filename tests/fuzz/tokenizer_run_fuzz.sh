#!/bin/bash
# Runs //tests/fuzz:tokenizer_fuzz (tokenizer.json / tiktoken / SentencePiece readers and the
# byte-level encoder, //llm/tokenizer) for SECONDS (default 60) under libFuzzer + ASan/UBSan
# (fuzz_common.sh). Seeds: the committed agreement tokenizers (llm/tokenizer/testdata), each
# prefixed with its reader byte, and a few texts for the encoder.
set -euo pipefail
SECONDS_TO_RUN="${1:-60}"
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$ROOT"
source tests/fuzz/fuzz_common.sh
fuzz_workdir ember-tokenizer-fuzz

data=llm/tokenizer/testdata
seed() { { printf "$1"; cat "$2"; } >"$CORPUS/$3"; }
for f in "$data"/*.json; do
  case "$f" in *specials.json) continue ;; esac
  seed '\x00' "$f" "$(basename "$f")"
done
seed '\x01' "$data/tiktoken.tiktoken" tiktoken
seed '\x02' "$data/spm_unigram.model" spm_unigram
seed '\x02' "$data/spm_bpe.model" spm_bpe
printf '\x03the 12 caf\xc3\xa9 \xf0\x9f\x98\x80 <|end|>\xff' >"$CORPUS/text"
run_fuzzer tokenizer_fuzz "$SECONDS_TO_RUN" -rss_limit_mb=2048 -max_len=400000
