// UTF-8 helpers shared by the tokenizers and the text streamer. Every tokenizer takes bytes; an
// invalid sequence is replaced by U+FFFD the way Python's bytes.decode("utf-8", "replace") and
// Rust's String::from_utf8_lossy do (one U+FFFD per maximal subpart, Unicode 15 section 3.9), so
// that a line Python reads with errors="replace" and the same raw bytes given to Ember encode to
// the same ids.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace ember::llm {

// Length of the valid UTF-8 sequence starting at text[i], or 0 if the bytes there do not start
// a valid (complete, shortest-form, non-surrogate, <= U+10FFFF) sequence.
size_t valid_utf8_length(std::string_view text, size_t i);

// Length of the maximal subpart at text[i] (the bytes one U+FFFD replaces); >= 1. Only
// meaningful where valid_utf8_length(text, i) == 0.
size_t invalid_utf8_length(std::string_view text, size_t i);

// True if every byte of `text` belongs to a valid UTF-8 sequence.
bool is_valid_utf8(std::string_view text);

// `text` with every maximal invalid subpart replaced by U+FFFD (EF BF BD).
std::string sanitize_utf8(std::string_view text);

// Length of the longest prefix of `text` that does not end inside an incomplete (but so far
// valid) UTF-8 sequence: what a streamer may print now. Invalid bytes count as complete.
size_t complete_utf8_prefix(std::string_view text);

// Appends the UTF-8 encoding of `code_point` (<= 0x10FFFF, not a surrogate) to `out`.
void append_utf8(uint32_t code_point, std::string* out);

// Decodes the valid sequence of `length` bytes at text[i] (see valid_utf8_length).
uint32_t decode_utf8(std::string_view text, size_t i, size_t length);

}  // namespace ember::llm
