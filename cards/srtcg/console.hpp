#pragma once
/// @file The text console behind `duels srtcg play`: one line in, text out.
///
/// The command language (one command per line; `help` prints it) maps each line to an engine
/// Command, or to a session action (undo, redo, combat, …). Rolls without a face use the seeded
/// roller, and the faces go into the journaled command, so a session replays exactly.

#include <cstdint>
#include <string>
#include <string_view>

#include "cards/srtcg/session.hpp"
#include "dice/roller.hpp"

namespace duels::cards::srtcg {

/// A text rendering of the state: turn, phase, players, Objectives, safehouses, the run.
std::string render(const State& state);

/// The combat calculator on the Challenge (or Objective) the run is facing.
std::string combat_text(const State& state);

/// Reads console lines and drives a Session.
class Console {
 public:
  explicit Console(std::uint64_t seed);

  /// What one line produced.
  struct Reply {
    std::string text;
    bool ok = true;     ///< false when the line was refused or not understood
    bool quit = false;  ///< the line asked to end the session
  };
  Reply handle(std::string_view line);

  [[nodiscard]] const Session& session() const { return session_; }
  /// For restoring from a journal and attaching its recorder.
  Session& session() { return session_; }
  [[nodiscard]] std::uint64_t seed() const { return seed_; }
  /// The command language, for `help` and the README.
  static std::string help();

 private:
  Reply submit(const Command& command, std::string prefix = {});

  Session session_;
  std::uint64_t seed_;
  dice::Rng rng_;
};

}  // namespace duels::cards::srtcg
