"""Builds the LLM benchmark's models (run in the sid chroot; see run_llm_bench.sh).

For one shape ("tiny": the committed fixtures' shape with a 512-token vocabulary, or "smol135",
refgen/fixtures/llm_models.py) it writes into OUT:
  hf/            the random-weight SmolLM2-style model (Llama architecture, tied embeddings;
                 the same initialisation as the committed llm_smollm fixtures) as transformers
                 saves it, plus a byte-level BPE tokenizer trained here on local text (nothing
                 is downloaded; llama-bench only needs a vocabulary of the right size)
  model.pt2      transformers' ExecuTorch export of the same weights (static KV cache of
                 --max-cache positions, dynamic sequence length), as exported (training IR)
  prompt_ids.txt --prompt-len token ids (seeded), what Ember's runner is given
Usage:
  EMBER_EXTRA_BIND=OUT refgen/torch_env/run.sh sid benchmarks/llm/make_models.py \
      --shape smol135 --out OUT
"""
import argparse
import glob
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "refgen", "fixtures"))

import torch  # noqa: E402

import llm_models  # noqa: E402


def corpus_lines(limit_bytes):
    """Local text (Python's standard library sources) to train the tokenizer on."""
    total = 0
    for path in sorted(glob.glob("/usr/lib/python3*/**/*.py", recursive=True)):
        try:
            with open(path, encoding="utf-8") as f:
                text = f.read()
        except (UnicodeDecodeError, OSError):
            continue
        total += len(text)
        yield text
        if total > limit_bytes:
            return


def train_tokenizer(vocab_size, out_dir):
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast
    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=vocab_size, special_tokens=["<|endoftext|>"],
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
                                  show_progress=False)
    tok.train_from_iterator(corpus_lines(24 << 20), trainer=trainer)
    fast = PreTrainedTokenizerFast(tokenizer_object=tok, bos_token="<|endoftext|>",
                                   eos_token="<|endoftext|>")
    fast.save_pretrained(out_dir)
    return tok.get_vocab_size()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--shape", choices=["tiny", "smol135"], required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--max-cache", type=int, default=128)
    ap.add_argument("--prompt-len", type=int, default=64)
    args = ap.parse_args()
    # The tiny shape gets a 512-token vocabulary: a byte-level tokenizer has 257 tokens already.
    shape = dict(llm_models.TINY, vocab_size=512) if args.shape == "tiny" else llm_models.SMOL135
    os.makedirs(args.out, exist_ok=True)
    hf_dir = os.path.join(args.out, "hf")

    module = llm_models.HfExportable("smollm", shape, args.max_cache).eval()
    hf_model = module.inner.model
    hf_model.save_pretrained(hf_dir)
    learned = train_tokenizer(shape["vocab_size"], hf_dir)
    print("tokenizer: %d learned tokens of %d" % (learned, shape["vocab_size"]), flush=True)

    tokens = torch.randint(0, 100, (1, 5))
    positions = torch.arange(5)
    seq = torch.export.Dim("seq", min=1, max=args.max_cache)
    with torch.no_grad():
        ep = torch.export.export(module, (tokens, positions),
                                 dynamic_shapes=({1: seq}, {0: seq}), strict=True)
    torch.export.save(ep, os.path.join(args.out, "model.pt2"))

    gen = torch.Generator().manual_seed(7)
    prompt = torch.randint(0, shape["vocab_size"], (args.prompt_len,), generator=gen)
    with open(os.path.join(args.out, "prompt_ids.txt"), "w") as f:
        f.write(",".join(str(int(t)) for t in prompt) + "\n")
    print("wrote", args.out, flush=True)


if __name__ == "__main__":
    main()
