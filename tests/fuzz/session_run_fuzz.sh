#!/bin/bash
# Runs //tests/fuzz:session_fuzz (llm::load_session restoring LLM session files, EMBRLLMS v1,
# into the tiny Llama fixture lowered with the portable recipe) for SECONDS (default 60) under
# libFuzzer + ASan/UBSan (fuzz_common.sh). The decoder and the seeds come from the default
# build (gcc, the shared disk cache): //tests/embedding:llm_llama and session_write_seeds,
# which saves real sessions from it (empty, a prompt, prompt + 3 steps, truncated), each as is
# and without its checksum (the target appends a matching one; session_fuzz.h).
set -euo pipefail
SECONDS_TO_RUN="${1:-60}"
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$ROOT"
source tests/fuzz/fuzz_common.sh
fuzz_workdir ember-session-fuzz

bazel build //tests/embedding:llm_llama //tests/fuzz:session_write_seeds
cp "$(bazel info bazel-bin 2>/dev/null)/tests/embedding/llm_llama.pte" "$WORK/llm_llama.pte"
"$(bazel info bazel-bin 2>/dev/null)/tests/fuzz/session_write_seeds" "$WORK/llm_llama.pte" "$CORPUS"
export EMBER_SESSION_FUZZ_PTE="$WORK/llm_llama.pte"
run_fuzzer session_fuzz "$SECONDS_TO_RUN" -rss_limit_mb=2048
