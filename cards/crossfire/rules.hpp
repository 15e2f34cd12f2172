#pragma once
/// @file The Crossfire rules engine: one entry point, apply(state, command).
///
/// apply never mutates its input and never throws for a game reason: it returns the new state
/// and what happened, or a Rejection saying why not. Replaying the same commands from the same
/// start always gives the same state. The engine automates the arithmetic and the life cycles
/// (track clears, payouts, packets, stagger and critical, draws, the Black Market, the Crossfire
/// level, removal versus discard, Scene ends, the Extraction track, the abort round) and leaves
/// card text to the table, with reminders.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cards/common/replay.hpp"
#include "cards/crossfire/allocate.hpp"
#include "cards/crossfire/calc.hpp"
#include "cards/crossfire/command.hpp"
#include "cards/crossfire/state.hpp"
#include "common/error.hpp"

namespace duels::cards::crossfire {

DUELS_CARDS_RULES_DECLARE(State, Command, Event, Rejection)

/// The seat of a runner by name (any case; "Client" finds the Client), or -1.
int runner_index(const State& state, std::string_view name);
/// The index into State::obstacles of an obstacle by name (any case) or "#id", or -1.
int obstacle_index(const State& state, std::string_view name);
/// The number of runners, the Client left out.
int runner_count(const State& state);

/// What the table should do next, in words (flips due, the Crossfire draw, the turn's step).
std::vector<std::string> next_steps(const State& state);

/// The incoming-damage forecast for every seat from the state, current runner first.
std::vector<IncomingForecast> incoming(const State& state);

/// An allocation problem from the state: the obstacles in play (facing runners), the cards
/// played this turn and not yet applied (played), plus `offered` bundles (hand cards, assists).
AllocInput allocation_input(const State& state, const std::vector<AllocCard>& offered = {});

/// The Scene flip forecast for the Crossfire mission's next Scene (or the Dragon Fight's round,
/// or the Extraction step's flips), from the current level.
std::optional<FlipForecast> flip_forecast(const State& state);

}  // namespace duels::cards::crossfire
