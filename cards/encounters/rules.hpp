#pragma once
/// @file The Encounters rules engine: one entry point, apply(state, command).
///
/// apply never mutates its input and never throws for a game reason: it returns the new state
/// and what happened, or a Rejection saying why not. legal() is apply without the result.
/// Replaying the same commands from the same start always gives the same state.

#include <optional>
#include <string>
#include <vector>

#include "cards/common/replay.hpp"
#include "cards/encounters/command.hpp"
#include "cards/encounters/match.hpp"
#include "cards/encounters/state.hpp"
#include "common/error.hpp"

namespace duels::cards::encounters {

DUELS_CARDS_RULES_DECLARE(State, Command, Event, Rejection)

/// Nuyen the tableau is worth if scored now: Σ column + bonus per defeated Encounter.
int tableau_value(const Run& run);
/// Number of unlocked dice.
int unlocked_dice(const Run& run);

/// The District stand after `icons` Rotate-District icons: rotated front-to-back `icons`
/// times for 1..4, unchanged for 0; for 5+ `shuffle` is true (the table shuffles).
struct Rotation {
  std::vector<std::string> order;
  bool shuffle = false;
};
Rotation rotate_districts(const std::vector<std::string>& order, int icons);

/// A match-finder query for the active player against the current rolled Encounter, with the
/// maps back to the state's dice and cards.
struct StateQuery {
  MatchQuery query;
  std::vector<int> die_index;  ///< query die → Run::dice index
  std::vector<bool> special;   ///< query card → it is a Special Shadowrunner
};
/// Fails when there is no rolled Encounter.
Expected<StateQuery, Rejection> match_query(const State& state);
/// The Defeat command that takes `solution` (found for `sq`).
Defeat defeat_command(const StateQuery& sq, const Solution& solution);

/// The player index with this name, or -1.
int player_index(const State& state, const std::string& name);

}  // namespace duels::cards::encounters
