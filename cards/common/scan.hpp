#pragma once
/// @file Notation scanning the card games share: pieces of a spec with their byte offsets, words
/// and splits that keep them, and errors that point a caret at the bad token. Each game keeps
/// only its notation table (what the words mean) in its own notation.cpp.

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/error.hpp"

namespace duels::cards::scan {

/// A piece of the input text with its byte offset in the whole spec.
struct Piece {
  std::size_t pos = 0;
  std::string_view text;
};

inline bool is_space(char c) {
  return std::isspace(static_cast<unsigned char>(c)) != 0;
}

/// `p` without the white space at either end (the offset follows).
inline Piece trim(Piece p) {
  while (!p.text.empty() && is_space(p.text.front())) {
    p.text.remove_prefix(1);
    ++p.pos;
  }
  while (!p.text.empty() && is_space(p.text.back()))
    p.text.remove_suffix(1);
  return p;
}

/// Splits on any of `separators`, keeping empty pieces (so "a;;b" has an empty middle piece).
inline std::vector<Piece> split_on(Piece whole, std::string_view separators) {
  std::vector<Piece> out;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= whole.text.size(); ++i) {
    if (i == whole.text.size() || separators.find(whole.text[i]) != std::string_view::npos) {
      out.push_back({whole.pos + start, whole.text.substr(start, i - start)});
      start = i + 1;
    }
  }
  return out;
}

/// The non-empty words of `whole`, split on white space and any of `separators`.
inline std::vector<Piece> words(Piece whole, std::string_view separators = {}) {
  std::vector<Piece> out;
  std::size_t i = 0;
  const auto sep = [&](char c) {
    return is_space(c) || separators.find(c) != std::string_view::npos;
  };
  while (i < whole.text.size()) {
    while (i < whole.text.size() && sep(whole.text[i]))
      ++i;
    const std::size_t start = i;
    while (i < whole.text.size() && !sep(whole.text[i]))
      ++i;
    if (i > start) out.push_back({whole.pos + start, whole.text.substr(start, i - start)});
  }
  return out;
}

/// "bad WHAT spec 'TOKEN': expected EXPECTED", then the text and a caret under the token.
inline std::string caret_message(std::string_view what, const std::string& text,
                                 std::size_t position, std::size_t length,
                                 std::string_view expected) {
  const std::string token = position < text.size() ? text.substr(position, length) : std::string();
  std::string out = token.empty()
                        ? fmt::format("bad {} spec: expected {}", what, expected)
                        : fmt::format("bad {} spec '{}': expected {}", what, token, expected);
  if (!text.empty() && text.size() <= 200) {
    out += fmt::format("\n  {}\n  {}{}", text, std::string(std::min(position, text.size()), ' '),
                       std::string(std::max<std::size_t>(length, 1), '^'));
  }
  return out;
}

/// The same error for loaders: the expectation with the token it was found at.
inline DataError caret_data_error(const std::string& text, std::size_t position, std::size_t length,
                                  const std::string& expected, std::string file, int line,
                                  std::string field) {
  const std::string token = position < text.size() ? text.substr(position, length) : std::string();
  return DataError{std::move(file), line, std::move(field),
                   token.empty() ? expected : fmt::format("{} (at '{}')", expected, token)};
}

/// A keyword on a card: a letter, then letters, digits, '-' or '_' (at most 30).
inline bool valid_keyword(std::string_view s) {
  if (s.empty() || s.size() > 30 || std::isalpha(static_cast<unsigned char>(s[0])) == 0) {
    return false;
  }
  return std::all_of(s.begin(), s.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '-' || c == '_';
  });
}

/// Builds a game's errors (`Error{what, text, position, length, expected}`) for one spec.
template <class Error>
struct Failer {
  std::string what;
  std::string_view text;
  Error operator()(Piece at, std::string expected) const {
    return Error{what, std::string(text), at.pos, std::max<std::size_t>(at.text.size(), 1),
                 std::move(expected)};
  }
  Error at_end(std::string expected) const {
    return Error{what, std::string(text), text.size(), 1, std::move(expected)};
  }
};

}  // namespace duels::cards::scan

namespace duels::cards {

/// A notation mistake: the text, where the bad token starts, its length and what was expected.
/// `what` names the kind of spec ("runner", "Encounter", "track", "dice", …).
struct SpecError {
  std::string what;
  std::string text;
  std::size_t position = 0;
  std::size_t length = 0;
  std::string expected;

  /// "bad WHAT spec 'x': expected …" then the text and a caret under the token.
  [[nodiscard]] std::string message() const {
    return scan::caret_message(what, text, position, length, expected);
  }
  /// As a DataError for loaders (`field` names where the text came from).
  [[nodiscard]] DataError as_data_error(std::string file, int line, std::string field) const {
    return scan::caret_data_error(text, position, length, expected, std::move(file), line,
                                  std::move(field));
  }
};

}  // namespace duels::cards
