#pragma once
/// @file An in-memory Crossfire session: a start state and the commands applied to it, with
/// undo and redo by replay. It stands in for the persistent journal (match/), which keeps the
/// same shape: the commands are the truth, the state is derived, undo = replay minus the last.

#include <vector>

#include "cards/crossfire/command.hpp"
#include "cards/crossfire/rules.hpp"
#include "cards/crossfire/state.hpp"

namespace duels::cards::crossfire {

/// Where a session writes what it does before it does it (the journal, in match/). Each call
/// must have made the record durable when it returns; if it throws, the session is unchanged.
class SessionRecorder {
 public:
  virtual ~SessionRecorder() = default;
  virtual void record_command(const Command& command) = 0;
  virtual void record_undo() = 0;
  virtual void record_redo() = 0;
};

/// A game in memory: submit commands, undo, redo; with a recorder, each is journaled first.
class Session {
 public:
  explicit Session(State start = {});

  /// Records every later submit/undo/redo there before applying it (nullptr: in memory only).
  void set_recorder(SessionRecorder* recorder) { recorder_ = recorder; }
  /// Puts the session where a journal left it: `log` in effect, `redo` undone (last undone
  /// last). Returns false (and changes nothing) if the log does not replay.
  bool restore(std::vector<Command> log, std::vector<Command> redo);

  /// Applies `command` if legal (then the redo list is cleared); returns its events.
  Expected<std::vector<Event>, Rejection> submit(const Command& command);
  /// Drops the last command and replays the rest. False when there is nothing to undo.
  bool undo();
  /// Re-applies the last undone command. False when there is nothing to redo.
  bool redo();

  [[nodiscard]] const State& state() const { return current_; }
  [[nodiscard]] const State& start() const { return start_; }
  [[nodiscard]] const std::vector<Command>& log() const { return log_; }
  [[nodiscard]] bool can_undo() const { return !log_.empty(); }
  [[nodiscard]] bool can_redo() const { return !redo_.empty(); }

 private:
  State start_;
  State current_;
  std::vector<Command> log_;
  std::vector<Command> redo_;
  SessionRecorder* recorder_ = nullptr;
};

}  // namespace duels::cards::crossfire
