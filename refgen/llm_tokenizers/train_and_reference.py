#!/usr/bin/env python3
"""Trains the agreement tokenizers and writes Python's reference ids and decoded text.

Runs in the sid chroot (python3-tokenizers, python3-sentencepiece + spm_train, python3-tiktoken):

  EMBER_EXTRA_BIND=/tmp/ember_tok refgen/torch_env/run.sh sid \\
      refgen/llm_tokenizers/train_and_reference.py /tmp/ember_tok [--sample_dir llm/tokenizer/testdata]

Reads OUT_DIR/corpus.bin (make_corpus.py). Trains, on that corpus, one tokenizer per family
shape Ember reads (vocabularies are small so the committed files stay small; the merge rules and
split regexes are the families' own):
  gpt2      tokenizer.json: ByteLevel(use_regex) pre-tokenizer, <|endoftext|>
  llama3    tokenizer.json: Llama 3's split regex + ByteLevel, ignore_merges, BOS template
  qwen      tokenizer.json: NFC + Qwen2's split regex + ByteLevel, ChatML specials
  smollm    tokenizer.json: Digits(individual) + ByteLevel(use_regex)
  llama2    tokenizer.json: Prepend/Replace normalizer, character BPE with byte fallback, the
            Replace/ByteFallback/Fuse/Strip decoder (the SentencePiece-converted layout)
  spm_unigram, spm_bpe   SentencePiece .model files from spm_train (byte_fallback on)
  tiktoken  a rank file made from gpt2's vocabulary (rank = id), cl100k's split regex
Then encodes every record (bytes decoded with errors="replace", as Ember reads bytes) and decodes
the ids, writing OUT_DIR/<name>.ref: one JSON line per record, [ids, decoded text]. The
tokenizer files go to OUT_DIR too. With --sample_dir, the committed sample (a subset of records
plus their references and the tokenizer files) is written there.
"""
import argparse
import base64
import json
import os
import subprocess

import sentencepiece as spm
import tiktoken
from tokenizers import Regex, Tokenizer, decoders, models, normalizers, pre_tokenizers, processors, trainers

SEP = b"\x1e\n"
VOCAB = 2000
LLAMA3_REGEX = (r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*"
                r"|\s*[\r\n]+|\s+(?!\S)|\s+")
QWEN_REGEX = (r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*"
              r"|\s*[\r\n]+|\s+(?!\S)|\s+")
