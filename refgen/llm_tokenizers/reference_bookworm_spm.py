#!/usr/bin/python3
"""References for the SentencePiece models from Debian 12's own Python binding (0.1.97, the same
library version //llm/tokenizer links), to tell a library-version difference from a wrapper bug.

Runs on the host with Debian's python3 and python3-sentencepiece (not the sid chroot):

  /usr/bin/python3 refgen/llm_tokenizers/reference_bookworm_spm.py /tmp/ember_tok

Writes OUT_DIR/bookworm/{corpus.bin,spm_*.model} (symlinks) and spm_*.ref, for
`agreement_check OUT_DIR/bookworm spm_unigram spm_bpe`.
"""
import json
import os
import sys

import sentencepiece as spm


def main():
    out = sys.argv[1]
    sub = os.path.join(out, "bookworm")
    os.makedirs(sub, exist_ok=True)
    for name in ("corpus.bin", "spm_unigram.model", "spm_bpe.model"):
        link = os.path.join(sub, name)
        if not os.path.exists(link):
            os.symlink(os.path.join(out, name), link)
    with open(os.path.join(out, "corpus.bin"), "rb") as f:
        recs = f.read().split(b"\x1e\n")
    if recs and recs[-1] == b"":
        recs.pop()
    texts = [r.decode("utf-8", "replace") for r in recs]
    for name in ("spm_unigram", "spm_bpe"):
        sp = spm.SentencePieceProcessor(model_file=os.path.join(out, name + ".model"))
        with open(os.path.join(sub, name + ".ref"), "w") as f:
            for t in texts:
                ids = sp.encode(t)
                f.write(json.dumps([ids, sp.decode(ids)]) + "\n")
        print(name, "sentencepiece", spm.__version__, "done", flush=True)


if __name__ == "__main__":
    main()
