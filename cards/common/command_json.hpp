#pragma once
/// @file JSON for the card games' commands: each command is a struct with a `kType` name, and a
/// game's Command is a std::variant of them. The macros write a struct's to_json/from_json from
/// its field list (missing fields take the struct's default, so journals written by older
/// versions keep loading; wrong types throw); the templates handle the variant by `type`.
/// Use the macros inside the game's namespace, in its json.cpp, with `using nlohmann::json;`.

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include <stdexcept>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

#define DUELS_CARDS_JSON_TO(field) nlohmann_json_j[#field] = nlohmann_json_t.field;
#define DUELS_CARDS_JSON_FROM(field) \
  nlohmann_json_t.field = nlohmann_json_j.value(#field, nlohmann_json_default_obj.field);

/// to_json / from_json for a command struct with these fields (and "type": Type::kType).
#define DUELS_CARDS_COMMAND_JSON(Type, ...)                                                      \
  void to_json(nlohmann::json& nlohmann_json_j, const Type& nlohmann_json_t) {                   \
    nlohmann_json_j = nlohmann::json::object();                                                  \
    NLOHMANN_JSON_EXPAND(NLOHMANN_JSON_PASTE(DUELS_CARDS_JSON_TO, __VA_ARGS__))                  \
    nlohmann_json_j["type"] = Type::kType;                                                       \
  }                                                                                              \
  void from_json(const nlohmann::json& nlohmann_json_j, Type& nlohmann_json_t) {                 \
    if (!nlohmann_json_j.is_object()) throw std::invalid_argument("a command is a JSON object"); \
    const Type nlohmann_json_default_obj{};                                                      \
    NLOHMANN_JSON_EXPAND(NLOHMANN_JSON_PASTE(DUELS_CARDS_JSON_FROM, __VA_ARGS__))                \
  }

/// to_json / from_json for a command struct without fields.
#define DUELS_CARDS_EMPTY_COMMAND_JSON(Type)                                       \
  void to_json(nlohmann::json& j, const Type&) {                                   \
    j = nlohmann::json{{"type", Type::kType}};                                     \
  }                                                                                \
  void from_json(const nlohmann::json& j, Type&) {                                 \
    if (!j.is_object()) throw std::invalid_argument("a command is a JSON object"); \
  }

/// to_json / from_json for a plain struct's fields (no "type").
#define DUELS_CARDS_STRUCT_JSON(Type, ...)                                          \
  void to_json(nlohmann::json& nlohmann_json_j, const Type& nlohmann_json_t) {      \
    nlohmann_json_j = nlohmann::json::object();                                     \
    NLOHMANN_JSON_EXPAND(NLOHMANN_JSON_PASTE(DUELS_CARDS_JSON_TO, __VA_ARGS__))     \
  }                                                                                 \
  void from_json(const nlohmann::json& nlohmann_json_j, Type& nlohmann_json_t) {    \
    if (!nlohmann_json_j.is_object()) throw std::invalid_argument("a JSON object"); \
    const Type nlohmann_json_default_obj{};                                         \
    NLOHMANN_JSON_EXPAND(NLOHMANN_JSON_PASTE(DUELS_CARDS_JSON_FROM, __VA_ARGS__))   \
  }

/// A game's Command variant and Event as JSON, and `command_type`: the same in every game.
/// The Event has `type` and `text`.
#define DUELS_CARDS_GAME_JSON(Command, Event)               \
  void to_json(nlohmann::json& j, const Command& c) {       \
    ::duels::cards::command_to_json(j, c);                  \
  }                                                         \
  void from_json(const nlohmann::json& j, Command& c) {     \
    ::duels::cards::command_from_json(j, c);                \
  }                                                         \
  std::string command_type(const Command& c) {              \
    return ::duels::cards::command_type_of(c);              \
  }                                                         \
  void to_json(nlohmann::json& j, const Event& e) {         \
    j = nlohmann::json{{"type", e.type}, {"text", e.text}}; \
  }                                                         \
  void from_json(const nlohmann::json& j, Event& e) {       \
    e.type = j.value("type", std::string());                \
    e.text = j.value("text", std::string());                \
  }

namespace duels::cards {

namespace detail {
template <class Variant, std::size_t I = 0>
bool command_from(const nlohmann::json& j, const std::string& type, Variant& c) {
  if constexpr (I < std::variant_size_v<Variant>) {
    using T = std::variant_alternative_t<I, Variant>;
    if (type == T::kType) {
      T v;
      from_json(j, v);
      c = std::move(v);
      return true;
    }
    return command_from<Variant, I + 1>(j, type, c);
  } else {
    return false;
  }
}
template <class Variant, std::size_t I = 0>
void command_types(std::vector<std::string>& out) {
  if constexpr (I < std::variant_size_v<Variant>) {
    out.emplace_back(std::variant_alternative_t<I, Variant>::kType);
    command_types<Variant, I + 1>(out);
  }
}
}  // namespace detail

/// The `kType` names of every alternative of a command variant, in order.
template <class Variant>
std::vector<std::string> command_types() {
  std::vector<std::string> out;
  detail::command_types<Variant>(out);
  return out;
}

/// Writes whichever command the variant holds.
template <class Variant>
void command_to_json(nlohmann::json& j, const Variant& c) {
  std::visit([&](const auto& v) { to_json(j, v); }, c);
}

/// Reads a command by its "type"; throws std::invalid_argument naming the known types.
template <class Variant>
void command_from_json(const nlohmann::json& j, Variant& c) {
  if (!j.is_object() || !j.contains("type") || !j["type"].is_string()) {
    throw std::invalid_argument("a command is a JSON object with a \"type\" string");
  }
  const std::string type = j["type"].template get<std::string>();
  if (!detail::command_from(j, type, c)) {
    throw std::invalid_argument(fmt::format("unknown command type '{}' (known: {})", type,
                                            fmt::join(command_types<Variant>(), ", ")));
  }
}

/// The `kType` of the command the variant holds.
template <class Variant>
std::string command_type_of(const Variant& c) {
  return std::visit([](const auto& v) { return std::string(std::decay_t<decltype(v)>::kType); }, c);
}

}  // namespace duels::cards
