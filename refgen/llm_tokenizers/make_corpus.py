#!/usr/bin/env python3
"""Builds the tokenizer agreement corpus (>= 10 MB of bytes, not committed).

Runs on the host (the chroot cannot see /usr/share/doc): no third-party modules.

  python3 refgen/llm_tokenizers/make_corpus.py OUT_DIR [--min_bytes 10500000]

Writes OUT_DIR/corpus.bin: records separated by b"\\x1e\\n" (ASCII record separator + newline).
A record is either a paragraph of the Debian documentation installed on the machine
(/usr/share/doc: README, changelog, copyright, *.txt/*.md, gzip-compressed or not; blank-line
separated, indentation and whitespace kept) or a generated edge case (emoji and ZWJ sequences,
CJK and other scripts, combining marks, invalid UTF-8, whitespace runs, digits, contractions,
special-token text), deterministic from a fixed seed. Every 8th record is an edge case.
"""
import argparse
import gzip
import os
import random

SEP = b"\x1e\n"


def doc_files(root="/usr/share/doc"):
    for dirpath, _, names in sorted(os.walk(root)):
        for name in sorted(names):
            path = os.path.join(dirpath, name)
            if os.path.islink(path) or not os.path.isfile(path):
                continue
            base = name[:-3] if name.endswith(".gz") else name
            if base.startswith(("README", "changelog", "copyright", "NEWS", "TODO")) or base.endswith(
                    (".txt", ".md", ".rst", ".html")):
                yield path


def read(path):
    try:
        if path.endswith(".gz"):
            with gzip.open(path, "rb") as f:
                return f.read(4 << 20)
        with open(path, "rb") as f:
            return f.read(4 << 20)
    except (OSError, EOFError):
        return b""


def paragraphs(data):
    for para in data.split(b"\n\n"):
        if para.strip() and SEP not in para:
            yield para


EMOJI = ["😀", "👍🏽", "👩‍👩‍👧‍👦", "🇫🇷", "🏳️‍🌈", "❤️", "🤖", "🧑🏿‍🚀", "1️⃣", "🫠"]
SCRIPTS = ["中文分词测试，句号。", "日本語のテキストです", "한국어 텍스트", "Ελληνικά κείμενο",
           "Русский текст", "العربية نص", "हिन्दी पाठ", "ไทยข้อความ", "עברית", "Tiếng Việt có dấu"]
COMBINING = ["e\u0301", "a\u0308\u0304", "n\u0303", "Z\u0351\u0324\u0300\u0336", "\u1100\u1161\u11A8",
             "A\u030A", "\u212B", "ﬁ", "Ａ１", "①②"]
SPACES = [" ", "  ", "\t", "\n", "\r\n", "\u00a0", "\u3000", "\u2028", "\u0085", "\u2009", "\u200b",
          "   \t  ", "\n\n\n", " \r "]
WORDS = ["it's", "IT'S", "we'LL", "they've", "I'd", "don't", "naïve", "café", "Straße", "ſ",
         "KELVIN\u212a", "x86_64", "0.5", "12345678", "3.14159", "1,000,000", "foo_bar", "<|endoftext|>",
         "<|im_start|>user", "<s>", "</s>", "hello", "world", "<0x41>", "▁", "Ġ", "@@", "##"]
INVALID = [b"\xff", b"\xfe\xfe", b"\xc0\xaf", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\xe2\x82",
           b"\xf0\x9f\x98", b"\x80", b"\xc3", b"\xbf\xbf"]


def edge_case(rng):
    parts = []
    for _ in range(rng.randint(1, 24)):
        kind = rng.random()
        if kind < 0.15:
            parts.append(rng.choice(EMOJI).encode())
        elif kind < 0.3:
            parts.append(rng.choice(SCRIPTS).encode())
        elif kind < 0.42:
            parts.append(rng.choice(COMBINING).encode())
        elif kind < 0.6:
            parts.append(rng.choice(SPACES).encode() * rng.randint(1, 4))
        elif kind < 0.8:
            parts.append(rng.choice(WORDS).encode())
        elif kind < 0.9:
            parts.append(rng.choice(INVALID))
        elif kind < 0.95:
            parts.append(bytes(rng.randrange(256) for _ in range(rng.randint(1, 6))).replace(b"\x1e", b""))
        else:
            parts.append(chr(rng.choice([rng.randint(0x20, 0x7e), rng.randint(0xa0, 0x2fff),
                                         rng.randint(0x4e00, 0x9fff), rng.randint(0x1f300, 0x1faff)])).encode())
    return b"".join(parts)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("out_dir")
    parser.add_argument("--min_bytes", type=int, default=10_500_000)
    args = parser.parse_args()
    os.makedirs(args.out_dir, exist_ok=True)
    rng = random.Random(20261127)
    total = 0
    records = 0
    with open(os.path.join(args.out_dir, "corpus.bin"), "wb") as out:
        for path in doc_files():
            for para in paragraphs(read(path)):
                if records % 8 == 7:
                    rec = edge_case(rng)
                    out.write(rec + SEP)
                    total += len(rec) + len(SEP)
                    records += 1
                out.write(para + SEP)
                total += len(para) + len(SEP)
                records += 1
            if total >= args.min_bytes:
                break
    print(f"corpus: {records} records, {total} bytes")
    if total < args.min_bytes:
        raise SystemExit(f"only {total} bytes of documentation found")


if __name__ == "__main__":
    main()
