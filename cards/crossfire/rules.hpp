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

/// The state after a command and what happened.
struct Applied {
  State state;
  std::vector<Event> events;
};

/// Applies one command. Call it qualified (`crossfire::apply(s, c)`): unqualified, argument-
/// dependent lookup also finds std::apply through the std::variant and libstdc++ then fails
/// to compile.
Expected<Applied, Rejection> apply(const State& state, const Command& command);
/// nullopt when `command` is legal now, else why not.
std::optional<Rejection> why_illegal(const State& state, const Command& command);
/// True when `command` is legal now.
bool legal(const State& state, const Command& command);

/// Replays commands from `start`; stops at the first rejection (returned with its index).
using Replay = cards::Replay<State, Event, Rejection>;
Replay replay(const State& start, const std::vector<Command>& commands);

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