CL100K = (r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+"""
          r"""|\s++$|\s*[\r\n]|\s+(?!\S)|\s""")


def records(path):
    with open(path, "rb") as f:
        data = f.read()
    recs = data.split(SEP)
    if recs and recs[-1] == b"":
        recs.pop()
    return recs


def byte_level_bpe(texts, pre, specials, normalizer=None, ignore_merges=False, template=None):
    tok = Tokenizer(models.BPE(ignore_merges=ignore_merges))
    if normalizer is not None:
        tok.normalizer = normalizer
    tok.pre_tokenizer = pre
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=VOCAB, special_tokens=specials,
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet(), show_progress=False)
    tok.train_from_iterator(texts, trainer)
    if template is not None:
        bos = template
        tok.post_processor = processors.TemplateProcessing(
            single=f"{bos} $A", special_tokens=[(bos, tok.token_to_id(bos))])
    else:
        tok.post_processor = processors.ByteLevel(trim_offsets=False)
    return tok


def llama2_bpe(texts):
    fallback = [f"<0x{b:02X}>" for b in range(256)]
    tok = Tokenizer(models.BPE(unk_token="<unk>", byte_fallback=True, fuse_unk=True))
    tok.normalizer = normalizers.Sequence([normalizers.Prepend("▁"), normalizers.Replace(" ", "▁")])
    tok.pre_tokenizer = pre_tokenizers.Metaspace(replacement="▁", prepend_scheme="never", split=True)
    trainer = trainers.BpeTrainer(vocab_size=VOCAB, special_tokens=["<unk>", "<s>", "</s>"] + fallback,
                                  limit_alphabet=200, show_progress=False)
    tok.train_from_iterator(texts, trainer)
    # The Llama 2 layout: no pre-tokenizer (the whole segment is one word), byte tokens in the
    # vocabulary only, the SentencePiece-style decoder, a BOS template.
    spec = json.loads(tok.to_str())
    spec["pre_tokenizer"] = None
    spec["added_tokens"] = [t for t in spec["added_tokens"] if t["content"] in ("<unk>", "<s>", "</s>")]
    spec["decoder"] = {"type": "Sequence", "decoders": [
        {"type": "Replace", "pattern": {"String": "▁"}, "content": " "},
        {"type": "ByteFallback"}, {"type": "Fuse"},
        {"type": "Strip", "content": " ", "start": 1, "stop": 0}]}
    spec["post_processor"] = {"type": "TemplateProcessing",
                              "single": [{"SpecialToken": {"id": "<s>", "type_id": 0}},
                                         {"Sequence": {"id": "A", "type_id": 0}}],
                              "pair": [{"Sequence": {"id": "A", "type_id": 0}},
                                       {"Sequence": {"id": "B", "type_id": 1}}],
                              "special_tokens": {"<s>": {"id": "<s>", "ids": [tok.token_to_id("<s>")],
                                                         "tokens": ["<s>"]}}}
    return Tokenizer.from_str(json.dumps(spec))


def train_hf(texts):
    bl = pre_tokenizers.ByteLevel
    return {
        "gpt2": byte_level_bpe(texts, bl(add_prefix_space=False, use_regex=True), ["<|endoftext|>"]),
        "llama3": byte_level_bpe(
            texts, pre_tokenizers.Sequence([pre_tokenizers.Split(Regex(LLAMA3_REGEX), "isolated"),
                                            bl(add_prefix_space=False, use_regex=False)]),
            ["<|begin_of_text|>", "<|end_of_text|>", "<|eot_id|>"], ignore_merges=True,
            template="<|begin_of_text|>"),
        "qwen": byte_level_bpe(
            texts, pre_tokenizers.Sequence([pre_tokenizers.Split(Regex(QWEN_REGEX), "isolated"),
                                            bl(add_prefix_space=False, use_regex=False)]),
            ["<|endoftext|>", "<|im_start|>", "<|im_end|>"], normalizer=normalizers.NFC()),
        "smollm": byte_level_bpe(
            texts, pre_tokenizers.Sequence([pre_tokenizers.Digits(individual_digits=True),
                                            bl(add_prefix_space=False, use_regex=True)]),
            ["<|endoftext|>", "<|im_start|>", "<|im_end|>"]),
        "llama2": llama2_bpe(texts),
    }


def train_spm(out_dir, texts):
    train_txt = os.path.join(out_dir, "spm_train.txt")
    with open(train_txt, "w", encoding="utf-8") as f:
        for t in texts:
            f.write(t.replace("\n", " ").replace("\r", " ") + "\n")
    paths = {}
    for kind in ("unigram", "bpe"):
        prefix = os.path.join(out_dir, f"spm_{kind}")
        subprocess.run(["spm_train", f"--input={train_txt}", f"--model_prefix={prefix}",
                        f"--vocab_size={VOCAB}", f"--model_type={kind}", "--byte_fallback=true",
                        "--character_coverage=0.9995", "--input_sentence_size=300000",
                        "--shuffle_input_sentence=true", "--seed_sentencepiece_size=200000"],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        paths[f"spm_{kind}"] = prefix + ".model"
    return paths


def write_tiktoken(path, gpt2):
    byte_decoder = {c: b for b, c in _bytes_to_unicode().items()}
    special = {t.content for t in gpt2.get_added_tokens_decoder().values()}
    ranks = {}
    for token, idx in gpt2.get_vocab(with_added_tokens=False).items():
        if token in special:
            continue
        ranks[bytes(byte_decoder[c] for c in token)] = idx
    with open(path, "w") as f:
        for token, rank in sorted(ranks.items(), key=lambda kv: kv[1]):
            f.write(f"{base64.b64encode(token).decode()} {rank}\n")
    specials = {"<|endoftext|>": max(ranks.values()) + 1}
    return tiktoken.Encoding("ember_test", pat_str=CL100K, mergeable_ranks=ranks, special_tokens=specials), specials


def _bytes_to_unicode():
    bs = list(range(ord("!"), ord("~") + 1)) + list(range(0xA1, 0xAD)) + list(range(0xAE, 0x100))
    cs = bs[:]
    n = 0
    for b in range(256):
        if b not in bs:
            bs.append(b)
            cs.append(256 + n)
            n += 1
    return dict(zip(bs, map(chr, cs)))


def write_refs(path, texts, encode, decode):
    with open(path, "w") as f:
        for ids in encode(texts):
            f.write(json.dumps([ids, decode(ids)]) + "\n")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("out_dir")
    parser.add_argument("--sample_dir")
    parser.add_argument("--reuse", action="store_true",
                        help="keep tokenizer.json files and references already in OUT_DIR")
    args = parser.parse_args()
    recs = records(os.path.join(args.out_dir, "corpus.bin"))
    texts = [r.decode("utf-8", "replace") for r in recs]
    files = {}
    hf_names = ["gpt2", "llama3", "qwen", "smollm", "llama2"]
    done = [n for n in hf_names if args.reuse and os.path.exists(os.path.join(args.out_dir, f"{n}.ref"))]
    for n in done:
        files[n] = os.path.join(args.out_dir, f"{n}.json")
    for name, tok in (train_hf(texts).items() if len(done) < len(hf_names) else []):
        files[name] = os.path.join(args.out_dir, f"{name}.json")
        tok.save(files[name])
        tok = Tokenizer.from_file(files[name])
        write_refs(os.path.join(args.out_dir, f"{name}.ref"), texts,
                   lambda ts, tok=tok: [e.ids for e in tok.encode_batch(ts, add_special_tokens=True)],
                   lambda ids, tok=tok: tok.decode(ids, skip_special_tokens=False))
        print(name, "done", flush=True)
    spm_names = ["spm_unigram", "spm_bpe"]
    if args.reuse and all(os.path.exists(os.path.join(args.out_dir, f"{n}.ref")) for n in spm_names):
        spm_paths = {n: os.path.join(args.out_dir, f"{n}.model") for n in spm_names}
        files.update(spm_paths)
        spm_paths = {}
    else:
        spm_paths = train_spm(args.out_dir, texts)
    for name, path in spm_paths.items():
        files[name] = path
        sp = spm.SentencePieceProcessor(model_file=path)
        write_refs(os.path.join(args.out_dir, f"{name}.ref"), texts,
                   lambda ts, sp=sp: [sp.encode(t) for t in ts], lambda ids, sp=sp: sp.decode(ids))
        print(name, "done", flush=True)
    files["tiktoken"] = os.path.join(args.out_dir, "tiktoken.tiktoken")
    if not (args.reuse and os.path.exists(os.path.join(args.out_dir, "tiktoken.ref"))):
        enc, specials = write_tiktoken(files["tiktoken"], Tokenizer.from_file(files["gpt2"]))
        with open(os.path.join(args.out_dir, "tiktoken.specials.json"), "w") as f:
            json.dump({"pattern": CL100K, "special_tokens": specials}, f)
        write_refs(os.path.join(args.out_dir, "tiktoken.ref"), texts,
                   lambda ts: enc.encode_batch(ts, allowed_special="all", num_threads=1),
                   lambda ids: enc.decode(ids))
        print("tiktoken done", flush=True)
    if args.sample_dir:
        write_sample(args.out_dir, args.sample_dir, recs, files)


def write_sample(out_dir, sample_dir, recs, files):
    """Every 400th record and every 16th edge case (records 7 mod 8), with their references."""
    os.makedirs(sample_dir, exist_ok=True)
    keep = [i for i in range(len(recs)) if i % 400 == 0 or i % 128 == 7]
    with open(os.path.join(sample_dir, "sample_corpus.bin"), "wb") as f:
        for i in keep:
            f.write(recs[i] + SEP)
    for name, path in files.items():
        with open(os.path.join(out_dir, f"{name}.ref")) as f:
            lines = f.readlines()
        with open(os.path.join(sample_dir, f"{name}.ref"), "w") as f:
            f.writelines(lines[i] for i in keep)
        ext = os.path.splitext(path)[1]
        with open(path, "rb") as src, open(os.path.join(sample_dir, name + ext), "wb") as dst:
            dst.write(src.read())
    with open(os.path.join(out_dir, "tiktoken.specials.json"), "rb") as src, \
            open(os.path.join(sample_dir, "tiktoken.specials.json"), "wb") as dst:
        dst.write(src.read())
    print(f"sample: {len(keep)} records in {sample_dir}")


if __name__ == "__main__":
    main()
