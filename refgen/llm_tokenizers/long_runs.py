#!/usr/bin/env python3
"""A second agreement corpus of long runs (the worst cases for split regexes and BPE merges):
200,000 spaces, 200,000 'a', 100,000 newlines, 50,000 'ab ', 100,000 digits, 50,000 'é',
50,000 invalid bytes, 50,000 ' \\t', 30,000 emoji (1.12 MB, 9 records), with Python's references
for the tokenizers train_and_reference.py wrote. Runs in the sid chroot:

  EMBER_EXTRA_BIND=/tmp/ember_tok:/tmp/ember_tok_long refgen/torch_env/run.sh sid \\
      refgen/llm_tokenizers/long_runs.py /tmp/ember_tok /tmp/ember_tok_long
  bazel-bin/llm/tokenizer/agreement/agreement_check /tmp/ember_tok_long
"""
import base64
import json
import os
import shutil
import sys

import sentencepiece as spm
import tiktoken
from tokenizers import Tokenizer

RECORDS = [b" " * 200000, b"a" * 200000, b"\n" * 100000 + b"x", b"ab " * 50000, b"1" * 100000,
           ("\u00e9" * 50000).encode(), b"\xff" * 50000, b" \t" * 50000 + b"z",
           ("\U0001F600" * 30000).encode()]


def write_refs(path, texts, encode, decode):
    with open(path, "w") as f:
        for t in texts:
            ids = encode(t)
            f.write(json.dumps([ids, decode(ids)]) + "\n")


def main():
    src, d = sys.argv[1], sys.argv[2]
    os.makedirs(d, exist_ok=True)
    for name in ("gpt2.json", "llama3.json", "qwen.json", "smollm.json", "llama2.json",
                 "spm_unigram.model", "spm_bpe.model", "tiktoken.tiktoken", "tiktoken.specials.json"):
        shutil.copyfile(os.path.join(src, name), os.path.join(d, name))
    with open(os.path.join(d, "corpus.bin"), "wb") as f:
        f.write(b"".join(r + b"\x1e\n" for r in RECORDS))
    texts = [r.decode("utf-8", "replace") for r in RECORDS]
    for n in ("gpt2", "llama3", "qwen", "smollm", "llama2"):
        t = Tokenizer.from_file(os.path.join(d, n + ".json"))
        write_refs(os.path.join(d, n + ".ref"), texts, lambda s, t=t: t.encode(s).ids,
                   lambda ids, t=t: t.decode(ids, skip_special_tokens=False))
    for n in ("spm_unigram", "spm_bpe"):
        sp = spm.SentencePieceProcessor(model_file=os.path.join(d, n + ".model"))
        write_refs(os.path.join(d, n + ".ref"), texts, sp.encode, sp.decode)
    spec = json.load(open(os.path.join(d, "tiktoken.specials.json")))
    ranks = {}
    for line in open(os.path.join(d, "tiktoken.tiktoken")):
        token, rank = line.split()
        ranks[base64.b64decode(token)] = int(rank)
    enc = tiktoken.Encoding("long_runs", pat_str=spec["pattern"], mergeable_ranks=ranks,
                            special_tokens=spec["special_tokens"])
    write_refs(os.path.join(d, "tiktoken.ref"), texts,
               lambda s: enc.encode(s, allowed_special="all"), enc.decode)
    print(f"{len(RECORDS)} records in {d}")


if __name__ == "__main__":
    main()
