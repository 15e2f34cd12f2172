#pragma once
/// @file A JSON library error in a player's words: what was expected and what was found, never
/// "[json.exception.type_error.302] …".

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace duels {

namespace detail {
inline std::string json_kind_words(std::string_view kind) {
  if (kind == "number") return "a number";
  if (kind == "string") return "text";
  if (kind == "boolean") return "true or false";
  if (kind == "array") return "a list [ … ]";
  if (kind == "object") return "an object { … }";
  if (kind == "null") return "nothing (null)";
  return std::string(kind);
}
}  // namespace detail

/// The message of `e` in words: a JSON library error rephrased ("text was expected, not a
/// number"), any other exception's message as it is.
inline std::string plain_json_error(const std::exception& e) {
  const auto* je = dynamic_cast<const nlohmann::json::exception*>(&e);
  std::string m = e.what();
  if (je == nullptr) return m;
  if (const auto close = m.find("] "); m.starts_with("[json.exception.") && close != m.npos)
    m = m.substr(close + 2);
  if (m.starts_with("(") && m.find(") ") != m.npos) m = m.substr(m.find(") ") + 2);  // "(/path) "
  constexpr std::string_view kType = "type must be ";
  if (m.starts_with(kType)) {
    const auto but = m.find(", but is ");
    if (but != m.npos) {
      const std::string want = m.substr(kType.size(), but - kType.size());
      const std::string got = m.substr(but + 9);
      return detail::json_kind_words(want) + " was expected, not " + detail::json_kind_words(got);
    }
  }
  if (m.starts_with("key '") && m.ends_with("' not found"))
    return "the field '" + m.substr(5, m.size() - 16) + "' is missing";
  if (dynamic_cast<const nlohmann::json::parse_error*>(&e) != nullptr) {
    if (const auto dash = m.find(": "); dash != m.npos) m = m.substr(dash + 2);
    if (m.starts_with("syntax error while parsing value - ")) m = m.substr(35);
    if (m.find("JSON pointer") != m.npos) return "a field path starting with '/'";
    return m;
  }
  if (m.find("invalid UTF-8") != m.npos) return "text in UTF-8 (these bytes are not)";
  return m;
}

}  // namespace duels
