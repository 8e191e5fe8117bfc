#!/bin/bash
# ember_llm on the decoder fixtures of tests/fixtures/llm (random-weight models with no trained
# tokenizer, so the prompt goes in as --prompt_ids and the output comes back as ids):
#   - greedy generation of 17 tokens from the fixture's 5-token prompt gives exactly the tokens
#     eager PyTorch chose (manifest.json greedy_tokens), for a transformers export (input ids +
#     cache position) and an export_llama-style one (tokens + input_pos), with the portable and
#     the xnnpack recipe;
#   - a sampled run (temperature 1, top-k 20) repeats token for token with the same seed, and
#     another seed gives other tokens;
#   - the figures are in the JSON; bad flags and a non-program are named errors.
set -u
LLM="$1"
LOWER="$2"
FIX=tests/fixtures/llm
fail() { echo "FAIL: $*"; exit 1; }

# field FILE KEY: one field of a JSON object, as JSON.
field() { python3 -c 'import json,sys; print(json.dumps(json.load(open(sys.argv[1]))[sys.argv[2]]))' "$1" "$2"; }

for id in llm_llama.core_aten.torch2_14 llm_et_llama_index_copy.core_aten.torch2_14; do
  # The prompt: the first case's token ids (int64 [1, 5]); the reference: PyTorch's greedy tokens.
  prompt=$(od -An -v -t d8 "$FIX/$id.input0.bin" | xargs | tr ' ' ',')
  want=$(python3 -c 'import json,sys; print(json.dumps(json.load(open(sys.argv[1]))["models"][sys.argv[2]]["greedy_tokens"]))' "$FIX/manifest.json" "$id")
  n=$(python3 -c 'import json,sys; print(len(json.loads(sys.argv[1])))' "$want")
  for recipe in portable xnnpack; do
    pte="$TEST_TMPDIR/$id.$recipe.pte"
    "$LOWER" "$FIX/$id.pt2" -o "$pte" --recipe "$recipe" > "$TEST_TMPDIR/lower.txt" 2>&1 ||
      fail "lowering $id ($recipe): $(tail -3 "$TEST_TMPDIR/lower.txt")"
    "$LLM" --model "$pte" --prompt_ids "$prompt" --max_new_tokens "$n" --json > "$TEST_TMPDIR/greedy.json" ||
      fail "$id ($recipe): ember_llm failed"
    got=$(field "$TEST_TMPDIR/greedy.json" tokens)
    [ "$got" = "$want" ] || fail "$id ($recipe) greedy tokens $got, PyTorch's $want"
    for key in load_ms time_to_first_token_ms prefill_tokens_per_s decode_tokens_per_s peak_rss_kb; do
      python3 -c 'import json,sys; v=json.load(open(sys.argv[1]))[sys.argv[2]]; assert v > 0, v' \
        "$TEST_TMPDIR/greedy.json" "$key" || fail "$id ($recipe): $key is not a positive figure"
    done
    [ "$(field "$TEST_TMPDIR/greedy.json" decode_steps)" = "$((n - 1))" ] || fail "$id: decode steps"
    echo "$id [$recipe]: greedy $got (PyTorch's)"
  done

  sample() {
    "$LLM" --model "$pte" --prompt_ids "$prompt" --max_new_tokens 20 --temperature 1 --top_k 20 \
      --seed "$1" --json > "$TEST_TMPDIR/s.json" || fail "$id: sampled run failed"
    field "$TEST_TMPDIR/s.json" tokens
  }
  a=$(sample 7); b=$(sample 7); c=$(sample 8)
  [ "$a" = "$b" ] || fail "$id: seed 7 gave $a then $b"
  [ "$a" != "$c" ] || fail "$id: seeds 7 and 8 gave the same tokens $a"
  [ "$a" != "$want" ] || fail "$id: the sampled run is the greedy one"
  echo "$id: seed 7 twice $a; seed 8 $c"
done

# The streamed text (no --json): the ids as text on stdout, the figures on stderr.
"$LLM" --model "$pte" --prompt_ids "$prompt" --max_new_tokens 3 > "$TEST_TMPDIR/out.txt" 2> "$TEST_TMPDIR/err.txt" ||
  fail "streaming run failed"
grep -qE '^[0-9]+ [0-9]+ [0-9]+ $' "$TEST_TMPDIR/out.txt" || fail "streamed text: '$(cat "$TEST_TMPDIR/out.txt")'"
grep -q 'first token .* ms, prefill 5 tok at .* tok/s, decode 2 tok at .* peak RSS' "$TEST_TMPDIR/err.txt" ||
  fail "figures line: $(cat "$TEST_TMPDIR/err.txt")"

# expect_error STATUS PATTERN ARGS...: exit STATUS and "ember_llm: PATTERN" on stderr.
expect_error() {
  local want=$1 pattern=$2; shift 2
  "$LLM" "$@" > /dev/null 2> "$TEST_TMPDIR/err.txt"
  local rc=$?
  [ $rc -eq "$want" ] || fail "ember_llm $*: exit $rc, expected $want: $(cat "$TEST_TMPDIR/err.txt")"
  grep -qE "^ember_llm: $pattern" "$TEST_TMPDIR/err.txt" || fail "ember_llm $*: got '$(cat "$TEST_TMPDIR/err.txt")'"
}
expect_error 2 "InvalidArgument .*--model is required" --prompt_ids 1
expect_error 2 "InvalidArgument .*exactly one of --prompt" --model "$pte"
expect_error 2 "InvalidArgument .*--prompt needs --tokenizer" --model "$pte" --prompt hi
expect_error 2 "InvalidArgument .*--max_new_tokens" --model "$pte" --prompt_ids 1 --max_new_tokens 0
expect_error 2 "InvalidArgument .*'x' at byte 2 is not an id" --model "$pte" --prompt_ids "1,x"
expect_error 2 "InvalidArgument .*'999' at byte 0 is not an id in \[0, 128\)" --model "$pte" --prompt_ids 999
expect_error 1 "OutOfResources .*context overflow" --model "$pte" --prompt_ids "$(seq -s, 1 40)"
expect_error 1 "InvalidArgument .*top_p" --model "$pte" --prompt_ids 1 --temperature 1 --top_p 2
expect_error 1 "[A-Za-z]+ \(0x[0-9a-f]{2}\): .*$FIX/$id.pt2" --model "$FIX/$id.pt2" --prompt_ids 1
echo PASS
