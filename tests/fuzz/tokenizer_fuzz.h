// The entry point of the tokenizer_fuzz target (tokenizer_fuzz.cc), for the in-suite test.
#pragma once

#include <cstddef>
#include <cstdint>

#include "runtime/core/error.h"

namespace ember::fuzz {

// One fuzz input: the first byte picks the reader (0 tokenizer.json, 1 tiktoken rank file,
// 2 SentencePiece .model, 3 text to encode with a fixed byte-level tokenizer.json), the rest is
// its bytes. A file that loads is then used: fixed edge-case text is encoded and decoded, and
// ids at the vocabulary's edges are decoded. Ok, or the reader's named error.
runtime::Error tokenizer_fuzz_input(const uint8_t* data, size_t size);

}  // namespace ember::fuzz
