#pragma once
/// @file The one UTF-8 check every reader shares (YAML files, console lines, journal text).

#include <cstddef>
#include <optional>
#include <string_view>

namespace duels {

/// The offset of the first byte that does not belong to well-formed UTF-8 (no overlong forms,
/// no surrogates, nothing past U+10FFFF, no sequence cut short), or nullopt when all is.
std::optional<std::size_t> first_bad_utf8(std::string_view text);

/// True when `text` is well-formed UTF-8.
inline bool valid_utf8(std::string_view text) {
  return !first_bad_utf8(text).has_value();
}

}  // namespace duels
