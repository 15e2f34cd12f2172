#pragma once
/// @file The dice notation used everywhere (CLI, YAML, GUI).
///
///   yellow:d8          one yellow eight-sider
///   yellow:d6:ace      a yellow six-sider whose 1 is an ace
///   2xwhite:d6         two white six-siders
///   yellow:d8=5        a rolled result
///   yellow:d6:ace=ace  a rolled ace
///   2xwhite:d6=3,5     two rolled results
/// A pool is tokens separated by white space.

#include <string>
#include <string_view>
#include <vector>

#include "common/error.hpp"
#include "dice/die.hpp"

namespace duels::dice {

/// A notation mistake: the text, where the bad token starts, its length and what was expected.
struct NotationError {
  std::string text;
  std::size_t position = 0;
  std::size_t length = 0;
  std::string expected;

  /// "bad dice notation 'x:d7': expected …" followed by the text and a caret under the token.
  [[nodiscard]] std::string message() const;
  /// As a DataError for loaders (`field` names where the notation came from).
  [[nodiscard]] DataError as_data_error(std::string file, int line, std::string field) const;
};

/// Parses dice without results ("yellow:d8 2xwhite:d6").
Expected<std::vector<Die>, NotationError> parse_pool(std::string_view text);
/// Parses rolled dice ("yellow:d8=5 yellow:d6:ace=ace").
Expected<std::vector<Roll>, NotationError> parse_rolls(std::string_view text);

/// "yellow:d6:ace"
std::string to_notation(const Die& die);
/// "yellow:d6:ace=ace", "blue:d8=3"
std::string to_notation(const Roll& roll);
/// Space-separated, identical dice grouped as "2xwhite:d6".
std::string to_notation(const std::vector<Die>& dice);
std::string to_notation(const std::vector<Roll>& rolls);

}  // namespace duels::dice
