#pragma once
/// @file JSON forms of Crossfire commands, events and state, for the journal (match/).
///
/// Commands are objects with a "type" (e.g. {"type":"take_damage","extra":1,"stopped":[]}).
/// Obstacles and card damage inside the state are stored as their notation text, so a journal
/// and a state dump stay readable. from_json throws std::invalid_argument (or a nlohmann
/// exception) on bad input; parse_command / parse_state return the error in words instead.

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "cards/crossfire/allocate.hpp"
#include "cards/crossfire/command.hpp"
#include "cards/crossfire/state.hpp"
#include "common/error.hpp"

namespace duels::cards::crossfire {

/// Every command struct converts on its own too; a command's JSON carries its "type".
#define DUELS_CF_DECLARE_JSON(T)               \
  void to_json(nlohmann::json& j, const T& v); \
  void from_json(const nlohmann::json& j, T& v);
DUELS_CF_DECLARE_JSON(Configure)
DUELS_CF_DECLARE_JSON(AddRunner)
DUELS_CF_DECLARE_JSON(StartGame)
DUELS_CF_DECLARE_JSON(DrawCrossfire)
DUELS_CF_DECLARE_JSON(BeginRound)
DUELS_CF_DECLARE_JSON(Flip)
DUELS_CF_DECLARE_JSON(Pull)
DUELS_CF_DECLARE_JSON(MoveObstacle)
DUELS_CF_DECLARE_JSON(ModifyObstacle)
DUELS_CF_DECLARE_JSON(HealObstacle)
DUELS_CF_DECLARE_JSON(PlayCard)
DUELS_CF_DECLARE_JSON(PlaceCard)
DUELS_CF_DECLARE_JSON(ApplyDamage)
DUELS_CF_DECLARE_JSON(DirectDamage)
DUELS_CF_DECLARE_JSON(TakeDamage)
DUELS_CF_DECLARE_JSON(Hurt)
DUELS_CF_DECLARE_JSON(Heal)
DUELS_CF_DECLARE_JSON(Draw)
DUELS_CF_DECLARE_JSON(DiscardCards)
DUELS_CF_DECLARE_JSON(GainNuyen)
DUELS_CF_DECLARE_JSON(Buy)
DUELS_CF_DECLARE_JSON(Cycle)
DUELS_CF_DECLARE_JSON(Pass)
DUELS_CF_DECLARE_JSON(EndTurn)
DUELS_CF_DECLARE_JSON(Override)
#undef DUELS_CF_DECLARE_JSON

void to_json(nlohmann::json& j, const Command& c);
void from_json(const nlohmann::json& j, Command& c);
void to_json(nlohmann::json& j, const Event& e);
void from_json(const nlohmann::json& j, Event& e);
void to_json(nlohmann::json& j, const State& s);
void from_json(const nlohmann::json& j, State& s);

/// The command in a JSON object, or why it is not one.
Expected<Command, std::string> parse_command(const nlohmann::json& j);
/// The state in a JSON object, or why it is not one (invariants are checked too).
Expected<State, std::string> parse_state(const nlohmann::json& j);

/// The "type" string of a command ("play_card", "end_turn", …).
std::string command_type(const Command& c);

/// A stable 64-bit hash of the state: FNV-1a of its canonical JSON (sorted keys, no spaces).
/// Equal states hash equally on every machine; the journal stores it to check replays.
std::uint64_t state_hash(const State& s);
/// state_hash as 16 lower-case hex digits.
std::string state_hash_hex(const State& s);

/// The manual override: `s` with the field at JSON pointer `path` set to `value`. Fails (in
/// words) when the path names no tracked field or the result is not a valid state.
Expected<State, std::string> override_field(const State& s, const std::string& path,
                                            const nlohmann::json& value);

/// The allocator's answer as JSON, the shape `duels crossfire allocate --json` prints:
/// {"obstacles": [{"name", "defeated", "cleared", "cleared_before", "weight", "placements":
/// [{"card", "level", "points", "levels"}]}], "wasted": [{"card", "points", "levels", "why"}],
/// "kept": [names], "score": {…}, "lines": [explanation]}. Levels are 1-based.
nlohmann::json allocation_json(const AllocInput& in, const AllocResult& r);

}  // namespace duels::cards::crossfire
