#pragma once
/// @file A Duels match backed by its journal: every command is written and synced before it is
/// applied, undo and redo are entries too, and opening the file replays it to the last event.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "duels/engine.hpp"
#include "match/journal.hpp"

namespace duels::match {

/// The journal kind of a Duels match.
inline constexpr const char* kDuelsKind = "duels";

/// One applied command with what it did.
struct MatchStep {
  std::uint64_t seq = 0;  ///< journal sequence number of the command
  Command command;
  std::vector<Event> events;
};

/// A journal replayed: the set-up, the state after the last (or the asked-for) event, and the
/// commands in effect (undone ones left out).
struct Replay {
  MatchSetup setup;
  std::uint64_t seed = 0;
  GameState state;
  std::vector<MatchStep> steps;
  std::vector<MatchStep> redo;  ///< undone steps that redo would bring back, last undone last
  std::uint64_t last_seq = 0;   ///< last journal entry used
  std::vector<std::string> warnings;
  std::optional<DataError> error;  ///< where replay stopped early, if it did
};

/// Replays journal contents up to entry `at` (all entries when nullopt). Never throws for a
/// damaged entry: it stops there and says so in `error`. Throws DataException when the header
/// is not a Duels match.
Replay replay(const JournalContents& contents, std::optional<std::uint64_t> at = std::nullopt);

/// A match open for play.
class DuelsMatch {
 public:
  /// Starts a journal at `path` (which must not exist) for this set-up.
  static DuelsMatch create(const std::string& path, const MatchSetup& setup, std::uint64_t seed);
  /// Opens a journal, replays it and makes it ready to append (repairing a torn tail by
  /// writing a new file and renaming it). Throws DataException if nothing can be recovered.
  static DuelsMatch resume(const std::string& path);

  /// Checks the command; if legal, journals it (synced), then applies it.
  Expected<std::vector<Event>, Rejection> play(const Command& command);
  /// Undoes the last command in effect (journaled as an "undo" entry).
  std::optional<Rejection> undo();
  /// Brings back the last undone command.
  std::optional<Rejection> redo();

  [[nodiscard]] const GameState& state() const { return replay_.state; }
  [[nodiscard]] const Replay& history() const { return replay_; }
  [[nodiscard]] std::uint64_t seed() const { return replay_.seed; }
  [[nodiscard]] const std::string& path() const { return writer_.path(); }
  [[nodiscard]] bool repaired() const { return repaired_; }

 private:
  DuelsMatch(Replay r, JournalWriter w, bool repaired)
      : replay_(std::move(r)), writer_(std::move(w)), repaired_(repaired) {}
  void rebuild();

  Replay replay_;
  JournalWriter writer_;
  bool repaired_ = false;
};

/// The XDG data folder for journals and the match index:
/// $XDG_DATA_HOME/duels-companion, else ~/.local/share/duels-companion.
std::string data_dir();

}  // namespace duels::match
