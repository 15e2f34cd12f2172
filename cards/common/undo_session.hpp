#pragma once
/// @file An in-memory card-game session: a start state and the commands applied to it, with
/// undo and redo by replay. It stands in for the persistent journal (match/), which keeps the
/// same shape: the commands are the truth, the state is derived, undo = replay minus the last.
/// Every card-game helper (Encounters, Crossfire, SRTCG) uses it with its own rules.

#include <utility>
#include <vector>

#include "common/error.hpp"

namespace duels::cards {

/// Where a session writes what it does before it does it (the journal, in match/). Each call
/// must have made the record durable when it returns; if it throws, the session is unchanged.
template <class Command>
class SessionRecorder {
 public:
  virtual ~SessionRecorder() = default;
  virtual void record_command(const Command& command) = 0;
  virtual void record_undo() = 0;
  virtual void record_redo() = 0;
};

/// A game in memory: submit commands, undo, redo; with a recorder, each is journaled first.
///
/// `Rules` provides the types State, Command, Event and Rejection and two functions:
///   static Expected<Applied, Rejection> apply(const State&, const Command&);  Applied has
///       `state` and `events`;
///   static Replay replay(const State&, const std::vector<Command>&);  Replay has `state` and
///       `rejected_at` (empty when every command replayed).
template <class Rules>
class UndoSession {
 public:
  using State = typename Rules::State;
  using Command = typename Rules::Command;
  using Event = typename Rules::Event;
  using Rejection = typename Rules::Rejection;
  using Recorder = SessionRecorder<Command>;

  explicit UndoSession(State start = {}) : start_(std::move(start)), current_(start_) {}

  /// Records every later submit/undo/redo there before applying it (nullptr: in memory only).
  void set_recorder(Recorder* recorder) { recorder_ = recorder; }

  /// Puts the session where a journal left it: `log` in effect, `redo` undone (last undone
  /// last). Returns false (and changes nothing) if the log does not replay.
  bool restore(std::vector<Command> log, std::vector<Command> redo) {
    auto r = Rules::replay(start_, log);
    if (r.rejected_at) return false;
    current_ = std::move(r.state);
    log_ = std::move(log);
    redo_ = std::move(redo);
    return true;
  }

  /// Applies `command` if legal (then the redo list is cleared); returns its events.
  Expected<std::vector<Event>, Rejection> submit(const Command& command) {
    auto applied = Rules::apply(current_, command);
    if (!applied) return applied.error();
    if (recorder_ != nullptr) recorder_->record_command(command);
    current_ = std::move(applied->state);
    log_.push_back(command);
    redo_.clear();
    return std::move(applied->events);
  }

  /// Drops the last command and replays the rest. False when there is nothing to undo.
  bool undo() {
    if (log_.empty()) return false;
    if (recorder_ != nullptr) recorder_->record_undo();
    redo_.push_back(log_.back());
    log_.pop_back();
    // Every logged command was legal in order, so the replay cannot stop early.
    current_ = Rules::replay(start_, log_).state;
    return true;
  }

  /// Re-applies the last undone command. False when there is nothing to redo.
  bool redo() {
    if (redo_.empty()) return false;
    auto applied = Rules::apply(current_, redo_.back());
    if (!applied) return false;
    if (recorder_ != nullptr) recorder_->record_redo();
    current_ = std::move(applied->state);
    log_.push_back(redo_.back());
    redo_.pop_back();
    return true;
  }

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
  Recorder* recorder_ = nullptr;
};

}  // namespace duels::cards
