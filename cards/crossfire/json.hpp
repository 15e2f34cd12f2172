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

#include "cards/common/state_json.hpp"
#include "cards/crossfire/allocate.hpp"
#include "cards/crossfire/command.hpp"
#include "cards/crossfire/state.hpp"
#include "common/error.hpp"

namespace duels::cards::crossfire {

/// Every command struct converts on its own too; a command's JSON carries its "type".
DUELS_CARDS_DECLARE_JSON(Configure)
DUELS_CARDS_DECLARE_JSON(AddRunner)
DUELS_CARDS_DECLARE_JSON(StartGame)
DUELS_CARDS_DECLARE_JSON(DrawCrossfire)
DUELS_CARDS_DECLARE_JSON(BeginRound)
DUELS_CARDS_DECLARE_JSON(Flip)
DUELS_CARDS_DECLARE_JSON(Pull)
DUELS_CARDS_DECLARE_JSON(MoveObstacle)
DUELS_CARDS_DECLARE_JSON(ModifyObstacle)
DUELS_CARDS_DECLARE_JSON(HealObstacle)
DUELS_CARDS_DECLARE_JSON(PlayCard)
DUELS_CARDS_DECLARE_JSON(PlaceCard)
DUELS_CARDS_DECLARE_JSON(ApplyDamage)
DUELS_CARDS_DECLARE_JSON(DirectDamage)
DUELS_CARDS_DECLARE_JSON(TakeDamage)
DUELS_CARDS_DECLARE_JSON(Hurt)
DUELS_CARDS_DECLARE_JSON(Heal)
DUELS_CARDS_DECLARE_JSON(Draw)
DUELS_CARDS_DECLARE_JSON(DiscardCards)
DUELS_CARDS_DECLARE_JSON(GainNuyen)
DUELS_CARDS_DECLARE_JSON(Buy)
DUELS_CARDS_DECLARE_JSON(Cycle)
DUELS_CARDS_DECLARE_JSON(Pass)
DUELS_CARDS_DECLARE_JSON(EndTurn)
DUELS_CARDS_DECLARE_JSON(Override)

DUELS_CARDS_GAME_JSON_DECLARE(Command, Event, State)

/// The allocator's answer as JSON, the shape `duels crossfire allocate --json` prints:
/// {"obstacles": [{"name", "defeated", "cleared", "cleared_before", "weight", "placements":
/// [{"card", "level", "points", "levels"}]}], "wasted": [{"card", "points", "levels", "why"}],
/// "kept": [names], "score": {…}, "lines": [explanation]}. Levels are 1-based.
nlohmann::json allocation_json(const AllocInput& in, const AllocResult& r);

}  // namespace duels::cards::crossfire
