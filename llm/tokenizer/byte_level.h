// GPT-2's byte-level alphabet: every byte value maps to one printable code point, so a
// byte-level BPE vocabulary stores arbitrary bytes as printable strings. The printable bytes
// '!'..'~', 0xA1..0xAC and 0xAE..0xFF map to themselves; the other 68 bytes map, in increasing
// order, to U+0100, U+0101, ... (the table of GPT-2's encoder.py, a fact of the format).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace ember::llm {

// The code point byte `b` is written as in a byte-level vocabulary.
uint32_t byte_to_code_point(uint8_t b);

// The byte a code point stands for, or -1 if it is not in the byte-level alphabet.
int code_point_to_byte(uint32_t code_point);

// `bytes` written in the byte-level alphabet (UTF-8).
std::string bytes_to_byte_level(std::string_view bytes);

// The bytes a byte-level string stands for; false if `text` is not valid UTF-8 or holds a code
// point outside the alphabet (`out` is then unspecified).
bool byte_level_to_bytes(std::string_view text, std::string* out);

}  // namespace ember::llm
