"""Runs Debian's llama.cpp converter (convert_hf_to_gguf.py) on a model whose tokenizer was
trained here (make_models.py): the converter identifies a BPE pre-tokenizer by hashing how it
splits a fixed text and refuses hashes it does not know, so an unknown one is mapped to "gpt-2"
(our tokenizer is GPT-2's byte-level split). Everything else is the converter as shipped.
Usage (sid chroot): convert_gguf.py HF_DIR --outtype f32 --outfile OUT.gguf
"""
import runpy
import sys

SCRIPT = "/usr/share/doc/llama.cpp-tools/scripts/convert_hf_to_gguf.py"

sys.path.insert(1, "/usr/share/llama.cpp/llama.cpp-tools")
from conversion import base  # noqa: E402

_original = base.TextModel.get_vocab_base_pre


def _gpt2_when_unknown(self, tokenizer):
    try:
        return _original(self, tokenizer)
    except NotImplementedError:
        return "gpt-2"


base.TextModel.get_vocab_base_pre = _gpt2_when_unknown
sys.argv = [SCRIPT] + sys.argv[1:]
runpy.run_path(SCRIPT, run_name="__main__")
