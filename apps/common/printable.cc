// printable / json_quoted (see printable.h).
#include "apps/common/printable.h"

#include <cstdint>
#include <cstdio>

namespace ember::apps {
namespace {

// Length of the valid UTF-8 sequence at text[i] and its code point; 0 if invalid.
size_t utf8_sequence(std::string_view text, size_t i, uint32_t* code_point) {
  const auto byte = [&](size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char b0 = byte(i);
  size_t n;
  uint32_t cp;
  unsigned char lo = 0x80, hi = 0xbf;  // allowed range of the second byte
  if (b0 < 0x80) {
    *code_point = b0;
    return 1;
  } else if (b0 >= 0xc2 && b0 <= 0xdf) {
    n = 2, cp = b0 & 0x1f;
  } else if (b0 >= 0xe0 && b0 <= 0xef) {
    n = 3, cp = b0 & 0x0f;
    if (b0 == 0xe0) lo = 0xa0;  // no overlong forms
    if (b0 == 0xed) hi = 0x9f;  // no surrogates
  } else if (b0 >= 0xf0 && b0 <= 0xf4) {
    n = 4, cp = b0 & 0x07;
    if (b0 == 0xf0) lo = 0x90;  // no overlong forms
    if (b0 == 0xf4) hi = 0x8f;  // nothing above U+10FFFF
  } else {
    return 0;
  }
  if (i + n > text.size()) return 0;
  for (size_t k = 1; k < n; ++k) {
    const unsigned char b = byte(i + k);
    if (k == 1 ? (b < lo || b > hi) : (b < 0x80 || b > 0xbf)) return 0;
    cp = (cp << 6) | (b & 0x3f);
  }
  *code_point = cp;
  return n;
}

// Code points above ASCII that must not reach a terminal or log as themselves.
bool is_unsafe_code_point(uint32_t cp) {
  return (cp >= 0x80 && cp <= 0x9f) || cp == 0x200e || cp == 0x200f ||
         (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069) || cp == 0x2028 ||
         cp == 0x2029;
}

void append_hex(std::string* out, const char* format, unsigned value) {
  char buf[16];
  std::snprintf(buf, sizeof(buf), format, value);
  *out += buf;
}

// Shared walk: `json` selects json_quoted's escapes; `quotes` whether '"' and '\' are escaped.
std::string escape(std::string_view text, bool json, bool quotes = true) {
  std::string out;
  out.reserve(text.size() + 2);
  for (size_t i = 0; i < text.size();) {
    uint32_t cp = 0;
    const size_t n = utf8_sequence(text, i, &cp);
    if (n == 0) {  // one byte of an invalid sequence
      append_hex(&out, json ? "\\\\x%02x" : "\\x%02x", static_cast<unsigned char>(text[i]));
      ++i;
      continue;
    }
    if (quotes && (cp == '"' || cp == '\\')) {
      out += '\\';
      out += static_cast<char>(cp);
    } else if (cp < 0x20 || cp == 0x7f) {
      append_hex(&out, json ? "\\u%04x" : "\\x%02x", cp);
    } else if (is_unsafe_code_point(cp)) {
      append_hex(&out, "\\u%04x", cp);
    } else {
      out.append(text.data() + i, n);
    }
    i += n;
  }
  return out;
}

}  // namespace

std::string printable(std::string_view text) { return escape(text, false); }

std::string printable_message(std::string_view text) { return escape(text, false, false); }

std::string json_quoted(std::string_view text) { return "\"" + escape(text, true) + "\""; }

}  // namespace ember::apps
