#!/usr/bin/env python3
"""The Python peer of tokenizer_benchmark: encoding speed of Python's tokenizers (Rust core),
sentencepiece and tiktoken on the same corpus and files, one thread. Runs in the sid chroot:

  RAYON_NUM_THREADS=1 refgen/torch_env/run.sh sid benchmarks/llm/python_encode_peer.py DIR [NAMES]

For each tokenizer: the best of 2 passes over every record, timed in process CPU time (as Google
Benchmark times Ember's loop, so a busy shared machine slows neither side's figure), both per-record encode() calls (the
same work as Ember's benchmark loop) and one encode_batch() (no per-call Python overhead; Rayon
pinned to 1 thread). Prints one JSON line per tokenizer with bytes per second.
"""
import json
import os
import sys
import time

os.environ.setdefault("RAYON_NUM_THREADS", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

import sentencepiece as spm  # noqa: E402
import tiktoken  # noqa: E402
from tokenizers import Tokenizer  # noqa: E402


def best(fn, texts, rounds=2):
    times = []
    for _ in range(rounds):
        t0 = time.process_time()
        fn(texts)
        times.append(time.process_time() - t0)
    return min(times)


def main():
    d = sys.argv[1]
    names = sys.argv[2].split(",") if len(sys.argv) > 2 else [
        "gpt2", "llama3", "qwen", "smollm", "llama2", "spm_unigram", "spm_bpe", "tiktoken"]
    with open(os.path.join(d, "corpus.bin"), "rb") as f:
        recs = f.read().split(b"\x1e\n")
    if recs and recs[-1] == b"":
        recs.pop()
    nbytes = sum(len(r) for r in recs)
    texts = [r.decode("utf-8", "replace") for r in recs]
    for name in names:
        if name.startswith("spm_"):
            sp = spm.SentencePieceProcessor(model_file=os.path.join(d, name + ".model"))
            per_call = best(lambda ts: [sp.encode(t) for t in ts], texts)
            batch = best(lambda ts: sp.encode(ts, num_threads=1), texts)
        elif name == "tiktoken":
            spec = json.load(open(os.path.join(d, "tiktoken.specials.json")))
            ranks = {}
            import base64
            for line in open(os.path.join(d, "tiktoken.tiktoken")):
                tok, rank = line.split()
                ranks[base64.b64decode(tok)] = int(rank)
            enc = tiktoken.Encoding("peer", pat_str=spec["pattern"], mergeable_ranks=ranks,
                                    special_tokens=spec["special_tokens"])
            per_call = best(lambda ts: [enc.encode(t, allowed_special="all") for t in ts], texts)
            batch = best(lambda ts: enc.encode_batch(ts, allowed_special="all", num_threads=1), texts)
        else:
            tok = Tokenizer.from_file(os.path.join(d, name + ".json"))
            per_call = best(lambda ts: [tok.encode(t) for t in ts], texts)
            batch = best(lambda ts: tok.encode_batch(ts), texts)
        print(json.dumps({"name": name, "bytes": nbytes,
                          "per_call_bytes_per_second": nbytes / per_call,
                          "batch_bytes_per_second": nbytes / batch}), flush=True)


if __name__ == "__main__":
    main()
