#include "llm/tokenizer/utf8.h"

namespace ember::llm {
namespace {

uint8_t byte_at(std::string_view text, size_t i) { return static_cast<uint8_t>(text[i]); }

// Expected sequence length for a lead byte, 0 if it cannot start a sequence.
size_t lead_length(uint8_t b) {
  if (b < 0x80) return 1;
  if (b >= 0xC2 && b <= 0xDF) return 2;
  if (b >= 0xE0 && b <= 0xEF) return 3;
  if (b >= 0xF0 && b <= 0xF4) return 4;
  return 0;
}

// The allowed range of the second byte for a lead byte (Unicode Table 3-7).
bool second_ok(uint8_t lead, uint8_t b) {
  if (lead == 0xE0) return b >= 0xA0 && b <= 0xBF;
  if (lead == 0xED) return b >= 0x80 && b <= 0x9F;
  if (lead == 0xF0) return b >= 0x90 && b <= 0xBF;
  if (lead == 0xF4) return b >= 0x80 && b <= 0x8F;
  return b >= 0x80 && b <= 0xBF;
}

// Number of bytes at text[i] that form a valid prefix of a sequence (>= 1 if the lead is
// valid), and the expected total length.
size_t valid_prefix(std::string_view text, size_t i, size_t* expected) {
  const uint8_t lead = byte_at(text, i);
  *expected = lead_length(lead);
  if (*expected == 0) return 0;
  size_t n = 1;
  while (n < *expected && i + n < text.size()) {
    const uint8_t b = byte_at(text, i + n);
    const bool ok = n == 1 ? second_ok(lead, b) : (b >= 0x80 && b <= 0xBF);
    if (!ok) break;
    ++n;
  }
  return n;
}

}  // namespace

size_t valid_utf8_length(std::string_view text, size_t i) {
  size_t expected = 0;
  const size_t n = valid_prefix(text, i, &expected);
  return (expected != 0 && n == expected) ? n : 0;
}

size_t invalid_utf8_length(std::string_view text, size_t i) {
  size_t expected = 0;
  const size_t n = valid_prefix(text, i, &expected);
  return n == 0 ? 1 : n;
}

bool is_valid_utf8(std::string_view text) {
  for (size_t i = 0; i < text.size();) {
    if (byte_at(text, i) < 0x80) {
      ++i;
      continue;
    }
    const size_t n = valid_utf8_length(text, i);
    if (n == 0) return false;
    i += n;
  }
  return true;
}

std::string sanitize_utf8(std::string_view text) {
  if (is_valid_utf8(text)) return std::string(text);
  std::string out;
  out.reserve(text.size() + 16);
  for (size_t i = 0; i < text.size();) {
    const size_t n = valid_utf8_length(text, i);
    if (n != 0) {
      out.append(text.substr(i, n));
      i += n;
    } else {
      out.append("\xEF\xBF\xBD");
      i += invalid_utf8_length(text, i);
    }
  }
  return out;
}

size_t complete_utf8_prefix(std::string_view text) {
  // Only the last 3 bytes can hold an incomplete sequence.
  const size_t start = text.size() > 3 ? text.size() - 3 : 0;
  for (size_t i = start; i < text.size(); ++i) {
    size_t expected = 0;
    const size_t n = valid_prefix(text, i, &expected);
    if (expected > 1 && n >= 1 && n < expected && i + n == text.size()) return i;
  }
  return text.size();
}

void append_utf8(uint32_t c, std::string* out) {
  if (c < 0x80) {
    out->push_back(static_cast<char>(c));
  } else if (c < 0x800) {
    out->push_back(static_cast<char>(0xC0 | (c >> 6)));
    out->push_back(static_cast<char>(0x80 | (c & 0x3F)));
  } else if (c < 0x10000) {
    out->push_back(static_cast<char>(0xE0 | (c >> 12)));
    out->push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (c & 0x3F)));
  } else {
    out->push_back(static_cast<char>(0xF0 | (c >> 18)));
    out->push_back(static_cast<char>(0x80 | ((c >> 12) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (c & 0x3F)));
  }
}

uint32_t decode_utf8(std::string_view text, size_t i, size_t length) {
  const uint8_t lead = byte_at(text, i);
  if (length == 1) return lead;
  uint32_t c = lead & (0xFF >> (length + 1));
  for (size_t k = 1; k < length; ++k) c = (c << 6) | (byte_at(text, i + k) & 0x3F);
  return c;
}

}  // namespace ember::llm
