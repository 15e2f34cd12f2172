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

#include "cards/common/state_json.hpp"
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
DUELS_CARDS_DECLARE_JSON(AddPlayer)
DUELS_CARDS_DECLARE_JSON(Configure)
DUELS_CARDS_DECLARE_JSON(SetDistricts)
DUELS_CARDS_DECLARE_JSON(SetDecks)
DUELS_CARDS_DECLARE_JSON(DealStarter)
DUELS_CARDS_DECLARE_JSON(StartGame)
DUELS_CARDS_DECLARE_JSON(IgnoreDistrict)
DUELS_CARDS_DECLARE_JSON(ChangeDistrict)
DUELS_CARDS_DECLARE_JSON(MidTurnDistrict)
DUELS_CARDS_DECLARE_JSON(Flip)
DUELS_CARDS_DECLARE_JSON(Hire)
DUELS_CARDS_DECLARE_JSON(DiscardRunner)
DUELS_CARDS_DECLARE_JSON(AddBonusDice)
DUELS_CARDS_DECLARE_JSON(Roll)
DUELS_CARDS_DECLARE_JSON(DefeatStep)
DUELS_CARDS_DECLARE_JSON(Defeat)
DUELS_CARDS_DECLARE_JSON(Fail)
DUELS_CARDS_DECLARE_JSON(Retain)
DUELS_CARDS_DECLARE_JSON(Score)
DUELS_CARDS_DECLARE_JSON(Escalate)
DUELS_CARDS_DECLARE_JSON(Burn)
DUELS_CARDS_DECLARE_JSON(DeclineBurn)
DUELS_CARDS_DECLARE_JSON(Datasteal)
DUELS_CARDS_DECLARE_JSON(FreshStart)
DUELS_CARDS_DECLARE_JSON(UseMegacorp)
DUELS_CARDS_DECLARE_JSON(Override)

DUELS_CARDS_GAME_JSON_DECLARE(Command, Event, State)

/// The match finder's answer as JSON: {"plain_match", "found", "truncated", "lock_sizes",
/// "solutions": [{"dice", "groups", "faces", "values", "steps", "cards", "dice_left",
/// "escalation", "retain_cost", "cards_lost", "text"}], "unavailable": […]}. Die numbers are
/// 1-based positions in query.dice.
nlohmann::json match_result_json(const MatchResult& result, const MatchQuery& query);

}  // namespace duels::cards::encounters
