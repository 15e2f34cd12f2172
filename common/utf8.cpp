#include "common/utf8.hpp"

namespace duels {

std::optional<std::size_t> first_bad_utf8(std::string_view text) {
  const std::size_t n = text.size();
  std::size_t i = 0;
  while (i < n) {
    const auto c = static_cast<unsigned char>(text[i]);
    std::size_t extra = 0;
    if (c < 0x80) {
      ++i;
      continue;
    }
    if (c >= 0xC2 && c <= 0xDF) {
      extra = 1;
    } else if (c >= 0xE0 && c <= 0xEF) {
      extra = 2;
    } else if (c >= 0xF0 && c <= 0xF4) {
      extra = 3;
    } else {
      return i;  // a continuation byte first, an overlong 2-byte lead, or past U+10FFFF
    }
    if (i + extra >= n) return i;
    for (std::size_t k = 1; k <= extra; ++k) {
      if ((static_cast<unsigned char>(text[i + k]) & 0xC0U) != 0x80U) return i;
    }
    // The second byte's range rules out overlong 3- and 4-byte forms, surrogates (U+D800 to
    // U+DFFF) and code points past U+10FFFF.
    const auto next = static_cast<unsigned char>(text[i + 1]);
    if ((c == 0xE0 && next < 0xA0) || (c == 0xED && next > 0x9F) || (c == 0xF0 && next < 0x90) ||
        (c == 0xF4 && next > 0x8F)) {
      return i;
    }
    i += extra + 1;
  }
  return std::nullopt;
}

}  // namespace duels
