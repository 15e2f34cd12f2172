#pragma once
/// @file What every card game does with its state as JSON: a stable hash for the journal, and
/// the manual override of one field by JSON pointer, re-checked by the game's own parser.

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include <cstdint>
#include <exception>
#include <optional>
#include <string>

#include "common/error.hpp"

namespace duels::cards {

/// FNV-1a of the canonical JSON text (sorted keys, no spaces; invalid UTF-8 replaced): equal
/// states hash equally on every machine.
inline std::uint64_t json_state_hash(const nlohmann::json& j) {
  const std::string text = j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  std::uint64_t h = 14695981039346656037ULL;
  for (unsigned char c : text) {
    h ^= c;
    h *= 1099511628211ULL;
  }
  return h;
}

/// `j` read as a T (its from_json), then checked by `invalid` (a reason in words, or nothing);
/// any error comes back as its message instead of an exception.
template <class T, class Invalid>
Expected<T, std::string> parse_json_as(const nlohmann::json& j, Invalid invalid) {
  try {
    T value = j.get<T>();
    if (auto problem = invalid(value)) return *problem;
    return value;
  } catch (const std::exception& e) {
    return std::string(e.what());
  }
}

/// `j` read as a T with no further check.
template <class T>
Expected<T, std::string> parse_json_as(const nlohmann::json& j) {
  return parse_json_as<T>(j, [](const T&) { return std::optional<std::string>(); });
}

/// `state` with the field at JSON pointer `path` set to `value`, parsed back with `parse`
/// (Expected<State, std::string>(const json&)). Fails in words when the path names no tracked
/// field or the result is not a valid state; `example_path` shows what a path looks like.
template <class State, class Parse>
Expected<State, std::string> override_json_field(const State& state, const std::string& path,
                                                 const nlohmann::json& value,
                                                 const char* example_path, Parse parse) {
  nlohmann::json j = state;
  try {
    (void)value.dump();  // text that is not UTF-8 can be neither shown nor journaled
  } catch (const nlohmann::json::exception&) {
    return std::string("a value in UTF-8 text (this one has bytes that are not UTF-8)");
  }
  try {
    const nlohmann::json::json_pointer ptr(path);
    if (!j.contains(ptr)) {
      return fmt::format("no tracked field at '{}' (paths look like {})", path, example_path);
    }
    j[ptr] = value;
  } catch (const std::exception& e) {
    return fmt::format("'{}' is not a field path like {} ({})", path, example_path, e.what());
  }
  auto parsed = parse(j);
  if (!parsed) {
    return fmt::format("{} cannot be set to {}: {}", path, value.dump(), parsed.error());
  }
  return parsed;
}

}  // namespace duels::cards
