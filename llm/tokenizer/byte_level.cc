#include "llm/tokenizer/byte_level.h"

#include <array>

#include "llm/tokenizer/utf8.h"

namespace ember::llm {
namespace {

bool printable(int b) {
  return (b >= '!' && b <= '~') || (b >= 0xA1 && b <= 0xAC) || (b >= 0xAE && b <= 0xFF);
}

struct Tables {
  std::array<uint32_t, 256> to_cp{};
  std::array<int16_t, 324> to_byte{};  // code points < 324 cover the whole alphabet
  Tables() {
    to_byte.fill(-1);
    uint32_t next = 256;
    for (int b = 0; b < 256; ++b) {
      to_cp[b] = printable(b) ? static_cast<uint32_t>(b) : next++;
      to_byte[to_cp[b]] = static_cast<int16_t>(b);
    }
  }
};

const Tables& tables() {
  static const Tables t;
  return t;
}

}  // namespace

uint32_t byte_to_code_point(uint8_t b) { return tables().to_cp[b]; }

int code_point_to_byte(uint32_t code_point) {
  return code_point < tables().to_byte.size() ? tables().to_byte[code_point] : -1;
}

std::string bytes_to_byte_level(std::string_view bytes) {
  std::string out;
  out.reserve(bytes.size() * 2);
  for (char c : bytes) append_utf8(byte_to_code_point(static_cast<uint8_t>(c)), &out);
  return out;
}

bool byte_level_to_bytes(std::string_view text, std::string* out) {
  out->clear();
  for (size_t i = 0; i < text.size();) {
    const size_t n = valid_utf8_length(text, i);
    if (n == 0) return false;
    const int b = code_point_to_byte(decode_utf8(text, i, n));
    if (b < 0) return false;
    out->push_back(static_cast<char>(b));
    i += n;
  }
  return true;
}

}  // namespace ember::llm
