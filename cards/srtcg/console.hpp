#pragma once
/// @file The text console behind `duels srtcg play`: one line in, text out.
///
/// The command language (one command per line; `help` prints it) maps each line to an engine
/// Command, or to a session action (undo, redo, combat, …). Rolls without a face use the seeded
/// roller, and the faces go into the journaled command, so a session replays exactly.

#include <cstdint>
#include <string>
#include <string_view>

#include "cards/common/console.hpp"
#include "cards/srtcg/session.hpp"
#include "dice/roller.hpp"

namespace duels::cards::srtcg {

/// A text rendering of the state: turn, phase, players, Objectives, safehouses, the run.
std::string render(const State& state);

/// The combat calculator on the Challenge (or Objective) the run is facing.
std::string combat_text(const State& state);

/// Reads console lines and drives a Session.
class Console : public cards::SeededConsole<Session> {
 public:
  explicit Console(std::uint64_t seed);

  Reply handle(std::string_view line);

  /// The command language, for `help` and the README.
  static std::string help();

 private:
  Reply submit(const Command& command, std::string prefix = {});
};

}  // namespace duels::cards::srtcg
