#pragma once
/// @file What every card game does with its state as JSON: a stable hash for the journal, and
/// the manual override of one field by JSON pointer, re-checked by the game's own parser.

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include <cstdint>
#include <exception>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>

#include "common/error.hpp"
#include "common/json_words.hpp"

/// Declares to_json / from_json for one of a game's types (a command, a card, a part of the state).
#define DUELS_CARDS_DECLARE_JSON(T)            \
  void to_json(nlohmann::json& j, const T& v); \
  void from_json(const nlohmann::json& j, T& v);

/// Declares a card game's JSON binding, in the game's namespace (its json.hpp), after the
/// game's Command, Event and State:
///   to_json / from_json for the Command variant, the Event and the State;
///   parse_command / parse_state: the command or state in a JSON object, or why it is not one
///       (the state's invariants are checked too);
///   command_type: the "type" string of a command ("roll", "fight", …);
///   state_hash: a stable 64-bit hash of the state, FNV-1a of its canonical JSON (sorted keys,
///       no spaces): equal states hash equally on every machine, and the journal stores it to
///       check replays; state_hash_hex: the same as 16 lower-case hex digits;
///   override_field: the manual override, `s` with the field at JSON pointer `path` set to
///       `value`; fails (in words) when the path names no tracked field or the result is not a
///       valid state.
/// DUELS_CARDS_GAME_JSON (command_json.hpp) and DUELS_CARDS_STATE_JSON define them.
#define DUELS_CARDS_GAME_JSON_DECLARE(Command, Event, State)                           \
  void to_json(nlohmann::json& j, const Command& c);                                   \
  void from_json(const nlohmann::json& j, Command& c);                                 \
  void to_json(nlohmann::json& j, const Event& e);                                     \
  void from_json(const nlohmann::json& j, Event& e);                                   \
  void to_json(nlohmann::json& j, const State& s);                                     \
  void from_json(const nlohmann::json& j, State& s);                                   \
  Expected<Command, std::string> parse_command(const nlohmann::json& j);               \
  Expected<State, std::string> parse_state(const nlohmann::json& j);                   \
  std::string command_type(const Command& c);                                          \
  std::uint64_t state_hash(const State& s);                                            \
  std::string state_hash_hex(const State& s);                                          \
  Expected<State, std::string> override_field(const State& s, const std::string& path, \
                                              const nlohmann::json& value);

/// Defines the State's to_json / from_json through `to(json&, const State&)` and
/// `from(const json&, State&)`, which fill and read a JSON object.
#define DUELS_CARDS_STATE_OBJECT_JSON(State, to, from)                           \
  void to_json(nlohmann::json& j, const State& s) {                              \
    j = nlohmann::json::object();                                                \
    to(j, s);                                                                    \
  }                                                                              \
  void from_json(const nlohmann::json& j, State& s) {                            \
    if (!j.is_object()) throw std::invalid_argument("a state is a JSON object"); \
    from(j, s);                                                                  \
  }

/// Defines parse_command, parse_state (read with the State's from_json, then checked by
/// `invalid_state(const State&)`: a reason in words or nothing), state_hash, state_hash_hex and
/// override_field (`example_path` shows what a field path looks like in the refusal), in the
/// game's namespace (its json.cpp).
#define DUELS_CARDS_STATE_JSON(Command, State, invalid_state, example_path)                    \
  Expected<Command, std::string> parse_command(const nlohmann::json& j) {                      \
    return ::duels::cards::parse_json_as<Command>(j);                                          \
  }                                                                                            \
  Expected<State, std::string> parse_state(const nlohmann::json& j) {                          \
    return ::duels::cards::parse_json_as<State>(j, invalid_state);                             \
  }                                                                                            \
  std::uint64_t state_hash(const State& s) {                                                   \
    return ::duels::cards::json_state_hash(nlohmann::json(s));                                 \
  }                                                                                            \
  std::string state_hash_hex(const State& s) {                                                 \
    return fmt::format("{:016x}", state_hash(s));                                              \
  }                                                                                            \
  Expected<State, std::string> override_field(const State& s, const std::string& path,         \
                                              const nlohmann::json& value) {                   \
    return ::duels::cards::override_json_field(                                                \
        s, path, value, example_path, [](const nlohmann::json& j) { return parse_state(j); }); \
  }

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

/// The first number in `j` that is not a whole number an `int` holds, in words with its JSON
/// pointer; nothing when every number fits. The card games count everything in ints, and
/// reading 2e50 or 3.5 into one is undefined or silently wrong (libFuzzer found `set /current
/// 2e50` in the Crossfire console).
inline std::optional<std::string> number_not_an_int(const nlohmann::json& j,
                                                    const std::string& at = "") {
  using V = nlohmann::json::value_t;
  const auto refuse = [&] {
    return fmt::format("{} is {}: a whole number from {} to {} was expected",
                       at.empty() ? std::string("the value") : at, j.dump(),
                       std::numeric_limits<int>::min(), std::numeric_limits<int>::max());
  };
  switch (j.type()) {
    case V::object:
      for (const auto& [key, value] : j.items()) {
        if (auto bad = number_not_an_int(value, at + "/" + key)) return bad;
      }
      return std::nullopt;
    case V::array:
      for (std::size_t i = 0; i < j.size(); ++i) {
        if (auto bad = number_not_an_int(j[i], at + "/" + std::to_string(i))) return bad;
      }
      return std::nullopt;
    case V::number_float:
      return refuse();
    case V::number_unsigned:
      if (j.get<std::uint64_t>() > static_cast<std::uint64_t>(std::numeric_limits<int>::max()))
        return refuse();
      return std::nullopt;
    case V::number_integer: {
      const auto n = j.get<std::int64_t>();
      if (n < std::numeric_limits<int>::min() || n > std::numeric_limits<int>::max())
        return refuse();
      return std::nullopt;
    }
    default:
      return std::nullopt;
  }
}

/// `j` read as a T (its from_json), then checked by `invalid` (a reason in words, or nothing);
/// any error comes back as its message instead of an exception. Every number must be a whole
/// number an `int` holds (number_not_an_int).
template <class T, class Invalid>
Expected<T, std::string> parse_json_as(const nlohmann::json& j, Invalid invalid) {
  if (auto bad = number_not_an_int(j)) return *bad;
  try {
    T value = j.get<T>();
    if (auto problem = invalid(value)) return *problem;
    return value;
  } catch (const std::exception& e) {
    return plain_json_error(e);
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
    return fmt::format("'{}' is not a field path like {} ({})", path, example_path,
                       plain_json_error(e));
  }
  auto parsed = parse(j);
  if (!parsed) {
    return fmt::format("{} cannot be set to {}: {}", path, value.dump(), parsed.error());
  }
  return parsed;
}

}  // namespace duels::cards
