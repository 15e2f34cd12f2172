#pragma once
/// @file JSON forms of Encounters commands, events and state, for the journal (match/).
///
/// Commands are objects with a "type" (e.g. {"type":"roll","faces":[1,1,3]}). Cards are stored
/// as their notation text ("Topshelf: wild 2,5; metahuman: +1; red"), so a journal stays
/// readable. from_json throws std::invalid_argument (or a nlohmann exception) on bad input;
/// parse_command / parse_state return the error in words instead.

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "cards/encounters/command.hpp"
#include "cards/encounters/match.hpp"
#include "cards/encounters/state.hpp"
#include "common/error.hpp"

namespace duels::cards::encounters {

void to_json(nlohmann::json& j, const RunnerCard& c);
void from_json(const nlohmann::json& j, RunnerCard& c);
void to_json(nlohmann::json& j, const EncounterCard& c);
void from_json(const nlohmann::json& j, EncounterCard& c);

/// Every command struct (and DefeatStep) converts on its own too; a command's JSON carries
/// its "type".
#define DUELS_ENC_DECLARE_JSON(T)              \
  void to_json(nlohmann::json& j, const T& v); \
  void from_json(const nlohmann::json& j, T& v);
DUELS_ENC_DECLARE_JSON(AddPlayer)
DUELS_ENC_DECLARE_JSON(Configure)
DUELS_ENC_DECLARE_JSON(SetDistricts)
DUELS_ENC_DECLARE_JSON(SetDecks)
DUELS_ENC_DECLARE_JSON(DealStarter)
DUELS_ENC_DECLARE_JSON(StartGame)
DUELS_ENC_DECLARE_JSON(IgnoreDistrict)
DUELS_ENC_DECLARE_JSON(ChangeDistrict)
DUELS_ENC_DECLARE_JSON(MidTurnDistrict)
DUELS_ENC_DECLARE_JSON(Flip)
DUELS_ENC_DECLARE_JSON(Hire)
DUELS_ENC_DECLARE_JSON(DiscardRunner)
DUELS_ENC_DECLARE_JSON(AddBonusDice)
DUELS_ENC_DECLARE_JSON(Roll)
DUELS_ENC_DECLARE_JSON(DefeatStep)
DUELS_ENC_DECLARE_JSON(Defeat)
DUELS_ENC_DECLARE_JSON(Fail)
DUELS_ENC_DECLARE_JSON(Retain)
DUELS_ENC_DECLARE_JSON(Score)
DUELS_ENC_DECLARE_JSON(Escalate)
DUELS_ENC_DECLARE_JSON(Burn)
DUELS_ENC_DECLARE_JSON(DeclineBurn)
DUELS_ENC_DECLARE_JSON(Datasteal)
DUELS_ENC_DECLARE_JSON(FreshStart)
DUELS_ENC_DECLARE_JSON(UseMegacorp)
DUELS_ENC_DECLARE_JSON(Override)
#undef DUELS_ENC_DECLARE_JSON

void to_json(nlohmann::json& j, const Command& c);
void from_json(const nlohmann::json& j, Command& c);
void to_json(nlohmann::json& j, const Event& e);
void from_json(const nlohmann::json& j, Event& e);
void to_json(nlohmann::json& j, const State& s);
void from_json(const nlohmann::json& j, State& s);

/// The command in a JSON object, or why it is not one.
Expected<Command, std::string> parse_command(const nlohmann::json& j);
/// The state in a JSON object, or why it is not one.
Expected<State, std::string> parse_state(const nlohmann::json& j);

/// The "type" string of a command ("roll", "defeat", …).
std::string command_type(const Command& c);

/// The match finder's answer as JSON: {"plain_match", "found", "truncated", "lock_sizes",
/// "solutions": [{"dice", "groups", "faces", "values", "steps", "cards", "dice_left",
/// "escalation", "retain_cost", "cards_lost", "text"}], "unavailable": […]}. Die numbers are
/// 1-based positions in query.dice.
nlohmann::json match_result_json(const MatchResult& result, const MatchQuery& query);

/// A stable 64-bit hash of the state: FNV-1a of its canonical JSON (sorted keys, no spaces).
/// Equal states hash equally on every machine; the journal stores it to check replays.
std::uint64_t state_hash(const State& s);
/// state_hash as 16 lower-case hex digits.
std::string state_hash_hex(const State& s);

/// The manual override: `s` with the field at JSON pointer `path` set to `value`. Fails (in
/// words) when the path names no tracked field or the result is not a valid state.
Expected<State, std::string> override_field(const State& s, const std::string& path,
                                            const nlohmann::json& value);

}  // namespace duels::cards::encounters
