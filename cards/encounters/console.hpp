#pragma once
/// @file The text console behind `duels encounters play`: one line in, text out.
///
/// The command language (one command per line; `help` prints it) maps each line to an engine
/// Command, or to a session action (undo, redo, solve, advise, …). Rolls without faces use the
/// seeded roller, and the faces go into the journaled Roll command, so a session replays
/// exactly. The console keeps its log in memory (Session); the persistent journal will take
/// its place.

#include <cstdint>
#include <string>
#include <string_view>

#include "cards/common/console.hpp"
#include "cards/encounters/session.hpp"
#include "dice/roller.hpp"

namespace duels::cards::encounters {

/// A text rendering of the state: turn, District, tableau, dice, players.
std::string render(const State& state);

/// The advisor's view of the current state, with its numbers (what `advise` prints).
std::string advise_text(const State& state, std::uint64_t seed);

/// Reads console lines and drives a Session.
class Console : public cards::SeededConsole<Session> {
 public:
  explicit Console(std::uint64_t seed);

  Reply handle(std::string_view line);

  /// The command language, for `help` and the README.
  static std::string help();

 private:
  Reply submit(const Command& command, std::string prefix = {});
  Reply solve_text();
};

}  // namespace duels::cards::encounters
